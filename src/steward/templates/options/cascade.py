"""Earlier answers in a source: ``{answer.<variable>}`` in a URL, a pattern or a script's
arguments, replaced by the answer as data (URL-encoded in a URL, pattern characters escaped
in a host pattern, one argument of its own for a script), never read as a template."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Callable, Mapping
from typing import Any

PLACEHOLDER = re.compile(r"\{answer\.([A-Za-z_][A-Za-z0-9_]*)\}")


class MissingAnswer(Exception):
    """A source needs an earlier answer that was not given; ``variable`` names it."""

    def __init__(self, variable: str) -> None:
        super().__init__(f"needs an answer to '{variable}' first")
        self.variable = variable


def names(text: str) -> list[str]:
    """The variables ``text`` names, in order, once each."""
    return list(dict.fromkeys(PLACEHOLDER.findall(text)))


def as_text(answer: Any) -> str:
    """One answer as the text a source sees (a multiple choice: its choices joined by ``,``)."""
    if isinstance(answer, list):
        return ",".join(str(item) for item in answer)
    if isinstance(answer, bool):
        return "true" if answer else "false"
    return str(answer)


def substitute(text: str, answers: Mapping[str, Any], escape: Callable[[str], str]) -> str:
    """``text`` with each placeholder replaced by ``escape(answer)``; ``MissingAnswer`` when
    an answer it names is absent or empty. The replacement is not scanned again."""

    def replace(match: re.Match[str]) -> str:
        answer = answers.get(match.group(1))
        if answer is None or answer in ("", []):
            raise MissingAnswer(match.group(1))
        return escape(as_text(answer))

    return PLACEHOLDER.sub(replace, text)


def url_escape(value: str) -> str:
    """Every character but the unreserved ones percent-encoded: an answer is one path segment
    or one query value, never a ``/``, ``?``, ``&``, ``#`` or ``@`` of the URL."""
    return urllib.parse.quote(value, safe="")


_PATTERN_SPECIAL = re.compile(r"[\[\]*?!&:,~\s@\\-]")


def pattern_escape(value: str) -> str:
    """An answer inside a host pattern: matched as the literal name it is. A name holding a
    character the pattern reads (``*?[]!&:,~``, whitespace, ``@``) can be no host's name here,
    so it is refused rather than escaped."""
    if not value or _PATTERN_SPECIAL.search(value):
        raise ValueError("an answer used in a host pattern must be a plain host or group name")
    return value
