"""Colours only on a terminal: the decision, and the output written by it (the playbook's lines
stripped of their escape sequences when they go to a file or a pipe)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TextIO

from steward import ansi

COLOR_CHOICES = ("auto", "always", "never")
STATUS_COLOR = {"successful": "32", "failed": "31", "error": "31", "timed_out": "33"}


def wants_color(mode: str, stream: TextIO, environ: Mapping[str, str] = os.environ) -> bool:
    """``always``/``never`` as asked; ``auto``: only on a terminal, unless NO_COLOR is set to
    anything (https://no-color.org) or TERM is ``dumb``."""
    if mode != "auto":
        return mode == "always"
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except ValueError:  # closed
        return False


class Painter:
    """Writes to ``stream`` with colours, or without any escape sequence at all."""

    def __init__(self, stream: TextIO, color: bool) -> None:
        self.stream = stream
        self.color = color

    def lines(self, texts: list[str]) -> None:
        body = "".join(text + "\n" for text in texts)
        self.stream.write(body if self.color else ansi.strip(body))
        self.stream.flush()

    def status(self, status: str) -> str:
        code = STATUS_COLOR.get(status)
        if not self.color or code is None:
            return status
        return f"\x1b[{code}m{status}\x1b[0m"

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)
