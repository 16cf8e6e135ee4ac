"""Reading a text/event-stream body in tests."""

from __future__ import annotations

import json
from typing import Any


def messages(body: str) -> list[tuple[str, str, Any]]:
    """(id, event, data) of each message of a text/event-stream body."""
    found = []
    for block in body.split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in block.splitlines() if ": " in line and line[0] != ":"
        )
        if "event" in fields:
            found.append((fields.get("id", ""), fields["event"], json.loads(fields["data"])))
    return found
