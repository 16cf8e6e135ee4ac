"""Every domain records its changes: actor, object, project, a diff, and never a secret value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.builders import (
    make_inventory,
    make_key,
    make_local_repository,
    make_project,
    ssh_keygen,
)

ACTOR = "admin (token tests)"


def _records(client: TestClient, action: str) -> list[dict[str, Any]]:
    response = client.get("/api/v1/audit", params={"action": action})
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def _one(client: TestClient, action: str, object_id: int, project_id: int) -> dict[str, Any]:
    found = [r for r in _records(client, action) if r["object_id"] == object_id]
    assert len(found) == 1, found
    record = found[0]
    assert record["actor"] == ACTOR
    assert record["project_id"] == project_id
    assert record["object_type"] == action.partition(":")[0]
    return record


def _assert_nowhere(client: TestClient, *secrets: str) -> None:
    exported = client.get("/api/v1/audit/export")
    assert exported.status_code == 200
    for secret in secrets:
        assert secret not in exported.text, f"{secret!r} is in the audit export"


def test_keys_record_markers_for_secrets_never_values(client: TestClient, tmp_path: Path) -> None:
    project = make_project(client)
    key = make_key(client, project, name="api", value="first-Secret-value")
    url = f"/api/v1/projects/{project}/keys/{key['id']}"
    updated = client.patch(url, json={"value": "second-Secret-value", "description": "ci"})
    assert updated.status_code == 200, updated.text
    private, _public = ssh_keygen(tmp_path, passphrase="ssh-Passphrase-9")
    ssh = make_key(
        client, project, name="ssh", kind="ssh", private_key=private, passphrase="ssh-Passphrase-9"
    )
    assert client.delete(url).status_code == 204

    created = _one(client, "key:create", key["id"], project)
    assert created["object_name"] == "api"
    assert created["changes"]["value"] == [None, "********"]
    assert created["changes"]["kind"] == [None, "secret"]
    changed = _one(client, "key:update", key["id"], project)["changes"]
    assert changed == {"description": ["", "ci"], "value": ["********", "********"]}
    assert _one(client, "key:delete", key["id"], project)["changes"]["name"] == ["api", None]
    ssh_changes = _one(client, "key:create", ssh["id"], project)["changes"]
    assert ssh_changes["private_key"] == [None, "********"]
    assert ssh_changes["passphrase"] == [None, "********"]
    assert ssh_changes["fingerprint"][1].startswith("SHA256:")
    lines = [line for line in private.splitlines() if len(line) > 10]
    _assert_nowhere(client, "first-Secret-value", "second-Secret-value", "ssh-Passphrase-9", *lines)


def test_repositories_record_their_changes(client: TestClient, tmp_path: Path) -> None:
    project = make_project(client)
    (tmp_path / "playbooks").mkdir()
    repository = make_local_repository(client, project, tmp_path / "playbooks")
    url = f"/api/v1/projects/{project}/repositories/{repository}"
    assert client.patch(url, json={"description": "playbooks"}).status_code == 200
    assert client.delete(url).status_code == 204
    created = _one(client, "repository:create", repository, project)
    assert created["changes"]["url"] == [None, str(tmp_path / "playbooks")]
    updated = _one(client, "repository:update", repository, project)
    assert updated["changes"] == {"description": ["", "playbooks"]}
    _one(client, "repository:delete", repository, project)


def test_inventories_record_that_content_changed_not_the_text(client: TestClient) -> None:
    project = make_project(client)
    content = "db01 ansible_password=Inventory-Pw-1\n"
    inventory = make_inventory(client, project, content=content)
    url = f"/api/v1/projects/{project}/inventories/{inventory['id']}"
    changed = client.patch(url, json={"content": "db01 ansible_password=Inventory-Pw-2\ndb02\n"})
    assert changed.status_code == 200, changed.text
    assert client.delete(url).status_code == 204
    created = _one(client, "inventory:create", inventory["id"], project)["changes"]
    assert created["content"][1].startswith("1 lines, sha256 ")
    before, after = _one(client, "inventory:update", inventory["id"], project)["changes"]["content"]
    assert before != after
    assert after.startswith("2 lines, sha256 ")
    _one(client, "inventory:delete", inventory["id"], project)
    _assert_nowhere(client, "Inventory-Pw-1", "Inventory-Pw-2")


def test_environments_name_secret_keys_never_values(client: TestClient) -> None:
    project = make_project(client)
    key = make_key(client, project, name="db-password", value="Env-Secret-77")
    body = {
        "name": "prod",
        "extra_vars": {"region": "eu"},
        "secrets": [{"name": "DB_PASSWORD", "target": "env", "key_id": key["id"]}],
    }
    env = client.post(f"/api/v1/projects/{project}/environments", json=body)
    assert env.status_code == 201, env.text
    url = f"/api/v1/projects/{project}/environments/{env.json()['id']}"
    assert client.patch(url, json={"secrets": []}).status_code == 200
    created = _one(client, "environment:create", env.json()["id"], project)["changes"]
    assert created["secrets"] == [None, ["env DB_PASSWORD <- key 'db-password'"]]
    assert created["extra_vars"] == [None, {"region": "eu"}]
    updated = _one(client, "environment:update", env.json()["id"], project)["changes"]
    assert updated == {"secrets": [["env DB_PASSWORD <- key 'db-password'"], []]}
    _assert_nowhere(client, "Env-Secret-77")


def test_templates_record_settings_and_survey_changes(client: TestClient, tmp_path: Path) -> None:
    project = make_project(client)
    (tmp_path / "playbooks").mkdir()
    (tmp_path / "playbooks" / "ok.yml").write_text("- hosts: all\n  tasks: []\n")
    repository = make_local_repository(client, project, tmp_path / "playbooks")
    inventory = make_inventory(client, project)["id"]
    body = {"name": "deploy", "playbook": "ok.yml", "repository_id": repository}
    created = client.post(
        f"/api/v1/projects/{project}/templates", json={**body, "inventory_id": inventory}
    )
    assert created.status_code == 201, created.text
    template = created.json()["id"]
    survey = [{"variable": "pw", "label": "Password", "type": "password", "required": True}]
    url = f"/api/v1/projects/{project}/templates/{template}"
    assert client.patch(url, json={"survey": survey, "limit": "db"}).status_code == 200
    assert client.delete(url).status_code == 204
    record = _one(client, "template:create", template, project)
    assert record["changes"]["playbook"] == [None, "ok.yml"]
    changes = _one(client, "template:update", template, project)["changes"]
    assert changes["limit"] == ["", "db"]
    assert changes["survey"][0] == []
    assert changes["survey"][1][0]["variable"] == "pw"
    _one(client, "template:delete", template, project)


def test_users_and_tokens_are_recorded_without_passwords(client: TestClient) -> None:
    created = client.post("/api/v1/users", json={"username": "ivan", "password": "Ivan-Password-1"})
    assert created.status_code == 201
    user = created.json()["id"]
    client.patch(f"/api/v1/users/{user}", json={"display_name": "Ivan"})
    client.post(f"/api/v1/users/{user}/password", json={"password": "Ivan-Password-2"})
    client.patch(f"/api/v1/users/{user}", json={"is_active": False})
    token = client.post("/api/v1/users/me/tokens", json={"name": "ci", "scope": "read"}).json()
    client.delete(f"/api/v1/users/me/tokens/{token['id']}")

    actions = [r["action"] for r in _records(client, "user") if r["object_id"] == user]
    assert actions == ["user:disable", "user:password_reset", "user:update", "user:create"]
    for record in _records(client, "user"):
        if record["object_id"] == user:
            assert record["actor"] == ACTOR
        assert record["project_id"] is None
    assert _records(client, "user:update")[0]["changes"] == {"display_name": ["", "Ivan"]}
    tokens = [r for r in _records(client, "token") if r["object_id"] == token["id"]]
    assert [r["action"] for r in tokens] == ["token:revoke", "token:create"]
    _assert_nowhere(client, "Ivan-Password-1", "Ivan-Password-2", token["token"])
