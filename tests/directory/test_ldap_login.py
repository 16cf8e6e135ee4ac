"""LDAP login against a real slapd (support.slapd): POST /auth/login tries local users, then the
directory; the user is provisioned with the teams of their groups."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pyotp
import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_PASSWORD
from support.builders import PASSWORD, Workbench, assert_problem, browser, make_user
from support.slapd import (
    ADMINS,
    Directory,
    SlapdServer,
    ldap_settings,
    serve,
    start_slapd,
)

from steward.config import Settings

ALICE_PASSWORD = "alice-directory-pw"


def log_in(client: TestClient, username: str, password: str, **extra: Any) -> Any:
    return browser(client).post(
        "/api/v1/auth/login", json={"username": username, "password": password, **extra}
    )


def logged_in(client: TestClient, username: str, password: str) -> tuple[TestClient, str]:
    web = browser(client)
    response = web.post("/api/v1/auth/login", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    return web, str(response.json()["csrf_token"])


def team(client: TestClient, name: str, *groups: str) -> int:
    created = client.post("/api/v1/teams", json={"name": name, "directory_groups": list(groups)})
    assert created.status_code == 201, created.text
    return int(created.json()["id"])


def member_names(client: TestClient, team_id: int) -> list[tuple[str, bool]]:
    members = client.get(f"/api/v1/teams/{team_id}/members")
    assert members.status_code == 200, members.text
    return [(m["username"], m["synced"]) for m in members.json()]


def audit(client: TestClient, action: str) -> list[dict[str, Any]]:
    page = client.get("/api/v1/audit", params={"action": action})
    assert page.status_code == 200, page.text
    items: list[dict[str, Any]] = page.json()["items"]
    return items


def test_a_directory_user_logs_in_and_is_created_from_their_entry(
    ldap_client: TestClient, directory: Directory
) -> None:
    dn = directory.person("alice", ALICE_PASSWORD, mail="alice@example.test", cn="Alice Liddell")
    response = log_in(ldap_client, "alice", ALICE_PASSWORD)
    assert response.status_code == 200, response.text
    user = response.json()["user"]
    assert (user["username"], user["email"], user["display_name"]) == (
        "alice",
        "alice@example.test",
        "Alice Liddell",
    )
    assert (user["auth_source"], user["is_admin"], user["is_active"]) == ("ldap", False, True)
    assert "external_id" not in user
    assert dn not in response.text
    web, _csrf = logged_in(ldap_client, "alice", ALICE_PASSWORD)
    assert web.get("/api/v1/auth/me").json()["username"] == "alice"
    # the second login found the same user (by DN): one user, one creation
    listed = ldap_client.get("/api/v1/users", params={"q": "alice"}).json()["items"]
    assert [u["id"] for u in listed] == [user["id"]]
    created = [r for r in audit(ldap_client, "user:create") if r["object_name"] == "alice"]
    assert [(r["actor"], r["detail"]) for r in created] == [("system", "ldap login")]
    logins = [r for r in audit(ldap_client, "auth:login") if r["object_name"] == "alice"]
    assert [r["detail"] for r in logins] == ["LDAP password", "LDAP password"]


def test_wrong_password_and_unknown_user_are_the_same_401_and_recorded(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("alice", ALICE_PASSWORD)
    wrong = log_in(ldap_client, "alice", "not-her-password")
    unknown = log_in(ldap_client, "nobody", ALICE_PASSWORD)
    for refused in (wrong, unknown):
        assert refused.status_code == 401, refused.text
        assert refused.json()["detail"] == "invalid username or password"
    failures = audit(ldap_client, "auth:login_failed")
    assert sorted(r["object_name"] for r in failures) == ["alice", "nobody"]
    assert ldap_client.get("/api/v1/users", params={"q": "alice"}).json()["total"] == 0


def test_a_user_in_two_groups_joins_two_teams_and_leaves_one_with_its_group(
    ldap_client: TestClient, directory: Directory
) -> None:
    alice = directory.person("alice", ALICE_PASSWORD)
    ops, dev = directory.group("ops", alice), directory.group("dev", alice)
    other = directory.group("other")
    ops_team, dev_team = team(ldap_client, "ops", ops), team(ldap_client, "dev", dev.upper())
    other_team, by_hand = team(ldap_client, "other", other), team(ldap_client, "by-hand", ops)

    user_id = log_in(ldap_client, "alice", ALICE_PASSWORD).json()["user"]["id"]
    assert member_names(ldap_client, ops_team) == [("alice", True)]
    assert member_names(ldap_client, dev_team) == [("alice", True)]  # DNs compared without case
    assert member_names(ldap_client, other_team) == []
    # by-hand matches ops too, but an admin also adds her by hand to the dev team's sibling:
    # remove the synced one and add it by hand, so it is manual from now on
    assert ldap_client.delete(f"/api/v1/teams/{by_hand}/members/{user_id}").status_code == 204
    added = ldap_client.post(f"/api/v1/teams/{by_hand}/members", json={"user_id": user_id})
    assert added.status_code == 201, added.text
    assert member_names(ldap_client, by_hand) == [("alice", False)]

    directory.leave(ops, alice)
    assert log_in(ldap_client, "alice", ALICE_PASSWORD).status_code == 200
    assert member_names(ldap_client, ops_team) == []  # synced: gone with the group
    assert member_names(ldap_client, dev_team) == [("alice", True)]
    assert member_names(ldap_client, by_hand) == [("alice", False)]  # manual: kept
    removed = audit(ldap_client, "team:member_remove")
    assert sorted((r["object_name"], r["actor"]) for r in removed) == [
        ("by-hand", "admin (token tests)"),  # the admin's own removal above
        ("ops", "system"),
    ]


def test_the_admin_group_makes_admins_and_leaving_it_unmakes_them(
    ldap_client: TestClient, directory: Directory
) -> None:
    carol = directory.person("carol", ALICE_PASSWORD)
    directory.group("steward-admins", carol)
    first = log_in(ldap_client, "carol", ALICE_PASSWORD)
    assert first.status_code == 200, first.text
    assert first.json()["user"]["is_admin"] is True
    web, _csrf = logged_in(ldap_client, "carol", ALICE_PASSWORD)
    assert web.get("/api/v1/users").status_code == 200  # an admin's list

    directory.leave(ADMINS, carol)
    again = log_in(ldap_client, "carol", ALICE_PASSWORD)
    assert again.json()["user"]["is_admin"] is False
    changes = [r["changes"].get("is_admin") for r in audit(ldap_client, "user:update")]
    assert [True, False] in changes


def test_groups_from_member_of_when_no_group_base(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    alice = directory.person("alice", ALICE_PASSWORD)
    ops = directory.group("ops", alice)
    with serve(ldap_settings(settings, slapd_server, ldap_group_base="")) as client:
        ops_team = team(client, "ops", ops)
        assert log_in(client, "alice", ALICE_PASSWORD).status_code == 200
        assert member_names(client, ops_team) == [("alice", True)]


def test_local_users_are_checked_locally_only(
    ldap_client: TestClient, directory: Directory
) -> None:
    make_user(ldap_client, "bob")  # local bob
    directory.person("bob", ALICE_PASSWORD)  # and a directory bob with another password
    assert log_in(ldap_client, "bob", PASSWORD).json()["user"]["auth_source"] == "local"
    refused = log_in(ldap_client, "bob", ALICE_PASSWORD)
    assert refused.status_code == 401, refused.text
    bobs = ldap_client.get("/api/v1/users", params={"q": "bob"}).json()["items"]
    assert [(u["username"], u["auth_source"]) for u in bobs] == [("bob", "local")]


def test_a_directory_username_of_a_local_user_is_refused_not_taken_over(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    # she logs in as "dave.d", but the directory's username attribute says "dave"
    directory.person("dave.d", ALICE_PASSWORD, description="dave")
    overrides = {"ldap_username_attribute": "description"}
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        local = make_user(client, "dave")
        refused = log_in(client, "dave.d", ALICE_PASSWORD)
        assert_problem(refused, 409, "username")
        assert "'dave' is already a local user" in refused.json()["detail"]
        failures = audit(client, "auth:login_failed")
        assert [r["object_name"] for r in failures] == ["dave.d"]
        daves = client.get("/api/v1/users", params={"q": "dave"}).json()["items"]
        assert [(u["id"], u["auth_source"]) for u in daves] == [(local["id"], "local")]


def test_a_disabled_directory_user_cannot_log_in(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("erin", ALICE_PASSWORD)
    user_id = log_in(ldap_client, "erin", ALICE_PASSWORD).json()["user"]["id"]
    assert ldap_client.patch(f"/api/v1/users/{user_id}", json={"is_active": False}).is_success
    refused = log_in(ldap_client, "erin", ALICE_PASSWORD)
    assert refused.status_code == 401, refused.text
    assert "disabled" in refused.json()["detail"]


def test_directory_logins_are_throttled_like_local_ones(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("frank", ALICE_PASSWORD)
    for _ in range(5):
        assert log_in(ldap_client, "frank", "wrong-password").status_code == 401
    locked = log_in(ldap_client, "frank", ALICE_PASSWORD)
    assert locked.status_code == 429, locked.text
    assert int(locked.headers["Retry-After"]) > 0


def test_a_dead_directory_is_a_503_and_local_admins_still_log_in(
    settings: Settings, tmp_path: Path
) -> None:
    server = start_slapd(tmp_path / "slapd")
    try:
        people = Directory(server)
        people.person("gina", ALICE_PASSWORD)
        with serve(ldap_settings(settings, server)) as client:
            assert log_in(client, "gina", ALICE_PASSWORD).status_code == 200
            server.stop()  # by its PID
            started = time.monotonic()
            down = log_in(client, "gina", ALICE_PASSWORD)
            assert down.status_code == 503, down.text
            assert time.monotonic() - started < 5
            assert down.headers["content-type"] == "application/problem+json"
            assert "no directory server answered" in down.json()["detail"]
            admin = log_in(client, "admin", ADMIN_PASSWORD)
            assert admin.status_code == 200, admin.text
            # not counted against gina: no failure recorded for the outage
            failures = audit(client, "auth:login_failed")
            assert [r for r in failures if r["object_name"] == "gina"] == []
    finally:
        server.stop()


def test_totp_applies_to_a_directory_user_who_enrolled(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("hana", ALICE_PASSWORD)
    web, csrf = logged_in(ldap_client, "hana", ALICE_PASSWORD)
    headers = {"X-CSRF-Token": csrf}
    wrong = web.post("/api/v1/users/me/totp", json={"password": "wrong"}, headers=headers)
    assert wrong.status_code == 403, wrong.text  # checked by a bind: not her password
    started = web.post("/api/v1/users/me/totp", json={"password": ALICE_PASSWORD}, headers=headers)
    assert started.status_code == 200, started.text
    secret = started.json()["secret"]
    confirmed = web.post(
        "/api/v1/users/me/totp/confirm", json={"code": pyotp.TOTP(secret).now()}, headers=headers
    )
    assert confirmed.status_code == 200, confirmed.text

    needed = log_in(ldap_client, "hana", ALICE_PASSWORD)
    assert needed.status_code == 401
    assert needed.json()["code"] == "otp_required"
    with_code = log_in(
        ldap_client, "hana", ALICE_PASSWORD, otp=confirmed.json()["recovery_codes"][0]
    )
    assert with_code.status_code == 200, with_code.text


def test_a_directory_user_has_no_password_in_steward(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("ivan", ALICE_PASSWORD)
    web, csrf = logged_in(ldap_client, "ivan", ALICE_PASSWORD)
    user_id = web.get("/api/v1/auth/me").json()["id"]
    change = web.post(
        "/api/v1/users/me/password",
        json={"current_password": ALICE_PASSWORD, "new_password": "a-new-local-password"},
        headers={"X-CSRF-Token": csrf},
    )
    assert_problem(change, 409, "new_password")
    reset = ldap_client.post(
        f"/api/v1/users/{user_id}/password", json={"password": "a-new-local-password"}
    )
    assert_problem(reset, 409, "password")
    assert "set in the directory" in reset.json()["detail"]


@pytest.mark.slow
def test_a_directory_user_launches_a_template_granted_to_their_team(
    ldap_client: TestClient, directory: Directory, tmp_path: Path
) -> None:
    jules = directory.person("jules", ALICE_PASSWORD)
    operators = directory.group("operators", jules)
    bench = Workbench(ldap_client, tmp_path)
    template_id = bench.template("ok.yml")
    team_id = team(ldap_client, "operators", operators)
    grant = ldap_client.post(
        bench.url(f"templates/{template_id}/grants"), json={"team_id": team_id, "permission": "run"}
    )
    assert grant.status_code == 201, grant.text
    other = bench.template("ok.yml", name="not-granted")

    web, csrf = logged_in(ldap_client, "jules", ALICE_PASSWORD)
    headers = {"X-CSRF-Token": csrf}
    refused = web.post(bench.url("runs"), json={"template_id": other}, headers=headers)
    assert refused.status_code == 404, refused.text
    launched = web.post(bench.url("runs"), json={"template_id": template_id}, headers=headers)
    assert launched.status_code == 201, launched.text
    assert launched.json()["launched_by"] == "jules"
    run = bench.wait(launched.json()["id"])
    assert run["status"] == "successful", run

    directory.leave(operators, jules)  # out of the group: out of the team at the next login
    web, csrf = logged_in(ldap_client, "jules", ALICE_PASSWORD)
    again = web.post(
        bench.url("runs"), json={"template_id": template_id}, headers={"X-CSRF-Token": csrf}
    )
    assert again.status_code == 404, again.text


@pytest.mark.parametrize("transport", ["ldaps", "starttls"], ids=["ldaps", "starttls"])
def test_tls_to_the_directory_with_its_ca(
    settings: Settings, slapd_server: SlapdServer, directory: Directory, transport: str
) -> None:
    directory.person("lena", ALICE_PASSWORD)
    tls: dict[str, Any] = (
        {"ldap_url": [slapd_server.ldaps_url]}
        if transport == "ldaps"
        else {"ldap_url": [slapd_server.url], "ldap_start_tls": True}
    )
    with serve(
        ldap_settings(settings, slapd_server, ldap_ca_file=slapd_server.ca_file, **tls)
    ) as c:
        assert log_in(c, "lena", ALICE_PASSWORD).status_code == 200
    # the same without the CA: the certificate is not trusted, nothing is sent; 503, not a login
    with serve(ldap_settings(settings, slapd_server, **tls)) as c:
        refused = log_in(c, "lena", ALICE_PASSWORD)
        assert refused.status_code == 503, refused.text
        assert "no directory server answered" in refused.json()["detail"]


def test_servers_are_tried_in_order(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    directory.person("mona", ALICE_PASSWORD)
    dead = "ldap://127.0.0.1:1"  # nothing listens on port 1
    with serve(ldap_settings(settings, slapd_server, ldap_url=[dead, slapd_server.url])) as c:
        assert log_in(c, "mona", ALICE_PASSWORD).status_code == 200
