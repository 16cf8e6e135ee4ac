"""Browser sessions: cookie flags, CSRF, logout and expiry that end the session server-side."""

from __future__ import annotations

import datetime as dt

from fastapi.testclient import TestClient
from sqlalchemy import update
from support.builders import bearer, browser, login, make_user, token

from steward.auth.models import WebSession
from steward.config import Settings
from steward.server import build_app

ADMIN = {"username": "admin", "password": "admin-password-for-tests"}


def _cookie_header(web: TestClient) -> str:
    response = web.post("/api/v1/auth/login", json=ADMIN)
    assert response.status_code == 200, response.text
    return response.headers["set-cookie"].lower()


def test_the_session_cookie_is_httponly_lax_and_secure_only_over_https(
    client: TestClient, settings: Settings
) -> None:
    plain = _cookie_header(browser(client))
    assert "httponly" in plain
    assert "samesite=lax" in plain
    assert "secure" not in plain
    assert "secure" in _cookie_header(browser(client, base_url="https://testserver"))

    settings.secure_cookies = True
    behind_proxy = build_app(settings, migrate=False)
    try:
        assert "secure" in _cookie_header(TestClient(behind_proxy))
    finally:
        behind_proxy.state.runtime.engine.dispose()


def test_a_cookie_request_that_changes_state_needs_the_csrf_header(client: TestClient) -> None:
    web, csrf = login(client, "admin", ADMIN["password"])
    url = "/api/v1/projects"
    assert web.post(url, json={"name": "a"}).status_code == 403
    forged = ("y" if csrf.startswith("x") else "x") + csrf[1:]  # differs from the real one
    wrong = web.post(url, json={"name": "a"}, headers={"X-CSRF-Token": forged})
    assert wrong.status_code == 403
    assert "CSRF" in wrong.json()["detail"]
    assert web.post(url, json={"name": "a"}, headers={"X-CSRF-Token": csrf}).status_code == 201
    assert web.get(url).status_code == 200  # reads need no header
    form = browser(client).post(  # what a cross-site <form enctype="text/plain"> could send
        "/api/v1/auth/login",
        content=b'{"username": "admin", "password": "admin-password-for-tests"}',
        headers={"Content-Type": "text/plain"},
    )
    assert form.status_code == 422


def test_logout_ends_the_session_on_the_server(client: TestClient) -> None:
    web, csrf = login(client, "admin", ADMIN["password"])
    cookie = web.cookies["steward_session"]
    assert web.post("/api/v1/auth/logout").status_code == 403  # CSRF applies to logout too
    assert web.post("/api/v1/auth/logout", headers={"X-CSRF-Token": csrf}).status_code == 204
    replay = browser(client)
    replay.cookies.set("steward_session", cookie)
    assert replay.get("/api/v1/auth/me").status_code == 401


def test_an_expired_session_is_refused(client: TestClient) -> None:
    web, _csrf = login(client, "admin", ADMIN["password"])
    assert web.get("/api/v1/auth/me").status_code == 200
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        past = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=1)
        session.execute(update(WebSession).values(expires_at=past))
        session.commit()
    expired = web.get("/api/v1/auth/me")
    assert expired.status_code == 401
    assert "log in again" in expired.json()["detail"]


def test_the_session_endpoint_gives_the_csrf_token_to_a_cookie_only(client: TestClient) -> None:
    make_user(client, "hana")
    web, csrf = login(client, "hana")
    current = web.get("/api/v1/auth/session")
    assert current.status_code == 200, current.text
    assert current.json()["csrf_token"] == csrf
    assert current.json()["user"]["username"] == "hana"
    assert current.headers["cache-control"] == "no-store"

    with_token = browser(client).get("/api/v1/auth/session", headers=bearer(token(client, "hana")))
    assert with_token.status_code == 401
    assert "csrf_token" not in with_token.json()
    both = web.get("/api/v1/auth/session", headers=bearer(token(client, "hana")))
    assert both.status_code == 401
    assert browser(client).get("/api/v1/auth/session").status_code == 401
