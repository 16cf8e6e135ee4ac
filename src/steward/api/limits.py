"""The request-body limit: a pure ASGI middleware, so streaming responses pass untouched.

A declared ``Content-Length`` above the limit is refused before the app runs. A body without one
(chunked) or with a false one is counted as the app reads it: once past the limit the read fails,
and whatever the app answers instead (FastAPI turns a failed read into a 400) is replaced by
the 413. Only the request side is wrapped; the response is passed on message by message.
"""

from __future__ import annotations

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from steward.api import problems
from steward.bounds import describe_size


class BodyTooLarge(Exception):
    """Raised from ``receive`` once the body passes the limit; the middleware answers 413."""


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        guard = _Guard(receive, send, self.max_bytes)
        try:
            await self.app(scope, guard.receive, guard.send)
        except BodyTooLarge:
            if guard.started:
                raise
            await self._refuse(scope, receive, send)
            return
        if guard.exceeded and not guard.started:  # the app caught the error and sent nothing
            await self._refuse(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit = describe_size(self.max_bytes)
        response = problems.problem(
            413,
            "Content Too Large",
            f"the request body is larger than the limit of {limit}",
            headers={"Connection": "close"},  # the rest of the body is not read
        )
        await response(scope, receive, send)


class _Guard:
    """Counts the request body as it is received; replaces the app's answer once past the limit."""

    def __init__(self, receive: Receive, send: Send, max_bytes: int) -> None:
        self._receive = receive
        self._send = send
        self.max_bytes = max_bytes
        self.received = 0
        self.exceeded = False
        self.started = False  # a response start went out (ours is sent by the middleware)

    async def receive(self) -> Message:
        if self.exceeded:
            raise BodyTooLarge
        message = await self._receive()
        if message["type"] == "http.request":
            self.received += len(message.get("body", b""))
            if self.received > self.max_bytes:
                self.exceeded = True
                raise BodyTooLarge
        return message

    async def send(self, message: Message) -> None:
        if self.exceeded and not self.started:
            # the app answered the failed read itself (a 400): drop it, the middleware sends 413
            raise BodyTooLarge
        if message["type"] == "http.response.start":
            self.started = True
        await self._send(message)


def _content_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length")
    if value is None or not value.isdigit():
        return None  # absent or malformed: the body is counted as it arrives
    return int(value)
