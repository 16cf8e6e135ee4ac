"""One HTTP POST (or GET) to a destination a user or an admin named, through the guard.

The request goes to the address ``Guard.vet`` checked (the URL's host swapped for it, the Host
header and TLS server name kept), without following redirects and without proxies from the
environment (a proxy would connect wherever it is told, past the check). Used by the
notifications (``notifications.posts``), the audit stream (``audit.sinks``) and survey options
read from a URL (``templates.options.url``: ``get``). httpx2 is imported by the first request
(or the first reason told), not with the server.
"""

from __future__ import annotations

import http
import ssl
import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from steward.outbound import network

if TYPE_CHECKING:
    import httpx2


def post(
    url: str,
    body: bytes,
    headers: Mapping[str, str],
    *,
    timeout: float,
    guard: network.Guard,
    verify: ssl.SSLContext | bool = True,
) -> httpx2.Response:
    """The answer to ``body`` POSTed to ``url`` at its vetted address (``network.Refused``
    when it may not be reached); ``httpx2.HTTPError`` when no answer came."""
    import httpx2

    target = network.parse_url(url)
    address = guard.vet(target.host, target.port).address
    sent = {**headers, "Host": target.netloc}
    extensions = {"sni_hostname": target.host} if target.scheme == "https" else {}
    with httpx2.Client(
        timeout=timeout, follow_redirects=False, trust_env=False, verify=verify
    ) as client:
        return client.post(
            target.pinned(address), content=body, headers=sent, extensions=extensions
        )


class TooLarge(Exception):
    """An answer's body is longer than the caller reads."""


def get(
    url: str,
    headers: Mapping[str, str],
    *,
    timeout: float,
    guard: network.Guard,
    max_bytes: int,
    verify: ssl.SSLContext | bool = True,
) -> tuple[int, bytes]:
    """The status and body of a GET of ``url`` at its vetted address (``network.Refused``
    when it may not be reached; ``TooLarge`` past ``max_bytes``; ``httpx2.HTTPError`` when no
    answer came). ``timeout`` bounds the whole exchange, not each read."""
    import httpx2

    target = network.parse_url(url)
    address = guard.vet(target.host, target.port).address
    sent = {**headers, "Host": target.netloc}
    extensions: dict[str, object] = (
        {"sni_hostname": target.host} if target.scheme == "https" else {}
    )
    deadline = time.monotonic() + timeout
    with (
        httpx2.Client(
            timeout=timeout, follow_redirects=False, trust_env=False, verify=verify
        ) as client,
        client.stream(
            "GET", target.pinned(address), headers=sent, extensions=extensions
        ) as response,
    ):
        body = bytearray()
        for chunk in response.iter_bytes():
            body += chunk
            if len(body) > max_bytes:
                raise TooLarge(f"the answer is longer than {max_bytes} bytes")
            if time.monotonic() > deadline:
                raise httpx2.ReadTimeout("the answer took too long")
        return response.status_code, bytes(body)


def status_line(code: int) -> str:
    """``HTTP 404 Not Found``: the code and the standard phrase, never the receiver's words."""
    try:
        return f"HTTP {code} {http.HTTPStatus(code).phrase}"
    except ValueError:
        return f"HTTP {code}"


def reason(exc: httpx2.HTTPError) -> str:
    """Why a request got no (HTTP) answer: timeout, refused connection, TLS error. The reason
    is ours: a protocol error would quote what the other end sent."""
    import httpx2

    if isinstance(exc, httpx2.TimeoutException):
        return f"{type(exc).__name__}: no answer in time"
    if isinstance(exc, httpx2.ConnectError):
        return f"ConnectError: {exc}"  # the system's reason, or TLS's
    if isinstance(exc, httpx2.ProtocolError | httpx2.DecodingError):
        return f"{type(exc).__name__}: the answer is not HTTP"
    return type(exc).__name__
