"""A token or session resolved once is kept for STEWARD_AUTH_CACHE_SECONDS: no query for it on
the next request; a change on this server forgets it at once, one on another server within
the setting's seconds (auth.credentials)."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from support.admin import ADMIN_TOKEN
from support.builders import bearer, login, make_user, token

from steward.auth.models import ApiToken, User
from steward.config import Settings
from steward.db import make_engine
from steward.server import build_app

ME = "/api/v1/auth/me"


def _reads_credentials(statement: str) -> bool:
    lowered = statement.lower()
    return lowered.startswith("select") and (
        "from api_tokens" in lowered or "from users" in lowered
    )


def test_a_token_resolved_once_is_not_looked_up_again(
    client: TestClient, statements: list[str]
) -> None:
    assert client.get(ME).status_code == 200
    first = [s for s in statements if _reads_credentials(s)]
    statements.clear()
    assert client.get(ME).json()["username"] == "admin"
    assert first  # the probe: the first request did look the token and its user up
    assert not [s for s in statements if _reads_credentials(s)]


def test_a_revocation_on_this_server_takes_effect_at_once(client: TestClient) -> None:
    make_user(client, "ann")
    secret = token(client, "ann")
    assert client.get(ME, headers=bearer(secret)).status_code == 200  # kept from here on
    ann = client.get("/api/v1/users?limit=100").json()["items"]
    ann_id = next(user["id"] for user in ann if user["username"] == "ann")
    assert client.patch(f"/api/v1/users/{ann_id}", json={"is_active": False}).status_code == 200
    refused = client.get(ME, headers=bearer(secret))
    assert refused.status_code == 401
    web, _csrf = login(client, "admin", "admin-password-for-tests")
    assert web.get(ME).status_code == 200
    cookie = web.cookies["steward_session"]
    own = web.get("/api/v1/users/me/sessions").json()
    ended = web.delete(f"/api/v1/users/me/sessions/{own[0]['id']}", headers={"X-CSRF-Token": _csrf})
    assert ended.status_code == 204, ended.text
    web.cookies.set("steward_session", cookie)
    assert web.get(ME).status_code == 401


@pytest.fixture
def short_cache(settings: Settings) -> Iterator[TestClient]:
    app = build_app(settings.model_copy(update={"auth_cache_seconds": 0.5}), migrate=False)
    with TestClient(app) as c:
        c.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield c
    app.state.runtime.engine.dispose()


def test_a_revocation_on_another_server_takes_effect_within_the_cache_time(
    short_cache: TestClient, settings: Settings
) -> None:
    assert short_cache.get(ME).status_code == 200
    elsewhere = make_engine(settings.database_url)  # another server of the cluster
    try:
        with elsewhere.begin() as connection:
            connection.execute(update(ApiToken).values(revoked_at=dt.datetime.now(dt.UTC)))
    finally:
        elsewhere.dispose()
    assert short_cache.get(ME).status_code == 200  # still kept: the documented bound
    time.sleep(0.6)
    refused = short_cache.get(ME)
    assert refused.status_code == 401
    assert "revoked" in refused.json()["detail"]


def test_a_kept_token_past_its_expiry_is_refused(client: TestClient) -> None:
    web, csrf = login(client, "admin", "admin-password-for-tests")
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(seconds=1)
    created = web.post(
        "/api/v1/users/me/tokens",
        json={"name": "brief", "scope": "read", "expires_at": soon.isoformat()},
        headers={"X-CSRF-Token": csrf},
    )
    assert created.status_code == 201, created.text
    brief = bearer(created.json()["token"])
    assert client.get(ME, headers=brief).status_code == 200  # kept for 5 s from here
    time.sleep(max(0.0, (soon - dt.datetime.now(dt.UTC)).total_seconds()) + 0.05)
    expired = client.get(ME, headers=brief)
    assert expired.status_code == 401
    assert "expired" in expired.json()["detail"]


def test_a_change_to_the_user_is_seen_at_once(client: TestClient, settings: Settings) -> None:
    assert client.get(ME).json()["display_name"] == ""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:  # a statement on this server's sessions
        session.execute(update(User).where(User.username == "admin").values(display_name="Ad"))
        session.commit()
    assert client.get(ME).json()["display_name"] == "Ad"
