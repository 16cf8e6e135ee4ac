"""Conditional reads (RFC 9110, 13.1.2): an entity tag on a representation, and a 304 with no
body when the client's ``If-None-Match`` names it, so a poller pays only for what changed.

A route computes its tag from what its representation is made of (cheaper than making it)
and asks ``unchanged`` before doing the rest; ``Cache-Control: private, no-cache`` makes a
browser keep the body but ask again every time.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from fastapi import Request, Response, status
from pydantic import BaseModel

from steward.api import bodies

REVALIDATE = "private, no-cache"


def etag(*parts: object) -> str:
    """A weak tag of ``parts`` (JSON-able values; datetimes and the like by ``str``)."""
    raw = json.dumps(parts, default=str, separators=(",", ":"), sort_keys=True)
    return f'W/"{hashlib.sha256(raw.encode()).hexdigest()[:32]}"'


def _opaque(tag: str) -> str:
    return tag.strip().removeprefix("W/")


def unchanged(request: Request, tag: str) -> bool:
    """The request's ``If-None-Match`` names ``tag`` (weak comparison) or is ``*``."""
    sent = request.headers.get("if-none-match", "")
    if not sent:
        return False
    wanted = _opaque(tag)
    return any(t.strip() == "*" or _opaque(t) == wanted for t in sent.split(",")[:32])


def not_modified(tag: str) -> Response:
    return Response(
        status_code=status.HTTP_304_NOT_MODIFIED,
        headers={"ETag": tag, "Cache-Control": REVALIDATE},
    )


def tagged(response: Response, tag: str) -> None:
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = REVALIDATE


def tagged_json(body: BaseModel, tag: str) -> Response:
    """``body`` with its tag, made once (``api.bodies``)."""
    return bodies.json_body(body, headers={"ETag": tag, "Cache-Control": REVALIDATE})


NOT_MODIFIED_DOC: dict[int | str, dict[str, Any]] = {
    304: {
        "description": "Not modified: the ``If-None-Match`` named the current ``ETag``; no body",
    }
}
