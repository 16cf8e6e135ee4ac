"""Options from a URL: a GET through the outbound guard (vetted right before connecting, to
the vetted address), the key of the key store as ``Authorization``, a bounded body read as
JSON, and the JSON path to the list. Of a failure only a reason of ours is kept."""

from __future__ import annotations

import base64
import json

from sqlalchemy.orm import Session

from steward.bounds import SURVEY_SOURCE_BYTES_MAX
from steward.crypto import KeyCipher
from steward.errors import NotFound
from steward.keys.models import KeyKind
from steward.keys.service import reveal
from steward.outbound import network, web
from steward.templates.options import jsonpath, listing
from steward.templates.options.sources import UrlSource


def authorization(session: Session, cipher: KeyCipher, project_id: int, key_id: int) -> str:
    """The header value for a password key (Basic) or a secret key (Bearer) of the project."""
    try:
        material = reveal(session, cipher, key_id, project_id)
    except NotFound:
        raise listing.SourceFailed(f"key {key_id} does not exist in this project") from None
    if material.kind == KeyKind.SECRET:
        return f"Bearer {material.value}"
    if material.kind == KeyKind.LOGIN_PASSWORD:
        pair = f"{material.username}:{material.password}".encode()
        return f"Basic {base64.b64encode(pair).decode()}"
    raise listing.SourceFailed(f"key {key_id} is not a password or a secret")


def options(
    source: UrlSource, url: str, *, guard: network.Guard, authorization: str | None
) -> list[str]:
    """The options at ``url`` (the source's URL with earlier answers in)."""
    import httpx2  # its exceptions: loaded with the first options read from a URL

    headers = {"Accept": "application/json"}
    if authorization is not None:
        headers["Authorization"] = authorization
    try:
        status, body = web.get(
            url,
            headers,
            timeout=source.timeout_seconds,
            guard=guard,
            max_bytes=SURVEY_SOURCE_BYTES_MAX,
        )
    except network.Refused as exc:
        raise listing.SourceFailed(f"refused: {exc}") from None
    except web.TooLarge as exc:
        raise listing.SourceFailed(str(exc)) from None
    except httpx2.TimeoutException:
        raise listing.SourceFailed(f"no answer within {source.timeout_seconds:g} seconds") from None
    except httpx2.HTTPError as exc:
        raise listing.SourceFailed(web.reason(exc)) from None
    if not 200 <= status < 300:
        raise listing.SourceFailed(f"the URL answered {web.status_line(status)}")
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        raise listing.SourceFailed("the answer is not JSON") from None
    try:
        return listing.options(jsonpath.evaluate(source.path, document))
    except jsonpath.PathMissed as exc:
        raise listing.SourceFailed(f"the JSON path finds no list: {exc}") from None
