"""A server of the tests' own on 127.0.0.1, in a thread: ``with`` starts it, leaving stops it.

The receivers of notifications, of the audit stream and the pmproxy stand-in are each a
``Served`` around their ``socketserver`` server (an HTTP one, a TCP one)."""

from __future__ import annotations

import socketserver
import threading
from typing import Self


class Served:
    """``server`` served in a daemon thread while the ``with`` block runs; ``port``, ``url``."""

    def __init__(self, server: socketserver.TCPServer) -> None:
        self._server = server
        self.port: int = server.server_address[1]
        self._thread = threading.Thread(target=server.serve_forever, daemon=True)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)
