"""What a signed-in user does to their own account: profile, and their browser sessions."""

from __future__ import annotations

from fastapi.testclient import TestClient
from support.builders import assert_problem, bearer, login, make_user, token


def test_a_user_lists_their_sessions_with_the_current_one_marked(client: TestClient) -> None:
    make_user(client, "sam")
    laptop, _ = login(client, "sam")
    phone, _ = login(client, "sam")
    login(client, "admin", "admin-password-for-tests")  # someone else's: never listed

    listed = laptop.get("/api/v1/users/me/sessions")
    assert listed.status_code == 200, listed.text
    sessions = listed.json()
    assert len(sessions) == 2
    assert [s["current"] for s in sessions] == [False, True]  # newest first: the phone's
    assert sessions[1]["source_ip"] == "testclient"
    assert {"id", "created_at", "expires_at", "user_agent"} <= set(sessions[0])
    assert "token_hash" not in listed.text
    assert "csrf" not in listed.text
    assert [s["current"] for s in phone.get("/api/v1/users/me/sessions").json()] == [True, False]
    # through an API token no session is this request's
    by_token = client.get("/api/v1/users/me/sessions", headers=bearer(token(client, "sam")))
    assert [s["current"] for s in by_token.json()] == [False, False, False]


def test_ending_another_of_ones_sessions_signs_that_browser_out(client: TestClient) -> None:
    make_user(client, "sam")
    laptop, csrf = login(client, "sam")
    phone, _ = login(client, "sam")
    phone_id = next(s["id"] for s in phone.get("/api/v1/users/me/sessions").json() if s["current"])

    url = f"/api/v1/users/me/sessions/{phone_id}"
    assert laptop.delete(url).status_code == 403  # CSRF, as for every change
    ended = laptop.delete(url, headers={"X-CSRF-Token": csrf})
    assert ended.status_code == 204, ended.text
    assert phone.get("/api/v1/auth/me").status_code == 401
    assert laptop.get("/api/v1/auth/me").status_code == 200
    assert [s["current"] for s in laptop.get("/api/v1/users/me/sessions").json()] == [True]
    again = laptop.delete(url, headers={"X-CSRF-Token": csrf})
    assert_problem(again, 404, "")

    record = client.get("/api/v1/audit", params={"action": "auth:logout"}).json()["items"][0]
    assert record["actor"] == "sam"
    assert f"ended session {phone_id}" in record["detail"]


def test_a_user_changes_their_own_name_and_email_but_not_their_rights(
    client: TestClient,
) -> None:
    make_user(client, "sam")
    web, csrf = login(client, "sam")
    changed = web.patch(
        "/api/v1/users/me",
        json={"display_name": "Sam Jones", "email": "sam@example.test"},
        headers={"X-CSRF-Token": csrf},
    )
    assert changed.status_code == 200, changed.text
    assert (changed.json()["display_name"], changed.json()["email"]) == (
        "Sam Jones",
        "sam@example.test",
    )
    assert web.get("/api/v1/auth/me").json()["display_name"] == "Sam Jones"
    promoted = web.patch(
        "/api/v1/users/me", json={"is_admin": True}, headers={"X-CSRF-Token": csrf}
    )
    assert_problem(promoted, 422, "is_admin")
    assert web.get("/api/v1/auth/me").json()["is_admin"] is False
    record = client.get("/api/v1/audit", params={"action": "user:update"}).json()["items"][0]
    assert record["changes"]["display_name"] == ["", "Sam Jones"]
