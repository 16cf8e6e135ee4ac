"""Hostile cases of LDAP login and of the directory groups of teams, against a real slapd.

Each injection or bypass case comes with its control: the same input reaching the directory
raw (unescaped filter, unauthenticated bind) would have found or bound someone, so a refusal
here is Steward's doing, not the directory's luck."""

from __future__ import annotations

import logging
import re
import subprocess
from typing import Any

import pytest
from fastapi.testclient import TestClient
from ldap3 import SUBTREE, Connection, Server
from pydantic import SecretStr
from support.builders import assert_problem, bearer, browser, make_user, token
from support.slapd import (
    PEOPLE,
    SERVICE_DN,
    SERVICE_PASSWORD,
    Directory,
    SlapdServer,
    ldap_settings,
    serve,
)

from steward.bounds import DIRECTORY_GROUP_MAX, DIRECTORY_GROUPS_MAX, PASSPHRASE_MAX
from steward.config import Settings
from steward.directory import ldap

pytestmark = pytest.mark.security

PASSWORD = "alice-directory-pw"
INJECTIONS = [
    "*",
    "*)(uid=*",
    "admin)(|(uid=*",
    "alice)(|(uid=*",
    "al*",
    "*)(|(objectClass=*",
    "alice)(objectClass=*",
    "(uid=alice)",
    "\\2a",
    "alice\\",
]


# formatted raw into the default filter, these find alice
RAW_FINDS_ALICE = (
    "*",
    "*)(uid=*",
    "al*",
    "alice)(objectClass=*",
)


def log_in(client: TestClient, username: str, password: str) -> Any:
    return browser(client).post(
        "/api/v1/auth/login", json={"username": username, "password": password}
    )


def users(client: TestClient) -> list[str]:
    return [u["username"] for u in client.get("/api/v1/users").json()["items"]]


def raw_search(server: SlapdServer, search_filter: str) -> list[str]:
    """What the directory finds for a filter, as Steward's service account."""
    conn = Connection(Server(server.url), SERVICE_DN, SERVICE_PASSWORD, auto_bind=True)
    try:
        conn.search(PEOPLE, search_filter, SUBTREE, attributes=[])
        return [
            str(entry["dn"]) for entry in conn.response or [] if entry["type"] == "searchResEntry"
        ]
    finally:
        conn.unbind()


@pytest.mark.parametrize("username", INJECTIONS)
def test_filter_injection_in_the_username_is_refused(
    ldap_client: TestClient, directory: Directory, slapd_server: SlapdServer, username: str
) -> None:
    alice = directory.person("alice", PASSWORD)
    refused = log_in(ldap_client, username, PASSWORD)
    assert refused.status_code == 401, refused.text
    assert users(ldap_client) == ["admin"]  # nobody provisioned
    config = ldap.LdapConfig.from_settings(ldap_client.app.state.runtime.settings)  # type: ignore[attr-defined]
    assert config is not None
    assert raw_search(slapd_server, ldap.user_filter(config, username)) == []
    if username in RAW_FINDS_ALICE:
        # control: formatted raw into the filter, the same text finds alice, whose password
        # then binds: a login as her without knowing her username
        raw = config.user_filter.replace("{username}", username)
        assert raw_search(slapd_server, raw) == [alice]


def test_the_username_is_escaped_as_an_rfc4515_value() -> None:
    config = ldap.LdapConfig.from_settings(
        Settings(ldap_url=["ldap://127.0.0.1:1"], ldap_user_base="ou=people,dc=x")
    )
    assert config is not None
    assert ldap.user_filter(config, "*)(uid=*") == (
        "(&(objectClass=inetOrgPerson)(uid=\\2a\\29\\28uid=\\2a))"
    )
    assert ldap.user_filter(config, "a\\b\x00") == "(&(objectClass=inetOrgPerson)(uid=a\\5cb\\00))"


def test_special_characters_round_trip_to_the_directory(
    ldap_client: TestClient, directory: Directory, slapd_server: SlapdServer
) -> None:
    odd = directory.person("o*brien(x)", PASSWORD)
    config = ldap.LdapConfig.from_settings(ldap_client.app.state.runtime.settings)  # type: ignore[attr-defined]
    assert config is not None
    assert raw_search(slapd_server, ldap.user_filter(config, "o*brien(x)")) == [odd]
    assert raw_search(slapd_server, ldap.user_filter(config, "o*")) == []
    assert raw_search(slapd_server, config.user_filter.replace("{username}", "o*")) == [odd]


