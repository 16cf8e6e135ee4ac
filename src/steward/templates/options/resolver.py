"""The options of a template's sourced questions, for the launch dialog and for every launch.

``Sources`` is what reading them needs beyond the database (the key cipher, the repository
roots and the outbound guard: a ``Reach``; the run sandbox), carried by each session of the
process (``session.info[SOURCES]``, set by ``runtime.Runtime.build``), so every launch path,
whatever called it, reads the same options. Answers from a URL or a script are kept for
``Sources.cache_seconds`` (``STEWARD_SURVEY_OPTIONS_CACHE_SECONDS``) per template, question
source and the earlier answers it names: the dialog's opening and the launch that follows read
one answer. The inventory is read each time (a query of the database). The dialog's reads that
the cache does not answer are counted (``charge``: the caller's preview rate).
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from steward.errors import InvalidInput
from steward.execution.ansible.sandbox import Sandbox
from steward.keys.models import Key, KeyKind
from steward.outbound import network
from steward.repositories.checkout import Reach
from steward.repositories.models import Repository
from steward.templates.models import Template
from steward.templates.options import cascade, inventory, listing, script, url
from steward.templates.options.sources import (
    InventorySource,
    ScriptSource,
    UrlSource,
    depends_on,
)
from steward.templates.survey import Question, QuestionType

SOURCES = "survey_option_sources"
CACHE_SECONDS = 60.0  # the default of STEWARD_SURVEY_OPTIONS_CACHE_SECONDS
CACHE_ENTRIES = 512


@dataclasses.dataclass(frozen=True)
class Sources:
    reach: Reach
    sandbox: Sandbox
    cache_seconds: float = CACHE_SECONDS


@dataclasses.dataclass(frozen=True)
class Options:
    """A question's options now, or why they could not be read (``error``)."""

    choices: list[str]
    error: str | None = None


class _Cache:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[float, list[str]]] = OrderedDict()

    def get(self, key: str) -> list[str] | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None or found[0] < time.monotonic():
                self._entries.pop(key, None)
                return None
            return list(found[1])

    def put(self, key: str, choices: list[str], seconds: float) -> None:
        if seconds <= 0:
            return
        with self._lock:
            self._entries[key] = (time.monotonic() + seconds, list(choices))
            while len(self._entries) > CACHE_ENTRIES:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


CACHE = _Cache()


def sources_of(session: Session) -> Sources | None:
    found = session.info.get(SOURCES)
    return found if isinstance(found, Sources) else None


def question_options(
    session: Session,
    template: Template,
    question: Question,
    answers: Mapping[str, Any],
    *,
    inventory_id: int,
    charge: Callable[[], None] | None = None,
) -> Options:
    """The options of ``question`` (which has a source) given the earlier ``answers``;
    ``charge`` is called before a URL or a script is read (not for a cached answer) and may
    refuse (its ``TooManyRequests`` goes through)."""
    source = question.source
    if source is None:
        return Options(list(question.choices))
    try:
        return Options(_read(session, template, source, answers, inventory_id, charge))
    except cascade.MissingAnswer as exc:
        return Options([], str(exc))
    except listing.SourceFailed as exc:
        return Options([], str(exc))


