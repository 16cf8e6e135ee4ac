from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.builders import make_key, make_project, ssh_keygen

from steward.errors import NotFound
from steward.keys import service
from steward.keys.models import KeyKind
from steward.runtime import Runtime


def runtime_of(client: TestClient) -> Runtime:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    return runtime


def public_key_of(private_key: str, tmp_path: Path) -> str:
    """Derive the public key with ssh itself: proves the key is usable without a passphrase."""
    path = tmp_path / "revealed"
    path.write_text(private_key)
    path.chmod(0o600)
    done = subprocess.run(
        ["ssh-keygen", "-y", "-P", "", "-f", str(path)], check=True, capture_output=True, text=True
    )
    return done.stdout.split()[1]


@pytest.mark.parametrize("fmt", ["", "PEM"])
def test_reveal_decrypts_a_passphrase_protected_key(
    client: TestClient, tmp_path: Path, fmt: str
) -> None:
    project_id = make_project(client)
    private, public = ssh_keygen(tmp_path, passphrase="open sesame", fmt=fmt)
    key = make_key(
        client,
        project_id,
        kind="ssh",
        username="ansible",
        private_key=private,
        passphrase="open sesame",
    )
    runtime = runtime_of(client)
    with runtime.sessions() as session:
        material = service.reveal(session, runtime.cipher, key["id"], project_id)
    assert material.kind == KeyKind.SSH
    assert material.username == "ansible"
    assert "ENCRYPTED" not in material.private_key
    assert material.private_key.startswith("-----BEGIN OPENSSH PRIVATE KEY-----")
    assert public_key_of(material.private_key, tmp_path) == public.split()[1]
    masks = material.secret_values()
    assert "open sesame" in masks
    assert material.private_key in masks
    assert private in masks
    assert all(line in masks for line in material.private_key.splitlines()[1:-1])
    assert "open sesame" not in repr(material)


def test_reveal_of_passwords_and_secrets(client: TestClient) -> None:
    project_id = make_project(client)
    vault = make_key(
        client, project_id, name="v", kind="vault_password", vault_id="prod", password="vpw"
    )
    login = make_key(
        client, project_id, name="l", kind="login_password", username="u", password="lpw"
    )
    secret = make_key(client, project_id, name="s", value="sv")
    runtime = runtime_of(client)
    with runtime.sessions() as session:
        revealed = [
            service.reveal(session, runtime.cipher, k["id"], project_id)
            for k in (vault, login, secret)
        ]
    assert [(m.kind, m.vault_id, m.username, m.secret) for m in revealed] == [
        (KeyKind.VAULT_PASSWORD, "prod", "", "vpw"),
        (KeyKind.LOGIN_PASSWORD, "", "u", "lpw"),
        (KeyKind.SECRET, "", "", "sv"),
    ]
    assert [m.secret_values() for m in revealed] == [["vpw"], ["lpw"], ["sv"]]


def test_update_replaces_the_secret_seen_by_reveal(client: TestClient, tmp_path: Path) -> None:
    project_id = make_project(client)
    first, _ = ssh_keygen(tmp_path, passphrase="one")
    second, second_public = ssh_keygen(tmp_path)
    key = make_key(client, project_id, kind="ssh", private_key=first, passphrase="one")
    url = f"/api/v1/projects/{project_id}/keys/{key['id']}"
    wrong = client.patch(url, json={"passphrase": "two"})
    assert wrong.status_code == 422, wrong.text
    replaced = client.patch(url, json={"private_key": second})  # the old passphrase goes with it
    assert replaced.status_code == 200, replaced.text
    assert replaced.json()["fingerprint"] != key["fingerprint"]
    runtime = runtime_of(client)
    with runtime.sessions() as session:
        material = service.reveal(session, runtime.cipher, key["id"], project_id)
    assert public_key_of(material.private_key, tmp_path) == second_public.split()[1]
    assert material.passphrase == ""


def test_reveal_of_a_key_of_another_project_is_not_found(client: TestClient) -> None:
    project_id = make_project(client)
    other = make_project(client, "other")
    key = make_key(client, other)
    runtime = runtime_of(client)
    with runtime.sessions() as session, pytest.raises(NotFound):
        service.reveal(session, runtime.cipher, key["id"], project_id)