def test_an_empty_password_never_logs_in_though_the_server_would_bind(
    ldap_client: TestClient, directory: Directory, slapd_server: SlapdServer
) -> None:
    dn = directory.person("alice", PASSWORD)
    # control: this slapd accepts a DN with an empty password (an unauthenticated bind)
    whoami = subprocess.run(
        ["ldapwhoami", "-x", "-H", slapd_server.url, "-D", dn, "-w", ""],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (whoami.returncode, whoami.stdout.strip()) == (0, "anonymous")

    assert_problem(log_in(ldap_client, "alice", ""), 422, "password")
    config = ldap.LdapConfig.from_settings(ldap_client.app.state.runtime.settings)  # type: ignore[attr-defined]
    assert config is not None
    assert ldap.authenticate(config, "alice", "") is None
    assert ldap.password_binds(config, dn, "") is False
    assert log_in(ldap_client, "alice", " ").status_code == 401  # a blank is a password
    assert users(ldap_client) == ["admin"]


@pytest.mark.parametrize("username", ["alice\x00", "alice\n", "\x00", "al\x7fice"])
def test_control_characters_in_the_username_are_422(
    ldap_client: TestClient, directory: Directory, username: str
) -> None:
    directory.person("alice", PASSWORD)
    assert_problem(log_in(ldap_client, username, PASSWORD), 422, "username")
    assert users(ldap_client) == ["admin"]


def test_oversized_login_fields_are_422(ldap_client: TestClient) -> None:
    assert_problem(log_in(ldap_client, "a" * 65, PASSWORD), 422, "username")
    assert_problem(log_in(ldap_client, "alice", "p" * (PASSPHRASE_MAX + 1)), 422, "password")


def test_a_search_matching_two_entries_is_refused(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    directory.person("twin1", PASSWORD, cn="Twin")
    directory.person("twin2", PASSWORD, cn="Twin")
    with serve(ldap_settings(settings, slapd_server, ldap_user_filter="(cn={username})")) as c:
        assert log_in(c, "Twin", PASSWORD).status_code == 401
        assert users(c) == ["admin"]


def test_a_directory_username_steward_cannot_hold_is_refused(
    settings: Settings, slapd_server: SlapdServer, directory: Directory
) -> None:
    directory.person("kim", PASSWORD, description="../kim smith")
    overrides = {"ldap_username_attribute": "description"}
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        refused = log_in(client, "kim", PASSWORD)
        assert_problem(refused, 422, "username")
        assert users(client) == ["admin"]


def test_the_username_is_the_directorys_whatever_the_case_typed(
    ldap_client: TestClient, directory: Directory
) -> None:
    directory.person("alice", PASSWORD)
    first = log_in(ldap_client, "ALICE", PASSWORD)
    assert first.status_code == 200, first.text
    again = log_in(ldap_client, "alice", PASSWORD)
    assert first.json()["user"]["id"] == again.json()["user"]["id"]
    assert first.json()["user"]["username"] == "alice"


def test_the_bind_password_is_never_returned_or_logged(
    settings: Settings,
    slapd_server: SlapdServer,
    directory: Directory,
    caplog: pytest.LogCaptureFixture,
) -> None:
    directory.person("alice", PASSWORD)
    caplog.set_level(logging.DEBUG)
    wrong_secret = "wrong-service-secret-x9"
    overrides = {"ldap_bind_password": SecretStr(wrong_secret)}
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        down = log_in(client, "alice", PASSWORD)
        assert down.status_code == 503, down.text  # Steward's own bind refused: not her fault
        assert "ldap_bind_dn" in down.json()["detail"]
        for secret in (wrong_secret, PASSWORD):
            assert secret not in down.text
    with serve(ldap_settings(settings, slapd_server)) as client:
        assert log_in(client, "alice", PASSWORD).status_code == 200
        assert log_in(client, "alice", "wrong-user-password").status_code == 401
    logged = caplog.text + repr(ldap_settings(settings, slapd_server))
    for secret in (wrong_secret, SERVICE_PASSWORD, PASSWORD, "wrong-user-password"):
        assert secret not in logged
    assert caplog.records  # the capture saw the logins' logging


@pytest.mark.parametrize(
    "overrides",
    [
        {"ldap_user_filter": "(&(uid={username})"},
        {"ldap_group_filter": "member={user_dn}))("},
    ],
)
def test_a_broken_filter_setting_is_a_503_naming_it(
    settings: Settings,
    slapd_server: SlapdServer,
    directory: Directory,
    overrides: dict[str, Any],
) -> None:
    directory.person("alice", PASSWORD)
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        refused = log_in(client, "alice", PASSWORD)
        assert refused.status_code == 503, refused.text
        assert "is not a valid LDAP filter" in refused.json()["detail"]
        assert users(client) == ["admin"]


def test_the_bind_password_file(
    settings: Settings, slapd_server: SlapdServer, directory: Directory, tmp_path: Any
) -> None:
    directory.person("alice", PASSWORD)
    secret_file = tmp_path / "bind-password"
    secret_file.write_text(SERVICE_PASSWORD + "\n")
    overrides = {"ldap_bind_password": None, "ldap_bind_password_file": secret_file}
    with serve(ldap_settings(settings, slapd_server, **overrides)) as client:
        assert log_in(client, "alice", PASSWORD).status_code == 200
        secret_file.unlink()
        missing = log_in(client, "alice", PASSWORD)
        assert missing.status_code == 503, missing.text
        assert "ldap_bind_password_file" in missing.json()["detail"]


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"ldap_url": "http://127.0.0.1:389"}, "is not an ldap://"),
        ({"ldap_url": "ldap://127.0.0.1:389/dc=x?uid"}, "is not an ldap://"),
        ({"ldap_user_base": ""}, "ldap_user_base"),
        ({"ldap_user_filter": "(uid=%s)"}, "{username}"),
        ({"ldap_group_filter": "(member=x)"}, "{user_dn}"),
        ({"ldap_url": "ldaps://127.0.0.1:636", "ldap_start_tls": True}, "StartTLS"),
        ({"ldap_bind_password_file": "/tmp/x"}, "not both"),
        ({"ldap_timeout_seconds": 0}, "greater than 0"),
    ],
)
def test_bad_ldap_settings_are_refused_at_start(overrides: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {
        "ldap_url": "ldap://127.0.0.1:389",
        "ldap_user_base": "ou=people,dc=x",
        "ldap_group_base": "ou=groups,dc=x",
        "ldap_bind_password": "x",
        **overrides,
    }
    with pytest.raises(ValueError, match=re.escape(message)):
        Settings(**values)


# --- teams.directory_groups ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("groups", "field"),
    [
        ([f"cn=g{i},dc=x" for i in range(DIRECTORY_GROUPS_MAX + 1)], "directory_groups"),
        (["c" * (DIRECTORY_GROUP_MAX + 1)], "directory_groups.0"),
        (["cn=ok,dc=x", "cn=a\n,dc=x"], "directory_groups.1"),
        (["cn=a\x00,dc=x"], "directory_groups.0"),
        (["   "], "directory_groups.0"),
        ([""], "directory_groups.0"),
        ([1], "directory_groups.0"),
        ([None], "directory_groups.0"),
        ("cn=ops,dc=x", "directory_groups"),
        ({"cn": "ops"}, "directory_groups"),
    ],
)
def test_hostile_directory_groups_are_422_naming_the_field(
    client: TestClient, groups: Any, field: str
) -> None:
    created = client.post("/api/v1/teams", json={"name": "ops", "directory_groups": groups})
    assert_problem(created, 422, field)
    team = client.post("/api/v1/teams", json={"name": "ops"})
    assert team.status_code == 201, team.text
    patched = client.patch(f"/api/v1/teams/{team.json()['id']}", json={"directory_groups": groups})
    assert_problem(patched, 422, field)
    assert client.get(f"/api/v1/teams/{team.json()['id']}").json()["directory_groups"] == []


