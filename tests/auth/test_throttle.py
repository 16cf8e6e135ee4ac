"""Login throttling per account and per source address, counted from the audit trail; the
rate of previews per user."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from support.builders import PASSWORD, browser, make_user

from steward.audit.models import AuditRecord
from steward.auth.throttle import Rate
from steward.config import Settings
from steward.db import utcnow
from steward.errors import TooManyRequests
from steward.server import build_app

# PostgreSQL too: failures counted from the audit trail over a time window
pytestmark = pytest.mark.both_databases


def _login(web: TestClient, username: str, password: str) -> int:
    response = web.post("/api/v1/auth/login", json={"username": username, "password": password})
    return response.status_code


def test_an_account_is_locked_after_five_failures_and_a_success_clears_its_count(
    client: TestClient, settings: Settings
) -> None:
    make_user(client, "alice")
    make_user(client, "bob")
    web = browser(client)
    assert [_login(web, "alice", "wrong") for _ in range(4)] == [401] * 4
    assert _login(web, "alice", PASSWORD) == 200  # the four failures no longer count
    assert [_login(web, "alice", "wrong") for _ in range(5)] == [401] * 5

    locked = web.post("/api/v1/auth/login", json={"username": "alice", "password": PASSWORD})
    assert locked.status_code == 429, locked.text
    assert 0 < int(locked.headers["Retry-After"]) <= settings.login_window_seconds
    assert "too many failed logins for 'alice'" in locked.json()["detail"]
    assert "try again in" in locked.json()["detail"]
    assert _login(web, "bob", PASSWORD) == 200  # another account from the same address

    # the count lives in the database: a restarted server (a new app) still refuses
    restarted = build_app(settings, migrate=False)
    try:
        assert _login(TestClient(restarted), "alice", PASSWORD) == 429
    finally:
        restarted.state.runtime.engine.dispose()


def test_an_address_is_locked_after_twenty_failures_even_after_a_success(
    client: TestClient,
) -> None:
    web = browser(client)
    assert {_login(web, f"nobody{i}", "wrong") for i in range(19)} == {401}
    assert _login(web, "admin", "admin-password-for-tests") == 200  # does not reset the address
    assert _login(web, "nobody19", "wrong") == 401
    locked = web.post(
        "/api/v1/auth/login", json={"username": "admin", "password": "admin-password-for-tests"}
    )
    assert locked.status_code == 429
    assert "from this address" in locked.json()["detail"]
    assert int(locked.headers["Retry-After"]) > 0


def test_the_lock_ends_when_the_failures_leave_the_window(
    client: TestClient, settings: Settings
) -> None:
    make_user(client, "carol")
    web = browser(client)
    for _ in range(5):
        _login(web, "carol", "wrong")
    assert _login(web, "carol", PASSWORD) == 429
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:  # let the window pass
        session.execute(
            update(AuditRecord)
            .where(AuditRecord.action == "auth:login_failed")
            .values(created_at=utcnow() - dt.timedelta(seconds=settings.login_window_seconds))
        )
        session.commit()
    assert _login(web, "carol", PASSWORD) == 200


def test_a_rate_counts_each_key_in_a_sliding_window() -> None:
    """``throttle.Rate`` (previews and tests): ``limit`` events per key in any window; a refused
    event is not counted, and the wait is until the oldest counted one leaves the window."""
    now = [1000.0]
    rate = Rate(2, "previews", window=60.0, clock=lambda: now[0])
    rate.take(1)
    now[0] += 10
    rate.take(1)
    rate.take(2)  # another key: its own count
    now[0] += 5
    with pytest.raises(TooManyRequests) as refused:
        rate.take(1)
    assert refused.value.retry_after == 45  # the first leaves the window at 1060
    assert "at most 2 in 60 seconds" in refused.value.message
    now[0] = 1060.0
    rate.take(1)  # the first has left; the refusal did not count
    with pytest.raises(TooManyRequests):
        rate.take(1)
