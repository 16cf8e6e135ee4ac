from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from support.builders import assert_problem, make_key, make_project, make_repository, ssh_keygen


def keys_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/keys"


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


SECRET_BODIES: list[tuple[dict[str, Any], str]] = [
    (
        {"kind": "login_password", "username": "deploy", "password": "pw-login-1234"},
        "pw-login-1234",
    ),
    ({"kind": "vault_password", "vault_id": "prod", "password": "pw-vault-5678"}, "pw-vault-5678"),
    ({"kind": "secret", "value": "api-token-9999"}, "api-token-9999"),
]


@pytest.mark.parametrize(("body", "secret"), SECRET_BODIES)
def test_secret_kinds_are_stored_but_never_returned(
    client: TestClient, project_id: int, body: dict[str, Any], secret: str
) -> None:
    created = client.post(keys_url(project_id), json={"name": "k", **body})
    assert created.status_code == 201, created.text
    read = client.get(f"{keys_url(project_id)}/{created.json()['id']}")
    listed = client.get(keys_url(project_id))
    for response in (created, read, listed):
        assert secret not in response.text
    assert read.json()["has_secret"] is True
    assert read.json()["kind"] == body["kind"]
    assert read.json()["fingerprint"] == ""


def test_ssh_key_read_shows_fingerprint_and_username_only(
    client: TestClient, project_id: int, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path)
    created = client.post(
        keys_url(project_id),
        json={"name": "deploy", "kind": "ssh", "username": "ansible", "private_key": private},
    )
    assert created.status_code == 201, created.text
    body = created.json()
    assert body["username"] == "ansible"
    assert body["has_secret"] is True
    assert body["fingerprint"] == ssh_fingerprint(tmp_path, public)
    for line in private.splitlines()[1:-1]:
        assert line not in created.text
        assert line not in client.get(keys_url(project_id)).text


def ssh_fingerprint(tmp_path: Path, public: str) -> str:
    pub = tmp_path / "check.pub"
    pub.write_text(public + "\n")
    out = subprocess.run(
        ["ssh-keygen", "-l", "-E", "sha256", "-f", str(pub)], check=True, capture_output=True
    )
    return out.stdout.decode().split()[1]


def test_passphrase_protected_ssh_key_is_accepted_with_its_passphrase(
    client: TestClient, project_id: int, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path, passphrase="correct horse")
    created = client.post(
        keys_url(project_id),
        json={"name": "k", "kind": "ssh", "private_key": private, "passphrase": "correct horse"},
    )
    assert created.status_code == 201, created.text
    assert "correct horse" not in created.text
    assert created.json()["fingerprint"] == ssh_fingerprint(tmp_path, public)


def test_pem_rsa_key_is_accepted(client: TestClient, project_id: int, tmp_path: Path) -> None:
    private, public = ssh_keygen(tmp_path, passphrase="pem-pass", fmt="PEM")
    assert private.startswith("-----BEGIN RSA PRIVATE KEY-----")
    created = client.post(
        keys_url(project_id),
        json={"name": "k", "kind": "ssh", "private_key": private, "passphrase": "pem-pass"},
    )
    assert created.status_code == 201, created.text
    assert created.json()["fingerprint"] == ssh_fingerprint(tmp_path, public)


@pytest.mark.parametrize(("fmt", "wrong"), [("", "wrong"), ("", ""), ("PEM", "wrong")])
def test_wrong_or_missing_passphrase_is_rejected(
    client: TestClient, project_id: int, tmp_path: Path, fmt: str, wrong: str
) -> None:
    private, _ = ssh_keygen(tmp_path, passphrase="correct horse", fmt=fmt)
    response = client.post(
        keys_url(project_id),
        json={"name": "k", "kind": "ssh", "private_key": private, "passphrase": wrong},
    )
    assert_problem(response, 422, "passphrase")


def test_passphrase_for_an_unencrypted_key_is_rejected(
    client: TestClient, project_id: int, tmp_path: Path
) -> None:
    private, _ = ssh_keygen(tmp_path)
    response = client.post(
        keys_url(project_id),
        json={"name": "k", "kind": "ssh", "private_key": private, "passphrase": "extra"},
    )
    assert_problem(response, 422, "passphrase")


def test_unparseable_private_key_is_rejected_without_echo(
    client: TestClient, project_id: int, tmp_path: Path
) -> None:
    private, _ = ssh_keygen(tmp_path)
    mangled = private.replace(private.splitlines()[2], "A" * 70)
    response = client.post(
        keys_url(project_id), json={"name": "k", "kind": "ssh", "private_key": mangled}
    )
    assert_problem(response, 422, "private_key")
    assert "A" * 20 not in response.text
    assert private.splitlines()[1] not in response.text


