"""Audit stream tests: real receivers on 127.0.0.1 that parse what a SIEM would.

- ``SyslogReceiver``: a TCP listener (TLS optional: a self-signed certificate made with
  ``cryptography``) reading RFC 6587 octet-counted frames and parsing each RFC 5424 message:
  header, structured data, MSG.
- ``SiemReceiver``: an HTTP server with an Elastic ``_bulk`` endpoint (``create`` with ``_id``:
  201 for a new id, 409 for a known one, as Elasticsearch answers; an id in ``refuse_ids``
  gets a 400 ``mapper_parsing_exception`` item), a Splunk HEC endpoint (concatenated JSON
  events, ``Authorization: Splunk <token>``) and a plain JSON endpoint; ``fail_next`` answers
  the next requests 503.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import re
import socket
import socketserver
import ssl
import threading
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from support.notifications import self_signed
from support.served import Served
from support.waits import wait_until

_HEADER = re.compile(
    rb"^<(?P<pri>\d{1,3})>1 (?P<ts>\S+) (?P<host>\S+) (?P<app>\S+) (?P<procid>\S+) (?P<msgid>\S+) "
)
_SD = re.compile(rb'^\[(?P<id>[^ \]]+)(?P<params>(?: [^=\s]+="(?:\\.|[^"\\])*")*)\]')
_PARAM = re.compile(rb'([^=\s]+)="((?:\\.|[^"\\])*)"')


@dataclasses.dataclass(frozen=True)
class SyslogMessage:
    pri: int
    timestamp: str
    hostname: str
    app_name: str
    procid: str
    msgid: str
    sd_id: str
    params: dict[str, str]
    msg: bytes

    @property
    def event(self) -> dict[str, Any]:
        assert self.msg.startswith(b"\xef\xbb\xbf"), "an UTF-8 MSG starts with the BOM"
        value: dict[str, Any] = json.loads(self.msg[3:])
        return value


def parse_rfc5424(data: bytes) -> SyslogMessage:
    header = _HEADER.match(data)
    assert header, data[:200]
    rest = data[header.end() :]
    sd = _SD.match(rest)
    assert sd, rest[:200]
    params = {
        k.decode(): re.sub(rb"\\(.)", rb"\1", v).decode() for k, v in _PARAM.findall(sd["params"])
    }
    msg = rest[sd.end() :]
    assert msg.startswith(b" "), msg[:50]
    return SyslogMessage(
        int(header["pri"]),
        header["ts"].decode(),
        header["host"].decode(),
        header["app"].decode(),
        header["procid"].decode(),
        header["msgid"].decode(),
        sd["id"].decode(),
        params,
        msg[1:],
    )


def read_frames(stream: Any) -> Iterator[bytes]:
    """Octet-counted frames (``LEN SP MSG``) until the end of the stream."""
    while True:
        length = b""
        while True:
            char = stream.read(1)
            if not char:
                assert not length, "a frame cut in its length"
                return
            if char == b" ":
                break
            assert char.isdigit(), f"not an octet count: {length + char!r}"
            assert len(length) < 10, f"an octet count too long: {length!r}"
            length += char
        size = int(length)
        data = b""
        while len(data) < size:
            chunk = stream.read(size - len(data))
            assert chunk, "a frame cut short"
            data += chunk
        yield data


class SyslogReceiver(Served):
    """``with SyslogReceiver(tmp_path, tls=True) as r:`` listens on ``r.port``; ``r.messages``."""

    def __init__(self, tmp_path: Path | None = None, *, tls: bool = False) -> None:
        self.messages: list[SyslogMessage] = []
        self.connections = 0
        # ``hold()``: the next connection, read to its end, is not closed until ``release``:
        # its sender waits for the close (then its timeout), as when killed before it settles
        self.holding, self.held, self.release = (threading.Event() for _ in range(3))
        self.lock = threading.Lock()
        self.cert: Path | None = None
        context: ssl.SSLContext | None = None
        if tls:
            assert tmp_path is not None
            self.cert, key = self_signed(tmp_path)
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            context.load_cert_chain(self.cert, key)
        receiver = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                with receiver.lock:
                    receiver.connections += 1
                try:
                    sock = self.request
                    if context is not None:
                        sock = context.wrap_socket(sock, server_side=True)
                    with sock, sock.makefile("rb") as stream:
                        for frame in read_frames(stream):
                            parsed = parse_rfc5424(frame)
                            with receiver.lock:
                                receiver.messages.append(parsed)
                        receiver._hold()
                except OSError:
                    pass  # a handshake refused, a sender killed mid-batch: what came whole is kept

        class Server(socketserver.ThreadingTCPServer):
            daemon_threads = True
            allow_reuse_address = True

        super().__init__(Server(("127.0.0.1", 0), Handler))

    def _hold(self) -> None:
        with self.lock:
            hold = self.holding.is_set()
            self.holding.clear()
        if hold:
            self.held.set()
            self.release.wait(30)

    def ids(self) -> list[int]:
        with self.lock:
            return [int(m.params["id"]) for m in self.messages]

    def wait_for_ids(self, ids: set[int], timeout: float = 30) -> None:
        wait_until(lambda: ids <= set(self.ids()), timeout, what=f"{len(ids)} syslog ids")


def unused_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclasses.dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]
    body: bytes


class SiemReceiver(Served):
    """Elastic ``/<index>/_bulk``, Splunk ``/services/collector/event`` and ``/json``."""

    def __init__(self, *, token: str = "") -> None:
        self.token = token
        self.documents: dict[str, dict[str, Any]] = {}  # Elastic: _id -> document
        self.creates: Counter[str] = Counter()  # every create asked for, by _id
        self.hec: list[dict[str, Any]] = []
        self.json: list[dict[str, Any]] = []
        self.requests: list[Request] = []
        self.refuse_ids: set[str] = set()
        self.fail_next = 0
        # ``holding`` set: the next bulk request is stored, then answered only on ``release``
        # (its sender waits for the answer, as when killed before it settles)
        self.holding, self.held, self.release = (threading.Event() for _ in range(3))
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                headers = {k.lower(): v for k, v in self.headers.items()}
                with receiver.lock:
                    receiver.requests.append(Request(self.path, headers, body))
                    if receiver.fail_next > 0:
                        receiver.fail_next -= 1
                        self._answer(503, {"error": "unavailable"})
                        return
                    status, answer = receiver._handle(self.path, headers, body)
                    hold = self.path.endswith("/_bulk") and receiver.holding.is_set()
                    receiver.holding.clear()
                if hold:
                    receiver.held.set()
                    receiver.release.wait(30)
                self._answer(status, answer)

            def _answer(self, status: int, answer: Any) -> None:
                data = json.dumps(answer).encode()
                with contextlib.suppress(OSError):  # a sender killed meanwhile
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        super().__init__(ThreadingHTTPServer(("127.0.0.1", 0), Handler))

    def _handle(self, path: str, headers: dict[str, str], body: bytes) -> tuple[int, Any]:
        if path.endswith("/_bulk"):
            if self.token and headers.get("authorization") != f"ApiKey {self.token}":
                return 401, {"error": "security_exception"}
            assert headers.get("content-type") == "application/x-ndjson"
            return 200, self._bulk(body)
        if path == "/services/collector/event":
            if headers.get("authorization") != f"Splunk {self.token}":
                return 401, {"text": "Invalid token", "code": 4}
            decoder, text, at = json.JSONDecoder(), body.decode(), 0
            while at < len(text):
                while at < len(text) and text[at].isspace():
                    at += 1
                if at < len(text):
                    value, at = decoder.raw_decode(text, at)
                    self.hec.append(value)
            return 200, {"text": "Success", "code": 0}
        if path == "/json":
            self.json.extend(json.loads(body))
            return 200, {}
        return 404, {}

    def _bulk(self, body: bytes) -> dict[str, Any]:
        lines = body.decode().splitlines()
        assert len(lines) % 2 == 0, "an action line and a document each"
        items, errors = [], False
        for action_line, doc_line in zip(lines[::2], lines[1::2], strict=True):
            action = json.loads(action_line)
            assert list(action) == ["create"], action
            doc_id = action["create"]["_id"]
            self.creates[doc_id] += 1
            if doc_id in self.refuse_ids:
                errors = True
                error = {"type": "mapper_parsing_exception", "reason": "secret words of ES"}
                items.append({"create": {"_id": doc_id, "status": 400, "error": error}})
            elif doc_id in self.documents:
                errors = True
                conflict = {"type": "version_conflict_engine_exception"}
                items.append({"create": {"_id": doc_id, "status": 409, "error": conflict}})
            else:
                self.documents[doc_id] = json.loads(doc_line)
                items.append({"create": {"_id": doc_id, "status": 201, "result": "created"}})
        return {"took": 1, "errors": errors, "items": items}
