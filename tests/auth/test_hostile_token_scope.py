"""A token never mints more than itself: a read or run token cannot create a wider token, an
expiring token cannot create one that outlives it, and a read or run token revokes no other
token. Each refusal has its control: the same request from a console session or a write token
succeeds, and the minted token really has the rights asked for."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, bearer, login, make_user

pytestmark = pytest.mark.security

TOKENS = "/api/v1/users/me/tokens"


def _session(client: TestClient, name: str) -> tuple[TestClient, dict[str, str]]:
    make_user(client, name)
    web, csrf = login(client, name)
    return web, {"X-CSRF-Token": csrf}


def _mint(web: TestClient, headers: dict[str, str], scope: str, **body: object) -> str:
    created = web.post(TOKENS, json={"name": scope, "scope": scope, **body}, headers=headers)
    assert created.status_code == 201, created.text
    return str(created.json()["token"])


def _ids(web: TestClient) -> list[int]:
    return [t["id"] for t in web.get(TOKENS).json()]


def _at(hours: float) -> str:
    return (dt.datetime.now(dt.UTC) + dt.timedelta(hours=hours)).isoformat()


@pytest.mark.parametrize(("scope", "wider"), [("read", "run"), ("read", "write"), ("run", "write")])
def test_a_token_cannot_create_a_token_of_a_wider_scope(
    client: TestClient, scope: str, wider: str
) -> None:
    web, csrf = _session(client, "mallory")
    weak = bearer(_mint(web, csrf, scope))
    before = _ids(web)

    refused = client.post(TOKENS, json={"name": "up", "scope": wider}, headers=weak)
    detail = assert_problem(refused, 403, "scope")
    assert f"scope '{scope}' may not create a token with scope '{wider}'" in detail
    assert _ids(web) == before  # nothing was created

    # control: a console session creates it, and it has the wider rights (the profile is a
    # change a read or run token may not make)
    minted = bearer(_mint(web, csrf, wider))
    changed = client.patch("/api/v1/users/me", json={"display_name": "m"}, headers=minted)
    assert changed.status_code == (200 if wider == "write" else 403), changed.text
    # and a token of the same scope may create one like itself
    same = client.post(TOKENS, json={"name": "same", "scope": scope}, headers=weak)
    assert same.status_code == 201, same.text


def test_a_write_token_creates_tokens_of_every_scope(client: TestClient) -> None:
    web, csrf = _session(client, "walt")
    writer = bearer(_mint(web, csrf, "write"))
    for scope in ("read", "run", "write"):
        created = client.post(TOKENS, json={"name": scope, "scope": scope}, headers=writer)
        assert created.status_code == 201, created.text
        assert created.json()["scope"] == scope


def test_an_expiring_token_cannot_create_one_that_outlives_it(client: TestClient) -> None:
    web, csrf = _session(client, "eve")
    expiring = web.post(
        TOKENS, json={"name": "short", "scope": "write", "expires_at": _at(1)}, headers=csrf
    ).json()
    short = bearer(expiring["token"])
    before = _ids(web)

    never = client.post(TOKENS, json={"name": "forever", "scope": "read"}, headers=short)
    assert "must expire too" in assert_problem(never, 422, "expires_at")
    later = client.post(
        TOKENS, json={"name": "later", "scope": "read", "expires_at": _at(2)}, headers=short
    )
    assert "must be no later than" in assert_problem(later, 422, "expires_at")
    assert _ids(web) == before

    # controls: an earlier expiry, or exactly its own, is allowed through the token ...
    for expires_at in (_at(0.5), expiring["expires_at"]):
        body = {"name": "ok", "scope": "write", "expires_at": expires_at}
        created = client.post(TOKENS, json=body, headers=short)
        assert created.status_code == 201, created.text
    # ... and a console session creates a token that never expires
    forever = web.post(TOKENS, json={"name": "forever", "scope": "write"}, headers=csrf)
    assert forever.status_code == 201, forever.text
    assert forever.json()["expires_at"] is None
    # a token that never expires may create one that never expires
    unbounded = bearer(forever.json()["token"])
    again = client.post(TOKENS, json={"name": "again", "scope": "write"}, headers=unbounded)
    assert again.status_code == 201, again.text


@pytest.mark.parametrize("scope", ["read", "run"])
def test_a_read_or_run_token_revokes_no_other_token(client: TestClient, scope: str) -> None:
    web, csrf = _session(client, "rita")
    weak = bearer(_mint(web, csrf, scope))
    victim_secret = _mint(web, csrf, "write")
    victim = next(t["id"] for t in web.get(TOKENS).json() if t["name"] == "write")

    refused = client.delete(f"{TOKENS}/{victim}", headers=weak)
    assert f"scope '{scope}' may not revoke another token" in assert_problem(refused, 403, scope)
    assert client.get("/api/v1/auth/me", headers=bearer(victim_secret)).status_code == 200

    # control: a write token revokes it, and it stops working
    writer = bearer(_mint(web, csrf, "write"))
    assert client.delete(f"{TOKENS}/{victim}", headers=writer).status_code == 204
    assert client.get("/api/v1/auth/me", headers=bearer(victim_secret)).status_code == 401
