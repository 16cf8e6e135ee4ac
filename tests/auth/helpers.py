"""Logging in as people other than the test admin, with a cookie or a token."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

PASSWORD = "correct horse battery"


def make_user(client: TestClient, username: str, **body: Any) -> dict[str, Any]:
    created = client.post(
        "/api/v1/users", json={"username": username, "password": PASSWORD, **body}
    )
    assert created.status_code == 201, created.text
    user: dict[str, Any] = created.json()
    return user


def browser(client: TestClient, *, base_url: str = "http://testserver") -> TestClient:
    """A second client on the same app with no credentials (no lifespan: the app already runs)."""
    return TestClient(client.app, base_url=base_url)


def login(client: TestClient, username: str, password: str = PASSWORD) -> tuple[TestClient, str]:
    """A browser logged in as ``username``; returns it and the session's CSRF token."""
    web = browser(client)
    response = web.post("/api/v1/auth/login", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    return web, str(response.json()["csrf_token"])


def token(client: TestClient, username: str, scope: str = "write") -> str:
    web, csrf = login(client, username)
    created = web.post(
        "/api/v1/users/me/tokens",
        json={"name": f"{username}-{scope}", "scope": scope},
        headers={"X-CSRF-Token": csrf},
    )
    assert created.status_code == 201, created.text
    return str(created.json()["token"])


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}
