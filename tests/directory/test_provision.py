"""``directory.provision``: directory users created and updated at login, their teams and admin
flag following their groups; on SQLite and PostgreSQL (the real app's database)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from support.builders import PASSWORD, make_user

from steward.audit.models import AuditRecord
from steward.auth.models import NO_LOCAL_PASSWORD, AuthSource, User
from steward.directory.oidc import Person
from steward.directory.provision import AccountDisabled, group_key, provision
from steward.errors import Conflict, InvalidInput
from steward.teams.models import TeamMember

# PostgreSQL too: first logins racing on unique usernames (IntegrityError)
pytestmark = pytest.mark.both_databases

OPS = "cn=ops,ou=groups,dc=example,dc=test"
DEV = "cn=dev,ou=groups,dc=example,dc=test"
ALICE_DN = "uid=alice,ou=people,dc=example,dc=test"


@pytest.fixture
def session(client: TestClient) -> Iterator[Session]:
    with client.app.state.runtime.sessions() as s:  # type: ignore[attr-defined]
        yield s


def team(client: TestClient, name: str, groups: list[str]) -> int:
    created = client.post("/api/v1/teams", json={"name": name, "directory_groups": groups})
    assert created.status_code == 201, created.text
    assert created.json()["directory_groups"] == groups
    return int(created.json()["id"])


def alice(session: Session, groups: list[str], **fields: Any) -> User:
    values: dict[str, Any] = {
        "source": "ldap",
        "external_id": ALICE_DN,
        "username": "alice",
        "email": "alice@example.test",
        "display_name": "Alice Liddell",
        "groups": groups,
        "admin": None,
        **fields,
    }
    source, admin = values.pop("source"), values.pop("admin")
    origin = {k: values.pop(k) for k in ("source_ip", "user_agent", "via") if k in values}
    return provision(session, source, Person(**values), admin, **origin)


def memberships(session: Session, user_id: int) -> dict[int, bool]:
    session.expire_all()
    rows = session.scalars(select(TeamMember).where(TeamMember.user_id == user_id))
    return {m.team_id: m.synced for m in rows}


def test_first_login_creates_a_user_without_a_local_password(
    client: TestClient, session: Session
) -> None:
    user = alice(session, [])
    assert (user.username, user.auth_source, user.external_id) == ("alice", "ldap", ALICE_DN)
    assert user.password_hash == NO_LOCAL_PASSWORD
    assert (user.email, user.display_name, user.is_admin, user.is_active) == (
        "alice@example.test",
        "Alice Liddell",
        False,
        True,
    )
    listed = client.get("/api/v1/users", params={"q": "alice"}).json()["items"]
    assert [(u["username"], u["auth_source"]) for u in listed] == [("alice", "ldap")]
    records = client.get("/api/v1/audit", params={"action": "user:create"}).json()["items"]
    assert records[0]["object_name"] == "alice"
    assert records[0]["actor"] == "system"
    assert records[0]["detail"] == "ldap login"
    assert records[0]["changes"]["auth_source"] == [None, "ldap"]
    # the marker is no hash: no password logs in locally, not even the marker itself
    for password in (NO_LOCAL_PASSWORD, "steward-dummy-password", PASSWORD):
        refused = client.post(
            "/api/v1/auth/login", json={"username": "alice", "password": password}
        )
        assert refused.status_code == 401, refused.text


def test_a_second_login_updates_the_same_user_and_follows_a_rename(
    client: TestClient, session: Session
) -> None:
    first = alice(session, [])
    again = alice(session, [], username="alice.l", email="al@example.test", display_name="Al")
    assert again.id == first.id
    assert (again.username, again.email, again.display_name) == ("alice.l", "al@example.test", "Al")
    assert session.scalar(select(User.id).where(User.username == "alice")) is None
    update = client.get("/api/v1/audit", params={"action": "user:update"}).json()["items"][0]
    assert update["changes"]["username"] == ["alice", "alice.l"]
    assert update["changes"]["email"] == ["alice@example.test", "al@example.test"]
    # nothing changed: no record
    alice(session, [], username="alice.l", email="al@example.test", display_name="Al")
    assert len(client.get("/api/v1/audit", params={"action": "user:update"}).json()["items"]) == 1


def test_groups_put_the_user_in_exactly_the_matching_teams(
    client: TestClient, session: Session
) -> None:
    ops, dev = team(client, "ops", [OPS]), team(client, "dev", [DEV, "cn=other,dc=x"])
    bystanders = team(client, "bystanders", ["cn=nobody,dc=example,dc=test"])
    # DNs compare without case and without blanks around ',' and '='
    user = alice(session, ["CN=Ops, OU=Groups,DC=example,DC=test", DEV])
    assert memberships(session, user.id) == {ops: True, dev: True}
    members = client.get(f"/api/v1/teams/{ops}/members").json()
    assert [(m["username"], m["synced"]) for m in members] == [("alice", True)]
    added = client.get("/api/v1/audit", params={"action": "team:member_add"}).json()["items"]
    assert {(r["object_name"], r["detail"]) for r in added} == {
        ("ops", "alice joined (directory groups, ldap login)"),
        ("dev", "alice joined (directory groups, ldap login)"),
    }
    assert bystanders not in memberships(session, user.id)


def test_leaving_a_group_removes_only_the_synced_membership(
    client: TestClient, session: Session
) -> None:
    ops, dev = team(client, "ops", [OPS]), team(client, "dev", [DEV])
    manual = team(client, "manual", [OPS])  # matches, but given by hand first
    user = alice(session, [])
    added = client.post(f"/api/v1/teams/{manual}/members", json={"user_id": user.id})
    assert added.status_code == 201, added.text
    alice(session, [OPS, DEV])
    assert memberships(session, user.id) == {ops: True, dev: True, manual: False}

    alice(session, [DEV])  # left ops
    assert memberships(session, user.id) == {dev: True, manual: False}
    removed = client.get("/api/v1/audit", params={"action": "team:member_remove"}).json()
    assert [(r["object_name"], r["detail"]) for r in removed["items"]] == [
        ("ops", "alice left (directory groups, ldap login)")
    ]
    alice(session, [])  # in no group: the hand-given membership still stays
    assert memberships(session, user.id) == {manual: False}


def test_a_team_losing_its_group_mapping_loses_the_synced_members_at_their_next_login(
    client: TestClient, session: Session
) -> None:
    ops = team(client, "ops", [OPS])
    user = alice(session, [OPS])
    assert memberships(session, user.id) == {ops: True}
    patched = client.patch(f"/api/v1/teams/{ops}", json={"directory_groups": []})
    assert patched.status_code == 200, patched.text
    alice(session, [OPS])
    assert memberships(session, user.id) == {}


def test_admin_groups_set_and_clear_is_admin_and_none_leaves_it(
    client: TestClient, session: Session
) -> None:
    assert alice(session, [], admin=True).is_admin is True
    assert alice(session, [], admin=None).is_admin is True  # not configured: untouched
    assert alice(session, [], admin=False).is_admin is False
    changes = [
        r["changes"].get("is_admin")
        for r in client.get("/api/v1/audit", params={"action": "user:update"}).json()["items"]
    ]
    assert changes == [[True, False]]


def test_the_last_active_admin_is_not_demoted_by_a_sync(session: Session) -> None:
    user = alice(session, [], admin=True)
    local_admin = session.scalar(select(User).where(User.username == "admin"))
    assert local_admin is not None
    local_admin.is_admin = False
    session.commit()
    assert alice(session, [], admin=False).is_admin is True
    session.expire_all()
    assert session.get(User, user.id).is_admin is True  # type: ignore[union-attr]
    details = session.scalars(
        select(AuditRecord.detail).where(AuditRecord.object_name == "alice")
    ).all()
    assert "ldap login; not in an admin group any more, but kept admin: the last active admin" in (
        details
    )


def test_a_local_username_is_never_taken_over(client: TestClient, session: Session) -> None:
    local = make_user(client, "bob")
    with pytest.raises(Conflict, match="'bob' is already a local user"):
        alice(session, [OPS], username="bob")
    session.rollback()
    bob = session.get(User, local["id"])
    assert bob is not None
    assert (bob.auth_source, bob.external_id) == (AuthSource.LOCAL, None)
    assert session.scalar(select(User).where(User.external_id == ALICE_DN)) is None
    # nor another directory's user
    carol = Person(
        external_id="https://idp.example.test|123",
        username="carol",
        email="",
        display_name="",
        groups=[],
    )
    provision(session, "oidc", carol, None)
    with pytest.raises(Conflict, match="'carol' is already a user of oidc"):
        alice(session, [], username="carol")


def test_a_disabled_user_is_refused(client: TestClient, session: Session) -> None:
    ops = team(client, "ops", [OPS])
    user = alice(session, [])
    disabled = client.patch(f"/api/v1/users/{user.id}", json={"is_active": False})
    assert disabled.status_code == 200, disabled.text
    session.expire_all()
    with pytest.raises(AccountDisabled, match="disabled"):
        alice(session, [OPS])
    session.rollback()
    assert memberships(session, user.id) == {}
    assert ops


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"username": ""}, "username"),
        ({"username": "a" * 65}, "username"),
        ({"username": "alice smith"}, "username"),
        ({"username": "al\nice"}, "username"),
        ({"external_id": ""}, "external_id"),
        ({"external_id": "x" * 513}, "external_id"),
    ],
)
def test_what_steward_cannot_hold_is_refused_naming_the_field(
    session: Session, fields: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        alice(session, [], **fields)
    assert refused.value.field == field
    assert session.scalar(select(User.id).where(User.auth_source == "ldap")) is None


def test_long_directory_values_are_cut_to_their_columns(session: Session) -> None:
    user = alice(session, ["x" * 5000], email="e" * 1000, display_name="d" * 1000)
    assert (len(user.email), len(user.display_name)) == (320, 200)


def test_local_source_is_not_provisioned(session: Session) -> None:
    with pytest.raises(ValueError, match="directory users"):
        alice(session, [], source="local")


def test_group_keys() -> None:
    assert group_key("ldap", " CN=Ops , OU=Groups,DC=Example,DC=test ") == group_key("ldap", OPS)
    assert group_key("ldap", "not a dn") == "not a dn"
    assert group_key("oidc", " Ops ") == "Ops"
    assert group_key("oidc", "Ops") != group_key("oidc", "ops")


def test_audit_records_of_a_sync_name_the_source(client: TestClient, session: Session) -> None:
    team(client, "ops", [OPS])
    user = alice(session, [OPS], source_ip="192.0.2.7")
    rows = session.scalars(select(AuditRecord).where(AuditRecord.source_ip == "192.0.2.7")).all()
    assert {(r.action, r.object_name) for r in rows} == {
        ("user:create", "alice"),
        ("team:member_add", "ops"),
    }
    assert user.id