def test_directory_groups_are_trimmed_deduplicated_and_bounded(client: TestClient) -> None:
    most = [
        f"cn=g{i:02},ou=" + "x" * (DIRECTORY_GROUP_MAX - 10) for i in range(DIRECTORY_GROUPS_MAX)
    ]
    assert {len(group) for group in most} == {DIRECTORY_GROUP_MAX}
    created = client.post(
        "/api/v1/teams",
        json={"name": "ops", "directory_groups": [" cn=ops,dc=x ", "cn=ops,dc=x", *most[:3]]},
    )
    assert created.status_code == 201, created.text
    assert created.json()["directory_groups"] == ["cn=ops,dc=x", *most[:3]]
    full = client.patch(f"/api/v1/teams/{created.json()['id']}", json={"directory_groups": most})
    assert full.status_code == 200, full.text
    assert len(full.json()["directory_groups"]) == DIRECTORY_GROUPS_MAX
    cleared = client.patch(f"/api/v1/teams/{created.json()['id']}", json={"directory_groups": None})
    assert_problem(cleared, 422, "directory_groups")
    record = client.get("/api/v1/audit", params={"action": "team:update"}).json()["items"][0]
    assert "directory_groups" in record["changes"]


def test_only_admins_map_directory_groups(client: TestClient) -> None:
    make_user(client, "olivia")
    project = client.post("/api/v1/projects", json={"name": "fleet"}).json()
    olivia = client.get("/api/v1/users", params={"q": "olivia"}).json()["items"][0]
    client.put(
        f"/api/v1/projects/{project['id']}/members", json={"user_id": olivia["id"], "role": "owner"}
    )
    owner = bearer(token(client, "olivia"))
    team = client.post("/api/v1/teams", json={"name": "ops"}).json()
    body = {"directory_groups": ["cn=steward-admins,ou=groups,dc=example,dc=test"]}
    assert client.patch(f"/api/v1/teams/{team['id']}", json=body, headers=owner).status_code == 403
    made = client.post("/api/v1/teams", json={"name": "mine", **body}, headers=owner)
    assert made.status_code == 403
    assert client.get(f"/api/v1/teams/{team['id']}").json()["directory_groups"] == []


def test_synced_cannot_be_set_by_hand(client: TestClient) -> None:
    user = make_user(client, "bob")
    team = client.post("/api/v1/teams", json={"name": "ops"}).json()
    added = client.post(
        f"/api/v1/teams/{team['id']}/members", json={"user_id": user["id"], "synced": True}
    )
    assert_problem(added, 422, "synced")
