"""Project membership keeps the project manageable."""

from __future__ import annotations

from fastapi.testclient import TestClient
from support.builders import assert_problem


def test_the_last_owner_can_be_neither_removed_nor_demoted(client: TestClient) -> None:
    project = client.post("/api/v1/projects", json={"name": "owned"}).json()
    members = f"/api/v1/projects/{project['id']}/members"
    admin = client.get("/api/v1/auth/me").json()
    demoted = client.put(members, json={"user_id": admin["id"], "role": "viewer"})
    assert_problem(demoted, 409, "no owner left")
    removed = client.delete(f"{members}/{admin['id']}")
    assert_problem(removed, 409, "no owner left")

    other = client.post(
        "/api/v1/users", json={"username": "second", "password": "a-long-password"}
    ).json()
    assert client.put(members, json={"user_id": other["id"], "role": "owner"}).status_code == 200
    assert client.delete(f"{members}/{admin['id']}").status_code == 204
    roles = {m["username"]: m["role"] for m in client.get(members).json()}
    assert roles == {"second": "owner"}