def test_fields_of_other_kinds_are_rejected(client: TestClient, project_id: int) -> None:
    response = client.post(
        keys_url(project_id), json={"name": "k", "kind": "secret", "value": "v", "password": "p"}
    )
    assert_problem(response, 422, "password")
    unknown_kind = client.post(keys_url(project_id), json={"name": "k", "kind": "gpg"})
    assert_problem(unknown_kind, 422, "kind")


@pytest.mark.both_databases
def test_duplicate_name_is_a_conflict(client: TestClient, project_id: int) -> None:
    make_key(client, project_id, name="same")
    response = client.post(
        keys_url(project_id), json={"name": "same", "kind": "secret", "value": "x"}
    )
    assert_problem(response, 409, "name")


def test_secret_is_encrypted_at_rest(client: TestClient, project_id: int) -> None:
    key = make_key(client, project_id, value="plain-text-canary-4711")
    engine = client.app.state.runtime.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        row = conn.execute(text("SELECT * FROM keys WHERE id = :id"), {"id": key["id"]}).one()
    raw = b"".join(v if isinstance(v, bytes) else str(v).encode() for v in row)
    assert b"plain-text-canary-4711" not in raw


def test_update_renames_and_replaces_the_secret(client: TestClient, project_id: int) -> None:
    key = make_key(client, project_id, kind="login_password", username="a", password="old-pw")
    url = f"{keys_url(project_id)}/{key['id']}"
    updated = client.patch(url, json={"name": "renamed", "username": "b", "password": "new-pw-77"})
    assert updated.status_code == 200, updated.text
    assert updated.json()["name"] == "renamed"
    assert updated.json()["username"] == "b"
    assert "new-pw-77" not in updated.text


def test_update_rejects_fields_of_another_kind_and_nulls(
    client: TestClient, project_id: int
) -> None:
    key = make_key(client, project_id)
    url = f"{keys_url(project_id)}/{key['id']}"
    assert_problem(client.patch(url, json={"private_key": "x"}), 422, "private_key")
    assert_problem(client.patch(url, json={"name": None}), 422, "name")
    assert_problem(client.patch(url, json={"kind": "ssh"}), 422, "kind")


@pytest.mark.both_databases
def test_update_to_a_taken_name_is_a_conflict(client: TestClient, project_id: int) -> None:
    make_key(client, project_id, name="one")
    two = make_key(client, project_id, name="two")
    response = client.patch(f"{keys_url(project_id)}/{two['id']}", json={"name": "one"})
    assert_problem(response, 409, "name")


@pytest.mark.both_databases
def test_list_pages_and_filters_by_kind(client: TestClient, project_id: int) -> None:
    for name in ("c", "a", "b"):
        make_key(client, project_id, name=name)
    make_key(client, project_id, name="v", kind="vault_password", password="p")
    page = client.get(keys_url(project_id), params={"limit": 2, "offset": 1}).json()
    assert [k["name"] for k in page["items"]] == ["b", "c"]
    assert page["total"] == 4
    vaults = client.get(keys_url(project_id), params={"kind": "vault_password"}).json()
    assert [k["name"] for k in vaults["items"]] == ["v"]


def test_key_of_another_project_is_not_found(client: TestClient, project_id: int) -> None:
    other = make_project(client, "other")
    key = make_key(client, other)
    assert_problem(client.get(f"{keys_url(project_id)}/{key['id']}"), 404, "key")
    assert_problem(client.delete(f"{keys_url(project_id)}/{key['id']}"), 404, "key")


def test_delete_of_an_unused_key(client: TestClient, project_id: int) -> None:
    key = make_key(client, project_id)
    url = f"{keys_url(project_id)}/{key['id']}"
    assert client.delete(url).status_code == 204
    assert client.get(url).status_code == 404


def test_delete_of_a_key_in_use_names_its_users(client: TestClient, project_id: int) -> None:
    key = make_key(client, project_id, name="git-login", kind="login_password", password="pw")
    make_repository(client, project_id, url="https://h/r.git", key_id=key["id"])
    secret_ref = [{"name": "PW", "target": "env", "key_id": key["id"]}]
    env = client.post(
        f"/api/v1/projects/{project_id}/environments", json={"name": "prod", "secrets": secret_ref}
    )
    assert env.status_code == 201, env.text
    url = f"{keys_url(project_id)}/{key['id']}"
    detail = assert_problem(client.delete(url), 409, "git-login")
    assert "repository 'playbooks'" in detail
    assert "environment 'prod'" in detail
    assert client.get(url).status_code == 200
