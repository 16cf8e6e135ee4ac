"""LDAP accounts over their whole life, against a real slapd: the stable id (entryUUID) that
keeps a moved or renamed entry on its account, and the directory sync (POST /directory/sync,
``steward directory sync``, the server's loop) that disables the people the directory gave up
and updates the others."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from support.builders import bearer, browser
from support.slapd import (
    ADMINS,
    PEOPLE,
    Directory,
    SlapdServer,
    ldap_settings,
    serve,
    start_slapd,
)

from steward.auth.models import User
from steward.cli import admin
from steward.config import Settings
from steward.directory.sync import DirectorySync

PW = "directory-pw-for-sync"
LEFT_FILTER = "(&(objectClass=inetOrgPerson)(uid={username})(!(employeeType=left)))"


def log_in(client: TestClient, username: str) -> TestClient:
    web = browser(client)
    response = web.post("/api/v1/auth/login", json={"username": username, "password": PW})
    assert response.status_code == 200, response.text
    web.headers["X-CSRF-Token"] = response.json()["csrf_token"]
    return web


def user_row(client: TestClient, username: str) -> User:
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        user: User | None = session.scalar(select(User).where(User.username == username))
        assert user is not None
        session.expunge(user)
        return user


def set_external_id(client: TestClient, user_id: int, value: str) -> None:
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        session.execute(update(User).where(User.id == user_id).values(external_id=value))
        session.commit()


def audit(client: TestClient, action: str) -> list[dict[str, Any]]:
    page = client.get("/api/v1/audit", params={"action": action, "limit": 200})
    assert page.status_code == 200, page.text
    items: list[dict[str, Any]] = page.json()["items"]
    return items


def sync(client: TestClient, status: int = 200) -> dict[str, Any]:
    answer = client.post("/api/v1/directory/sync")
    assert answer.status_code == status, answer.text
    body: dict[str, Any] = answer.json()
    return body


def make_token(web: TestClient) -> str:
    created = web.post("/api/v1/users/me/tokens", json={"name": "ci", "scope": "write"})
    assert created.status_code == 201, created.text
    return str(created.json()["token"])


# --- the stable id ---------------------------------------------------------------------------


def test_a_moved_and_renamed_entry_logs_into_the_same_account(
    ldap_client: TestClient, directory: Directory
) -> None:
    dn = directory.person("alice", PW, cn="Alice Liddell")
    first = log_in(ldap_client, "alice").get("/api/v1/auth/me").json()
    stored = user_row(ldap_client, "alice").external_id
    assert stored == f"entryuuid:{directory.entry_uuid(dn)}"
    assert dn not in str(stored)

    staff = directory.unit("staff", PEOPLE)
    moved = directory.move(dn, "cn=Alice Liddell", staff)  # another RDN, another branch
    assert moved == f"cn=Alice Liddell,{staff}"
    assert directory.entry_uuid(moved) == stored.removeprefix("entryuuid:")
    again = log_in(ldap_client, "alice").get("/api/v1/auth/me").json()
    assert again["id"] == first["id"]  # before: a 409 (the username held by the "old" DN)
    listed = ldap_client.get("/api/v1/users", params={"q": "alice"}).json()["items"]
    assert [u["id"] for u in listed] == [first["id"]]
    # the password is confirmed at its new DN (turning TOTP on asks for it)
    web = log_in(ldap_client, "alice")
    started = web.post("/api/v1/users/me/totp", json={"password": PW})
    assert started.status_code == 200, started.text
    wrong = web.post("/api/v1/users/me/totp", json={"password": "not-hers"})
    assert wrong.status_code == 403, wrong.text


def test_an_account_known_by_its_dn_moves_over_at_the_next_login(
    ldap_client: TestClient, directory: Directory
) -> None:
    dn = directory.person("bruno", PW)
    user_id = log_in(ldap_client, "bruno").get("/api/v1/auth/me").json()["id"]
    set_external_id(ldap_client, user_id, dn)  # as an account made before the stable ids
    # still working where the DN is the id: the password check binds as that DN
    web = log_in(ldap_client, "bruno")
    assert web.get("/api/v1/auth/me").json()["id"] == user_id
    assert user_row(ldap_client, "bruno").external_id == f"entryuuid:{directory.entry_uuid(dn)}"
    moved = [
        r
        for r in audit(ldap_client, "user:update")
        if r["object_name"] == "bruno" and "external_id" in r["changes"]
    ]
    assert len(moved) == 1
    assert moved[0]["actor"] == "system"
    assert moved[0]["changes"]["external_id"][0] == dn


def test_a_missing_id_attribute_is_a_503_naming_the_setting(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    directory.person("celia", PW)
    with serve(ldap_settings(settings, slapd_server, ldap_id_attribute="employeeNumber")) as c:
        refused = browser(c).post("/api/v1/auth/login", json={"username": "celia", "password": PW})
        assert refused.status_code == 503, refused.text
        assert "ldap_id_attribute" in refused.json()["detail"]
        assert c.get("/api/v1/users", params={"q": "celia"}).json()["total"] == 0


# --- the sync --------------------------------------------------------------------------------


@pytest.mark.both_databases
def test_sync_disables_the_gone_and_updates_the_others(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    alice = directory.person("alice", PW)
    bob = directory.person("bob", PW)
    carol = directory.person("carol", PW)
    ops = directory.group("ops", alice)
    dev = directory.group("dev")
    admins = directory.group("steward-admins")
    assert admins == ADMINS
    with serve(ldap_settings(settings, slapd_server, ldap_user_filter=LEFT_FILTER)) as client:
        ops_team = client.post("/api/v1/teams", json={"name": "ops", "directory_groups": [ops]})
        dev_team = client.post("/api/v1/teams", json={"name": "dev", "directory_groups": [dev]})
        ops_id, dev_id = ops_team.json()["id"], dev_team.json()["id"]
        webs = {name: log_in(client, name) for name in ("alice", "bob", "carol")}
        tokens = {name: make_token(web) for name, web in webs.items()}
        # the directory changes while nobody logs in
        directory.remove(bob)
        directory.replace(carol, "employeeType", "left")
        directory.leave(ops, alice)
        directory.join(dev, alice)
        directory.join(ADMINS, alice)

        report = sync(client)
        assert report == {
            "checked": 3,
            "present": 1,
            "disabled": ["bob", "carol"],
            "kept": [],
            "failed": [],
            "refused": "",
        }
        for name in ("bob", "carol"):
            assert webs[name].get("/api/v1/auth/me").status_code == 401  # session ended
            refused = browser(client).get("/api/v1/auth/me", headers=bearer(tokens[name]))
            assert refused.status_code == 401  # token revoked
            assert user_row(client, name).is_active is False
        # alice: still in, teams and admin flag as a login would set them, nothing ended
        assert webs["alice"].get("/api/v1/auth/me").json()["is_admin"] is True
        assert browser(client).get("/api/v1/auth/me", headers=bearer(tokens["alice"])).is_success
        ops_members = client.get(f"/api/v1/teams/{ops_id}/members").json()
        dev_members = client.get(f"/api/v1/teams/{dev_id}/members").json()
        assert [m["username"] for m in ops_members] == []
        assert [(m["username"], m["synced"]) for m in dev_members] == [("alice", True)]

        disabled = {r["object_name"]: r for r in audit(client, "user:disable")}
        assert disabled["bob"]["actor"] == "system"
        assert disabled["bob"]["detail"] == (
            "directory sync: no longer in the directory; ended 1 sessions, revoked 1 tokens"
        )
        assert disabled["carol"]["detail"].startswith(
            "directory sync: no longer matches ldap_user_filter;"
        )
        joined = [r for r in audit(client, "team:member_add") if r["object_name"] == "dev"]
        assert [r["detail"] for r in joined] == ["alice joined (directory groups, ldap sync)"]
        runs = audit(client, "directory:sync")
        assert [r["actor"] for r in runs] == ["admin (token tests)"]
        assert (
            "checked 3 LDAP users, 1 in the directory, disabled 2 (bob, carol)"
            in (runs[0]["detail"])
        )

        # twice is once: nothing more disabled or recorded for the users
        again = sync(client)
        assert (again["checked"], again["disabled"]) == (1, [])
        assert len(audit(client, "user:disable")) == 2
        # a disabled user stays disabled at login (an admin may enable them again)
        relog = browser(client).post(
            "/api/v1/auth/login", json={"username": "carol", "password": PW}
        )
        assert relog.status_code == 401


def test_a_dead_directory_changes_nothing(settings: Settings, tmp_path: Path) -> None:
    server = start_slapd(tmp_path / "slapd")
    try:
        Directory(server).person("dora", PW)
        with serve(ldap_settings(settings, server)) as client:
            web = log_in(client, "dora")
            server.stop()  # by its PID
            down = client.post("/api/v1/directory/sync")
            assert down.status_code == 503, down.text
            assert "nothing changed" in audit(client, "directory:sync")[0]["detail"]
            assert web.get("/api/v1/auth/me").status_code == 200
            assert user_row(client, "dora").is_active is True
            assert audit(client, "user:disable") == []
    finally:
        server.stop()


@pytest.mark.parametrize(
    "overrides",
    [
        {"ldap_user_base": f"ou=nobody-here,{PEOPLE}"},  # a base that does not exist
        {"ldap_user_filter": "(&(objectClass=groupOfNames)(cn={username}))"},  # finds no person
    ],
    ids=["wrong-base", "wrong-filter"],
)
def test_a_directory_finding_nobody_is_refused_not_obeyed(
    settings: Settings,
    slapd_server: SlapdServer,
    directory: Directory,
    overrides: dict[str, str],
) -> None:
    directory.person("emil", PW)
    directory.person("fay", PW)
    with serve(ldap_settings(settings, slapd_server)) as client:
        webs = [log_in(client, "emil"), log_in(client, "fay")]
    # the same database, now with a setting that makes the directory look empty
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        report = sync(client)
        assert report["disabled"] == []
        assert report["checked"] == 2
        assert "found none of the 2 active LDAP users" in report["refused"]
        runs = audit(client, "directory:sync")
        assert runs[0]["detail"].startswith("refused: the directory found none")
        assert audit(client, "user:disable") == []
        for web in webs:
            assert web.get("/api/v1/auth/me").status_code == 200


def test_sync_moves_dn_accounts_over_and_a_taken_username_is_not_taken_over(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    gus = directory.person("gus", PW, description="gus")
    hal = directory.person("hal", PW, description="hal")
    configured = ldap_settings(settings, slapd_server, ldap_username_attribute="description")
    with serve(configured) as client:
        gus_id = log_in(client, "gus").get("/api/v1/auth/me").json()["id"]
        log_in(client, "hal")
        set_external_id(client, gus_id, gus)  # an account of before the stable ids
        # hal's entry now names him "gus-local", a username a local user holds
        local = client.post(
            "/api/v1/users", json={"username": "gus-local", "password": "local-password-1"}
        )
        assert local.status_code == 201, local.text
        directory.replace(hal, "description", "gus-local")
        report = sync(client)
        assert report["disabled"] == []
        assert report["present"] == 2
        assert report["failed"] == [
            "hal: username: 'gus-local' is already a local user; a directory login never takes"
            " over another account (an admin may rename or remove that user)"
        ]
        assert user_row(client, "gus").external_id == f"entryuuid:{directory.entry_uuid(gus)}"
        assert user_row(client, "hal").is_active is True
        assert user_row(client, "gus-local").auth_source == "local"


def test_the_cli_runs_the_sync(
    settings: Settings,
    slapd_server: SlapdServer,
    directory: Directory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    ivy = directory.person("ivy", PW)
    directory.person("jon", PW)
    configured = ldap_settings(settings, slapd_server)
    with serve(configured) as client:
        log_in(client, "ivy")
        log_in(client, "jon")
    directory.remove(ivy)
    assert admin.directory_sync(configured, argparse.Namespace()) == 0
    out = capsys.readouterr().out
    assert "checked 2 LDAP users, 1 in the directory, disabled 1 (ivy)" in out
    with serve(configured) as client:
        assert user_row(client, "ivy").is_active is False
        runs = audit(client, "directory:sync")
        assert [r["actor"] for r in runs] == ["system"]
    # without LDAP: an error, exit status 1
    assert admin.directory_sync(settings, argparse.Namespace()) == 1
    assert "not configured" in capsys.readouterr().err


def test_the_server_loop_syncs_on_its_own(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    kim = directory.person("kim", PW)
    directory.person("lou", PW)
    configured = ldap_settings(settings, slapd_server, ldap_sync_minutes=1)
    with serve(configured) as client:
        web = log_in(client, "kim")
        log_in(client, "lou")
        directory.remove(kim)
        loop = DirectorySync(client.app.state.runtime)  # type: ignore[attr-defined]
        assert loop.enabled
        loop.FIRST_DELAY_SECONDS = 0.1
        loop.start()
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not audit(client, "directory:sync"):
                time.sleep(0.2)
        finally:
            loop.stop()
        assert "disabled 1 (kim)" in audit(client, "directory:sync")[0]["detail"]
        assert web.get("/api/v1/auth/me").status_code == 401
    with serve(ldap_settings(settings, slapd_server, ldap_sync_minutes=0)) as client:
        assert DirectorySync(client.app.state.runtime).enabled is False  # type: ignore[attr-defined]
    with serve(settings) as client:  # no LDAP: no loop either
        assert DirectorySync(client.app.state.runtime).enabled is False  # type: ignore[attr-defined]


def test_the_last_active_admin_is_kept_though_gone(
    ldap_client: TestClient, directory: Directory
) -> None:
    carol = directory.person("carol", PW)
    directory.group("steward-admins", carol)
    directory.person("dan", PW)
    web = log_in(ldap_client, "carol")
    log_in(ldap_client, "dan")
    assert web.get("/api/v1/auth/me").json()["is_admin"] is True
    # carol makes the bootstrap admin an ordinary user: she is the only admin left
    admin_id = user_row(ldap_client, "admin").id
    demoted = web.patch(f"/api/v1/users/{admin_id}", json={"is_admin": False})
    assert demoted.status_code == 200, demoted.text
    directory.remove(carol)
    report = web.post("/api/v1/directory/sync")
    assert report.status_code == 200, report.text
    assert (report.json()["disabled"], report.json()["kept"]) == ([], ["carol"])
    assert user_row(ldap_client, "carol").is_active is True
    assert web.get("/api/v1/auth/me").status_code == 200  # her session stays
    kept = [r for r in audit(web, "user:update") if r["object_name"] == "carol"]
    assert kept[0]["detail"] == (
        "directory sync: no longer in the directory, but kept active: the last active admin"
    )
