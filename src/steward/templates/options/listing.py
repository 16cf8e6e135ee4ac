"""What a URL or a script answers, as options: strings (numbers written out), one line each,
non-empty, at most ``LABEL_MAX`` characters, without repeats, at most ``SURVEY_CHOICES_MAX``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from steward.bounds import LABEL_MAX, SURVEY_CHOICES_MAX


class SourceFailed(Exception):
    """A source gave no options; ``str()`` is a reason of ours (never the source's own text,
    which may be anything: a secret, markup, an answer meant to mislead)."""


def options(values: Iterable[Any]) -> list[str]:
    found: list[str] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            raise SourceFailed("an option is not a string or a number")
        text = str(value)
        if not text or len(text) > LABEL_MAX:
            raise SourceFailed(f"an option is empty or longer than {LABEL_MAX} characters")
        if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
            raise SourceFailed("an option contains a control character")
        if text not in found:
            found.append(text)
        if len(found) > SURVEY_CHOICES_MAX:
            raise SourceFailed(f"more than {SURVEY_CHOICES_MAX} options")
    return found


def from_output(output: bytes) -> list[str]:
    """A script's output: a JSON list, or one option per line (blank lines skipped)."""
    try:
        text = output.decode()
    except UnicodeDecodeError:
        raise SourceFailed("the output is not UTF-8 text") from None
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            values = json.loads(stripped)
        except (ValueError, RecursionError):
            raise SourceFailed("the output starts like a JSON list but is not one") from None
        return options(values)
    return options(line.strip() for line in text.splitlines() if line.strip())
