"""A metrics sample writes nothing to the log at INFO: the HTTP client's line per pmproxy
request is a DEBUG line (at the default level it made a third of a server's log during runs),
while its lines about other destinations keep their level."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import httpx2
import pytest
from support.pcp import PmproxyStandIn

from steward.config import Settings
from steward.metrics import endpoints
from steward.metrics.pcp import PcpProbe, Unavailable
from steward.outbound.network import Guard


@pytest.fixture
def port() -> Iterator[int]:
    with PmproxyStandIn() as pmproxy:
        yield pmproxy.port


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
