"""One check against real listeners on 127.0.0.1: the tests' sshd (reachable, with its
banner), a port nothing listens on (refused), a host whose banner comes after the timeout
(slow), a port that answers but not with SSH; and what a check reads of a target's values."""

from __future__ import annotations

import asyncio

import pytest
from support.health import LOOPBACK, answering, health_guard, refused_port
from support.sshd import SshServer

from steward.health import probe, targets
from steward.health.models import Status

pytestmark = pytest.mark.sqlite_only  # no database: sockets


def one(address: str, port: int, timeout: float = 2.0) -> probe.Result:
    target = probe.Target((1, "h"), address=address, port=port)
    return asyncio.run(probe.check(target, health_guard(LOOPBACK), timeout))


def test_a_real_sshd_answers_with_its_banner(sshd: SshServer) -> None:
    result = one(LOOPBACK, sshd.port)
    assert result.status == Status.REACHABLE, result
    assert result.tcp_ms is not None
    assert result.banner_ms is not None
    assert 0 <= result.tcp_ms <= result.banner_ms < 2000


def test_a_port_nothing_listens_on_is_refused() -> None:
    port = refused_port()
    result = one(LOOPBACK, port)
    assert (result.status, result.tcp_ms) == (Status.REFUSED, None)
    assert result.reason == f"port {port}: connection refused"


def test_a_banner_later_than_the_timeout_is_a_timeout_and_in_time_is_reachable() -> None:
    with answering(delay=1.0) as port_listener:
        port = port_listener.port
        slow = one(LOOPBACK, port, timeout=0.3)
        assert slow.status == Status.TIMEOUT
        assert "within 0.3 s" in slow.reason
        in_time = one(LOOPBACK, port, timeout=3)  # control: the same host, waited for
        assert in_time.status == Status.REACHABLE
        assert in_time.banner_ms is not None
        assert in_time.banner_ms >= 900


def test_an_answer_that_is_not_ssh_is_not_kept() -> None:
    with answering(b"220 smtp.example ESMTP secret-banner\r\n") as port_listener:
        port = port_listener.port
        result = one(LOOPBACK, port)
    assert result.status == Status.NOT_SSH
    assert "secret-banner" not in result.reason
    assert "smtp" not in result.reason
    assert result.tcp_ms is not None
    assert result.banner_ms is None


def test_many_at_once_stay_within_concurrency_times_timeout(sshd: SshServer) -> None:
    refused = refused_port()
    with answering(delay=5) as slow_listener:
        slow = slow_listener.port
        found = [
            probe.Target((1, f"h{i}"), address=LOOPBACK, port=(sshd.port, refused, slow)[i % 3])
            for i in range(30)
        ]
        found.append(targets.of(1, "me", {"connection": "local"}))
        results = probe.check_all(found, health_guard(LOOPBACK), timeout=0.5, concurrency=16)
    statuses = [r.status for r in results]
    assert statuses[:3] == [Status.REACHABLE, Status.REFUSED, Status.TIMEOUT]
    assert statuses.count(Status.TIMEOUT) == 10
    assert statuses[-1] == Status.LOCAL
    assert [r.key for r in results] == [t.key for t in found]


@pytest.mark.parametrize(
    ("connection", "expected"),
    [
        ({}, ("h1", 22, None)),
        ({"host": "10.1.2.3", "port": "2222"}, ("10.1.2.3", 2222, None)),
        ({"connection": "ansible.builtin.ssh", "port": 22022}, ("h1", 22022, None)),
        ({"connection": "local"}, ("", 22, Status.LOCAL)),
        ({"connection": "winrm"}, ("", 22, Status.NOT_MEASURED)),
        ({"connection": "community.docker.docker"}, ("", 22, Status.NOT_MEASURED)),
    ],
)
def test_where_a_host_is_checked(
    connection: dict[str, object], expected: tuple[object, ...]
) -> None:
    target = targets.of(1, "h1", connection)
    assert (target.address, target.port, target.status) == expected
