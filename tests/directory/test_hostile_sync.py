"""Hostile cases of the directory sync (POST /directory/sync) against a real slapd: only admins
with a write credential run it; a stored id reaches the directory as an escaped value, never as
filter syntax; only LDAP accounts are ever touched; the bind password never shows."""

from __future__ import annotations

import logging

import pytest
from fastapi.testclient import TestClient
from ldap3 import SUBTREE, Connection, Server
from pydantic import SecretStr
from sqlalchemy import select, update
from support.builders import assert_problem, bearer, browser, login, make_user, token
from support.slapd import (
    PEOPLE,
    SERVICE_DN,
    SERVICE_PASSWORD,
    Directory,
    SlapdServer,
    ldap_settings,
    serve,
)

from steward.auth.models import User
from steward.config import Settings

pytestmark = pytest.mark.security

SYNC = "/api/v1/directory/sync"
PW = "directory-pw-hostile"


def _log_in(client: TestClient, username: str) -> TestClient:
    web = browser(client)
    answer = web.post("/api/v1/auth/login", json={"username": username, "password": PW})
    assert answer.status_code == 200, answer.text
    return web


def _user(client: TestClient, username: str) -> User:
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        user: User | None = session.scalar(select(User).where(User.username == username))
        assert user is not None
        session.expunge(user)
        return user


def test_only_admins_with_a_write_credential_run_the_sync(
    ldap_client: TestClient, directory: Directory
) -> None:
    make_user(ldap_client, "mallory")
    make_user(ldap_client, "reader-admin", is_admin=True)
    assert browser(ldap_client).post(SYNC).status_code == 401  # nobody
    user_token = token(ldap_client, "mallory")
    denied = browser(ldap_client).post(SYNC, headers=bearer(user_token))
    assert_problem(denied, 403, "admin")
    web, csrf = login(ldap_client, "mallory")
    assert web.post(SYNC, headers={"X-CSRF-Token": csrf}).status_code == 403
    read_token = token(ldap_client, "reader-admin", scope="read")
    assert browser(ldap_client).post(SYNC, headers=bearer(read_token)).status_code == 403
    admin_web, admin_csrf = login(ldap_client, "reader-admin")
    assert admin_web.post(SYNC).status_code == 403  # no CSRF header: refused
    assert admin_web.get(SYNC).status_code == 405
    # control: the same admin with the header runs it
    assert admin_web.post(SYNC, headers={"X-CSRF-Token": admin_csrf}).status_code == 200
    # nobody ran it before the control: no record of the refused attempts
    runs = ldap_client.get("/api/v1/audit", params={"action": "directory:sync"}).json()
    assert [r["actor"] for r in runs["items"]] == ["reader-admin"]


def test_without_ldap_the_sync_is_a_409_problem(client: TestClient) -> None:
    refused = client.post(SYNC)
    assert_problem(refused, 409, "LDAP")


def test_a_stored_id_is_an_escaped_value_never_a_wildcard(
    ldap_client: TestClient, directory: Directory, slapd_server: SlapdServer
) -> None:
    directory.person("nina", PW)
    directory.person("otto", PW)
    _log_in(ldap_client, "nina")
    _log_in(ldap_client, "otto")
    forged = "entryuuid:*"
    with ldap_client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        session.execute(update(User).where(User.username == "nina").values(external_id=forged))
        session.commit()
    # control: as filter syntax, the same value finds every person
    conn = Connection(Server(slapd_server.url), SERVICE_DN, SERVICE_PASSWORD, auto_bind=True)
    conn.search(PEOPLE, "(entryUUID=*)", search_scope=SUBTREE)
    assert len(conn.entries) >= 2
    conn.unbind()
    report = ldap_client.post(SYNC)
    assert report.status_code == 200, report.text
    # escaped: no entry has the id "*" literally, so nina's forged id names nobody
    assert report.json()["disabled"] == ["nina"]
    assert _user(ldap_client, "otto").is_active is True


def test_a_stored_id_that_is_not_a_dn_is_left_alone(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("pia", PW)
    directory.person("quin", PW)
    _log_in(ldap_client, "pia")
    _log_in(ldap_client, "quin")
    with ldap_client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        hostile = "uid=pia)(uid=*,=,,"
        session.execute(update(User).where(User.username == "pia").values(external_id=hostile))
        session.commit()
    report = ldap_client.post(SYNC)
    assert report.status_code == 200, report.text
    assert report.json()["disabled"] == []
    assert report.json()["failed"] == ["pia: no valid directory id stored, not looked up"]
    assert _user(ldap_client, "pia").is_active is True


def test_the_sync_touches_ldap_accounts_only(ldap_client: TestClient, directory: Directory) -> None:
    directory.person("rita", PW)
    _log_in(ldap_client, "rita")
    make_user(ldap_client, "sam")  # a local user the directory has never heard of
    report = ldap_client.post(SYNC).json()
    assert report["checked"] == 1
    assert _user(ldap_client, "sam").is_active is True
    assert _user(ldap_client, "admin").is_active is True


def test_a_wrong_bind_password_is_a_503_that_never_shows_it(
    settings: Settings,
    slapd_server: SlapdServer,
    directory: Directory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    directory.person("tom", PW)
    directory.person("uma", PW)
    with serve(ldap_settings(settings, slapd_server)) as client:
        _log_in(client, "tom")
        _log_in(client, "uma")
    wrong = "wrong-bind-password-that-must-not-leak"
    overrides = {"ldap_bind_password": SecretStr(wrong)}
    with (
        caplog.at_level(logging.DEBUG),
        serve(ldap_settings(settings, slapd_server, **overrides)) as client,
    ):
        down = client.post(SYNC)
        assert down.status_code == 503, down.text
        assert "ldap_bind_dn" in down.json()["detail"]
        records = client.get("/api/v1/audit", params={"action": "directory:sync"}).json()
        assert "nothing changed" in records["items"][0]["detail"]
        assert _user(client, "tom").is_active is True
        for shown in (down.text, str(records), caplog.text):
            assert wrong not in shown
            assert SERVICE_PASSWORD not in shown
