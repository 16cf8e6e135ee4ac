"""A run's launch values, searchable: "which database, and why" (``answer=db_name:ORCL``).

At launch the run's non-secret launch values are written as rows of ``RunValue`` (one per
value, indexed by kind, name and value): the survey answers and extra vars given at launch
(kind ``answer``) and the launch settings that were set (kind ``launch``: ``limit``, ``tags``,
``skip_tags``, ``ref``, ``forks`` and ``verbosity`` when given, ``check_mode`` and
``diff_mode`` when on). Secret survey answers are never among them: ``RunParams.launch_vars``
does not hold them (their values are sealed in ``Run.secret_params``), and nothing here reads
anything else. A value longer than ``SEARCHED_VALUE_MAX`` characters, or a list or mapping
whose JSON is, is not searchable.

The runs list filters by them with ``answer=name:value`` and ``launch=field:value`` (exact
values, every filter must match), each one an ``IN`` over the index.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, Literal, get_args

from sqlalchemy import ColumnElement, select

from steward.bounds import SEARCHED_VALUE_MAX, VARIABLE_NAME_MAX
from steward.errors import InvalidInput
from steward.runs.models import Run, RunValue
from steward.runs.params import RunParams

Kind = Literal["answer", "launch"]
ANSWER: Kind = "answer"
LAUNCH: Kind = "launch"
# the launch settings kept searchable, in the order they are shown; a schema of the OpenAPI
# document (``app.LISTED``), so the console's list of them is checked against it
LaunchSetting = Literal[
    "limit", "tags", "skip_tags", "check_mode", "diff_mode", "verbosity", "forks", "ref"
]
LAUNCH_FIELDS: tuple[LaunchSetting, ...] = get_args(LaunchSetting)
# "name:value" as typed: a variable name, its colon and the longest searchable value
FILTER_TEXT_MAX = VARIABLE_NAME_MAX + 1 + SEARCHED_VALUE_MAX


def shown(value: Any) -> str:
    """A value as it is searched and shown: a string as is, ``true``/``false``, numbers and
    lists or mappings as compact JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def launch_settings(params: RunParams) -> dict[str, Any]:
    """The launch settings of ``params`` that were set (``LAUNCH_FIELDS``): an empty limit,
    check mode off and the default forks say nothing."""
    settings: dict[str, Any] = {}
    for field in LAUNCH_FIELDS:
        value = getattr(params, field)
        if value not in ("", None, False, 0):
            settings[field] = value
    return settings


def searchable(params: RunParams) -> list[tuple[Kind, str, str]]:
    """(kind, name, value) of every value of ``params`` to keep searchable."""
    found: list[tuple[Kind, str, str]] = []
    for kind, values in ((ANSWER, params.launch_vars), (LAUNCH, launch_settings(params))):
        for name, value in values.items():
            if name in params.secret_extra_vars:  # never, even were a secret's name here
                continue
            text = shown(value)
            if len(name) <= VARIABLE_NAME_MAX and len(text) <= SEARCHED_VALUE_MAX:
                found.append((kind, name, text))
    return found


def rows(run: Run, params: RunParams) -> list[RunValue]:
    return [RunValue(run_id=run.id, kind=k, name=n, value=v) for k, n, v in searchable(params)]


def parse(texts: Sequence[str], field: Kind) -> list[tuple[str, str]]:
    """``["db_name:ORCL"]`` -> [("db_name", "ORCL")]; a 422 on ``field`` naming the cause
    (their number and size are bounded by ``RunFilters``)."""
    pairs = []
    for text in texts:
        name, colon, value = text.partition(":")
        if not colon or not name:
            raise InvalidInput(field, f"'{text[:50]}': write name:value, e.g. db_name:ORCL")
        if field == LAUNCH and name not in LAUNCH_FIELDS:
            raise InvalidInput(field, f"'{name[:50]}' is not one of {', '.join(LAUNCH_FIELDS)}")
        pairs.append((name, value))
    return pairs


def matching(kind: Kind, pairs: Iterable[tuple[str, str]]) -> list[ColumnElement[bool]]:
    """One condition on ``Run`` per pair: the run has that value (read from the index)."""
    return [
        Run.id.in_(
            select(RunValue.run_id).where(
                RunValue.kind == kind, RunValue.name == name, RunValue.value == value
            )
        )
        for name, value in pairs
    ]
