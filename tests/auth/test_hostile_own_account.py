"""Hostile uses of the own-account routes: another user's sessions, weaker tokens, bad bodies."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, bearer, login, make_user, token

from steward.auth.sessions import OWN_SESSIONS_SHOWN

pytestmark = pytest.mark.security


def test_another_users_session_can_be_neither_seen_nor_ended(client: TestClient) -> None:
    make_user(client, "mallory")
    make_user(client, "victim")
    victim, _ = login(client, "victim")
    victim_session = victim.get("/api/v1/users/me/sessions").json()[0]["id"]
    mallory, csrf = login(client, "mallory")

    listed = mallory.get("/api/v1/users/me/sessions").json()
    assert victim_session not in [s["id"] for s in listed]
    ended = mallory.delete(
        f"/api/v1/users/me/sessions/{victim_session}", headers={"X-CSRF-Token": csrf}
    )
    assert_problem(ended, 404, f"session {victim_session}")
    assert victim.get("/api/v1/auth/me").status_code == 200
    # not even an admin ends someone's session through this route (disabling does that)
    as_admin = client.delete(f"/api/v1/users/me/sessions/{victim_session}")
    assert_problem(as_admin, 404, "not found")
    assert victim.get("/api/v1/auth/me").status_code == 200


def test_a_read_or_run_token_may_not_end_sessions_or_change_the_profile(
    client: TestClient,
) -> None:
    make_user(client, "sam")
    web, _ = login(client, "sam")
    own = web.get("/api/v1/users/me/sessions").json()[0]["id"]
    for scope in ("read", "run"):
        headers = bearer(token(client, "sam", scope))
        refused = client.delete(f"/api/v1/users/me/sessions/{own}", headers=headers)
        assert_problem(refused, 403, scope)
        profile = client.patch("/api/v1/users/me", json={"display_name": "x"}, headers=headers)
        assert_problem(profile, 403, scope)
    assert web.get("/api/v1/auth/me").status_code == 200
    assert web.get("/api/v1/auth/me").json()["display_name"] == ""


def test_profile_fields_are_bounded_and_may_not_be_null(client: TestClient) -> None:
    too_long = client.patch("/api/v1/users/me", json={"email": "x" * 321})
    assert_problem(too_long, 422, "email")
    null = client.patch("/api/v1/users/me", json={"display_name": None})
    assert_problem(null, 422, "display_name")
    for field in ("username", "is_active", "password_hash"):
        assert_problem(client.patch("/api/v1/users/me", json={field: "x"}), 422, field)


def test_the_session_list_is_bounded(client: TestClient) -> None:
    make_user(client, "sam")
    browsers = [login(client, "sam")[0] for _ in range(3)]
    assert len(browsers[0].get("/api/v1/users/me/sessions").json()) == 3
    assert OWN_SESSIONS_SHOWN == 100
