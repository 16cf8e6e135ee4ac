"""Terminal escape sequences in run output (colours, titles): ansible-playbook writes them for
the console; a download and the command line's output to a file or pipe go without them."""

from __future__ import annotations

import re

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def strip(text: str) -> str:
    return ANSI.sub("", text)
