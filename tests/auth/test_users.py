"""User administration: list, change, disable (ends access at once), passwords."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from support.builders import PASSWORD, assert_problem, bearer, browser, login, make_user, token


def test_admins_list_users_and_others_may_not(client: TestClient) -> None:
    make_user(client, "dave", display_name="Dave")
    page = client.get("/api/v1/users", params={"limit": 1})
    assert page.status_code == 200, page.text
    assert page.json()["total"] == 2
    assert [u["username"] for u in page.json()["items"]] == ["admin"]
    assert "password_hash" not in page.text
    assert client.get("/api/v1/users", headers=bearer(token(client, "dave"))).status_code == 403


def test_project_owners_find_users_by_name_without_their_email(client: TestClient) -> None:
    make_user(client, "olivia", email="olivia@example.test")
    make_user(client, "dbadmin", display_name="Database Admin", email="dba@example.test")
    project = client.post("/api/v1/projects", json={"name": "fleet"}).json()
    olivia = client.get("/api/v1/users", params={"q": "oliv"}).json()["items"][0]
    client.put(
        f"/api/v1/projects/{project['id']}/members", json={"user_id": olivia["id"], "role": "owner"}
    )
    found = client.get(
        "/api/v1/users", params={"q": "database"}, headers=bearer(token(client, "olivia", "read"))
    )
    assert found.status_code == 200, found.text
    assert [(u["username"], u["email"]) for u in found.json()["items"]] == [("dbadmin", "")]
    assert "example.test" not in found.text


def test_disabling_a_user_ends_their_sessions_and_tokens_at_once(client: TestClient) -> None:
    bob = make_user(client, "bob")
    web, _csrf = login(client, "bob")
    secret = token(client, "bob", "read")
    assert web.get("/api/v1/auth/me").status_code == 200
    assert client.get("/api/v1/auth/me", headers=bearer(secret)).status_code == 200

    disabled = client.patch(f"/api/v1/users/{bob['id']}", json={"is_active": False})
    assert disabled.status_code == 200, disabled.text
    assert disabled.json()["is_active"] is False

    assert web.get("/api/v1/auth/me").status_code == 401
    assert browser(client).get("/api/v1/auth/me", headers=bearer(secret)).status_code == 401
    relogin = browser(client).post(
        "/api/v1/auth/login", json={"username": "bob", "password": PASSWORD}
    )
    assert relogin.status_code == 401
    record = client.get("/api/v1/audit", params={"action": "user:disable"}).json()["items"][0]
    assert record["object_id"] == bob["id"]
    assert record["actor"] == "admin (token tests)"
    assert record["changes"] == {"is_active": [True, False]}
    assert "ended 2 sessions, revoked 1 tokens" in record["detail"]  # the token's login, and web

    enabled = client.patch(f"/api/v1/users/{bob['id']}", json={"is_active": True})
    assert enabled.status_code == 200
    assert browser(client).get("/api/v1/auth/me", headers=bearer(secret)).status_code == 401
    assert login(client, "bob")[0].get("/api/v1/auth/me").status_code == 200


@pytest.mark.both_databases
def test_the_last_active_admin_cannot_be_disabled_or_demoted(client: TestClient) -> None:
    admin_id = client.get("/api/v1/auth/me").json()["id"]
    for change in ({"is_active": False}, {"is_admin": False}):
        refused = client.patch(f"/api/v1/users/{admin_id}", json=change)
        assert_problem(refused, 409, next(iter(change)))
        assert "last active admin" in refused.json()["detail"]
    erin = make_user(client, "erin", is_admin=True)
    assert client.patch(f"/api/v1/users/{erin['id']}", json={"is_active": False}).status_code == 200
    assert client.patch(f"/api/v1/users/{admin_id}", json={"is_admin": False}).status_code == 409
    client.patch(f"/api/v1/users/{erin['id']}", json={"is_active": True})
    demoted = client.patch(f"/api/v1/users/{admin_id}", json={"is_admin": False})
    assert demoted.status_code == 200, demoted.text


def test_an_admin_resets_a_password_and_the_users_sessions_end(client: TestClient) -> None:
    fred = make_user(client, "fred")
    web, _csrf = login(client, "fred")
    new = "a brand new password"
    reset = client.post(f"/api/v1/users/{fred['id']}/password", json={"password": new})
    assert reset.status_code == 204, reset.text
    assert web.get("/api/v1/auth/me").status_code == 401
    old = browser(client).post(
        "/api/v1/auth/login", json={"username": "fred", "password": PASSWORD}
    )
    assert old.status_code == 401
    assert login(client, "fred", new)[0].get("/api/v1/auth/me").status_code == 200
    short = client.post(f"/api/v1/users/{fred['id']}/password", json={"password": "short"})
    assert_problem(short, 422, "password")
    assert "short" not in short.json()["detail"]
    exported = client.get("/api/v1/audit/export").text
    assert "user:password_reset" in exported
    assert new not in exported


def test_a_user_changes_their_own_password_with_the_current_one(client: TestClient) -> None:
    make_user(client, "gina")
    read_token = token(client, "gina", "read")
    other, _ = login(client, "gina")
    web, csrf = login(client, "gina")
    url, headers = "/api/v1/users/me/password", {"X-CSRF-Token": csrf}
    wrong = web.post(
        url, json={"current_password": "guess", "new_password": "new password 1"}, headers=headers
    )
    assert_problem(wrong, 422, "current_password")
    failed = client.get("/api/v1/audit", params={"action": "auth:login_failed"}).json()["items"]
    assert failed[0]["object_name"] == "gina"  # a guess here counts like a failed login

    changed = web.post(
        url, json={"current_password": PASSWORD, "new_password": "new password 1"}, headers=headers
    )
    assert changed.status_code == 204, changed.text
    assert web.get("/api/v1/auth/me").status_code == 200  # this session goes on
    assert other.get("/api/v1/auth/me").status_code == 401  # the others end
    assert browser(client).get("/api/v1/auth/me", headers=bearer(read_token)).status_code == 200
    assert login(client, "gina", "new password 1")[0].get("/api/v1/auth/me").status_code == 200

    read_only = browser(client).post(
        url,
        json={"current_password": "new password 1", "new_password": "new password 2"},
        headers=bearer(read_token),
    )
    assert read_only.status_code == 403
    assert "new password" not in json.dumps(client.get("/api/v1/audit/export").text)
