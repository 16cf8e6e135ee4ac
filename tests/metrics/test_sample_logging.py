"""A metrics sample writes nothing to the log at INFO: the HTTP client's line per pmproxy
request is a DEBUG line (at the default level it made a third of a server's log during runs),
while its lines about other destinations keep their level."""

from __future__ import annotations

import http.server
import logging
import threading
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest

from steward.config import Settings
from steward.metrics import endpoints
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.outbound.network import Guard


class _Answer(http.server.BaseHTTPRequestHandler):
    """Enough of pmproxy to be asked: a context for every request."""

    def do_GET(self) -> None:
        body = b'{"context": 7}'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: Any) -> None:
        return None


@pytest.fixture
def port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def _sample(port: int) -> None:
    endpoint = endpoints.for_host(f"http://{{host}}:{port}", "127.0.0.1", {})
    assert endpoint is not None
    guard = Guard.of(Settings(outbound_allowed_networks=["127.0.0.1"]))
    probe = PcpProbe(endpoint, timeout=2, guard=guard, polltimeout=30)
    try:
        with pytest.raises(Unavailable):  # a context, then a fetch this stand-in cannot answer
            probe.sample()
    finally:
        probe.close()


def _http_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "httpx2" and "HTTP Request" in r.getMessage()]


def test_a_sample_logs_its_requests_at_debug_only(
    caplog: pytest.LogCaptureFixture, port: int
) -> None:
    with caplog.at_level(logging.INFO):
        _sample(port)
        assert _http_lines(caplog) == []
        # the control: a request elsewhere is still said at INFO, so the capture works
        httpx2.get(f"http://127.0.0.1:{port}/elsewhere", timeout=2)
        assert [r.levelno for r in _http_lines(caplog)] == [logging.INFO]
    caplog.clear()
    with caplog.at_level(logging.DEBUG):
        _sample(port)
    lines = _http_lines(caplog)
    assert len(lines) == 2  # /pmapi/context, then /pmapi/fetch
    assert all(r.levelno == logging.DEBUG and "/pmapi/" in r.getMessage() for r in lines)
