"""A project's Galaxy servers through the API: kept in order, their secret in the key store."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, make_key, make_project


def _servers(client: TestClient, project_id: int) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/projects/{project_id}/galaxy-servers")
    assert response.status_code == 200, response.text
    page = response.json()
    assert page["total"] == len(page["items"])
    items: list[dict[str, Any]] = page["items"]
    return items


def test_create_list_in_order_update_delete_with_audit(client: TestClient) -> None:
    project = make_project(client)
    base = f"/api/v1/projects/{project}/galaxy-servers"
    token = make_key(client, project, name="hub-token", value="tok-123")
    created = client.post(
        base,
        json={"name": "hub", "url": "https://hub.example.com/api/", "key_id": token["id"]},
    )
    assert created.status_code == 201, created.text
    hub = created.json()
    assert hub["key_name"] == "hub-token"
    assert (hub["position"], hub["validate_certs"], hub["auth_url"]) == (0, True, "")
    assert "tok-123" not in created.text
    galaxy = client.post(base, json={"name": "galaxy", "url": "https://galaxy.ansible.com/"})
    assert galaxy.status_code == 201, galaxy.text
    assert [s["name"] for s in _servers(client, project)] == ["galaxy", "hub"]  # by name at 0
    moved = client.patch(f"{base}/{galaxy.json()['id']}", json={"position": 10})
    assert moved.status_code == 200, moved.text
    assert [s["name"] for s in _servers(client, project)] == ["hub", "galaxy"]
    cleared = client.patch(f"{base}/{hub['id']}", json={"key_id": None, "validate_certs": False})
    assert cleared.status_code == 200, cleared.text
    assert (cleared.json()["key_id"], cleared.json()["validate_certs"]) == (None, False)
    assert client.delete(f"{base}/{hub['id']}").status_code == 204
    assert client.get(f"{base}/{hub['id']}").status_code == 404
    actions = [
        r["action"]
        for r in client.get("/api/v1/audit", params={"object_type": "galaxy_server"}).json()[
            "items"
        ]
    ]
    assert sorted(actions) == sorted(
        ["galaxy_server:create"] * 2 + ["galaxy_server:update"] * 2 + ["galaxy_server:delete"]
    )


def test_the_key_must_be_a_token_or_a_login_of_this_project(client: TestClient) -> None:
    project, other = make_project(client), make_project(client, "other")
    base = f"/api/v1/projects/{project}/galaxy-servers"
    vault = make_key(client, project, name="vault", kind="vault_password", password="v")
    foreign = make_key(client, other, name="foreign")
    body = {"name": "hub", "url": "https://hub.example.com/"}
    detail = assert_problem(client.post(base, json={**body, "key_id": vault["id"]}), 422, "key_id")
    assert "a secret key (a token) or a login_password key" in detail
    detail = assert_problem(
        client.post(base, json={**body, "key_id": foreign["id"]}), 422, "key_id"
    )
    assert "does not exist in this project" in detail
    login = make_key(
        client, project, name="login", kind="login_password", username="u", password="p"
    )
    assert client.post(base, json={**body, "key_id": login["id"]}).status_code == 201


@pytest.mark.both_databases
def test_names_are_unique_and_a_used_key_cannot_be_deleted(client: TestClient) -> None:
    project = make_project(client)
    base = f"/api/v1/projects/{project}/galaxy-servers"
    key = make_key(client, project, name="hub-token")
    body = {"name": "hub", "url": "https://hub.example.com/", "key_id": key["id"]}
    assert client.post(base, json=body).status_code == 201
    assert_problem(client.post(base, json=body), 409, "name")
    refused = client.delete(f"/api/v1/projects/{project}/keys/{key['id']}")
    assert refused.status_code == 409
    assert "used by galaxy server 'hub'" in refused.json()["detail"]


def test_servers_of_another_project_are_not_found(client: TestClient) -> None:
    project, other = make_project(client), make_project(client, "other")
    created = client.post(
        f"/api/v1/projects/{other}/galaxy-servers",
        json={"name": "hub", "url": "https://hub.example.com/"},
    ).json()
    url = f"/api/v1/projects/{project}/galaxy-servers/{created['id']}"
    assert client.get(url).status_code == 404
    assert client.patch(url, json={"position": 1}).status_code == 404
    assert client.delete(url).status_code == 404