def _read(
    session: Session,
    template: Template,
    source: InventorySource | UrlSource | ScriptSource,
    answers: Mapping[str, Any],
    inventory_id: int,
    charge: Callable[[], None] | None,
) -> list[str]:
    if isinstance(source, InventorySource):
        try:
            pattern = cascade.substitute(source.pattern, answers, cascade.pattern_escape)
        except ValueError as exc:
            raise listing.SourceFailed(str(exc)) from None
        return inventory.options(session, inventory_id, source, pattern)
    sources = sources_of(session)
    if sources is None:
        raise listing.SourceFailed("options from URLs and scripts are not read in this process")
    if isinstance(source, UrlSource):
        address = cascade.substitute(source.url, answers, cascade.url_escape)
        key = _key(template, source, [address])
        cached = CACHE.get(key)
        if cached is not None:
            return cached
        if charge is not None:
            charge()
        header = None
        if source.key_id is not None:
            header = url.authorization(
                session, sources.reach.cipher, template.project_id, source.key_id
            )
        found = url.options(source, address, guard=sources.reach.guard, authorization=header)
    else:
        arguments = [
            cascade.substitute(argument, answers, lambda value: value)
            for argument in source.arguments
        ]
        key = _key(template, source, arguments)
        cached = CACHE.get(key)
        if cached is not None:
            return cached
        if charge is not None:
            charge()
        repo = session.get(Repository, template.repository_id)
        if repo is None:
            raise listing.SourceFailed("the template has no repository")
        found = script.options(session, sources.reach, sources.sandbox, repo, source, arguments)
    CACHE.put(key, found, sources.cache_seconds)
    return found


def _key(template: Template, source: UrlSource | ScriptSource, filled: list[str]) -> str:
    return json.dumps(
        [template.id, template.repository_id, source.model_dump(mode="json"), filled],
        sort_keys=True,
    )


def effective(questions: Sequence[Question], answers: Mapping[str, Any]) -> dict[str, Any]:
    """Each question's answer, or its default when it has none (what a source sees of the
    earlier questions, as the launch will check them)."""
    given: dict[str, Any] = {}
    for question in questions:
        answer = answers.get(question.variable)
        if answer in (None, "", []):
            answer = question.default
        if answer not in (None, "", []):
            given[question.variable] = answer
    return given


def current(
    session: Session,
    template: Template,
    questions: Sequence[Question],
    answers: Mapping[str, Any],
    *,
    inventory_id: int,
) -> list[Question]:
    """``questions`` with each sourced question's choices read now, for checking ``answers``
    at launch; only the questions answered (or with a default) are read. A source that cannot
    be read is a 422 naming the question: its answer cannot be checked."""
    given = effective(questions, answers)
    checked: list[Question] = []
    for question in questions:
        if question.source is None or question.variable not in given:
            checked.append(question)
            continue
        found = question_options(session, template, question, given, inventory_id=inventory_id)
        if found.error is not None:
            raise InvalidInput(
                f"survey.{question.variable}", f"its options could not be read: {found.error}"
            )
        checked.append(question.model_copy(update={"choices": found.choices}))
    return checked


def check_at_save(session: Session, template: Template, guard: network.Guard) -> None:
    """What a source's shape cannot say: its key is a password or secret of the project, its
    URL's host is somewhere the server may connect, its earlier answers are asked earlier."""
    asked: list[str] = []  # earlier questions, but passwords: never sent to a source
    for i, raw in enumerate(template.survey):
        question = Question.model_validate(raw)
        source = question.source
        if source is not None:
            for name in depends_on(source):
                if name not in asked:
                    raise InvalidInput(
                        f"survey.{i}.source",
                        f"names the answer '{name}', which no earlier question"
                        " (other than a password) asks",
                    )
        if isinstance(source, UrlSource):
            _check_url(session, template, source, guard, i)
        if question.type is not QuestionType.PASSWORD:
            asked.append(question.variable)


def _check_url(
    session: Session, template: Template, source: UrlSource, guard: network.Guard, i: int
) -> None:
    parsed = network.parse_url(cascade.PLACEHOLDER.sub("x", source.url))
    if cause := guard.check_at_save(parsed.host, parsed.port):
        raise InvalidInput(f"survey.{i}.source.url", cause)
    if source.key_id is not None:
        key = session.get(Key, source.key_id)
        if key is None or key.project_id != template.project_id:
            raise InvalidInput(
                f"survey.{i}.source.key_id", f"key {source.key_id} does not exist in this project"
            )
        if key.kind not in (KeyKind.LOGIN_PASSWORD, KeyKind.SECRET):
            raise InvalidInput(f"survey.{i}.source.key_id", "must be a password or a secret key")
