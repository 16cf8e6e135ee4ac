"""The audit trail answers who did what, when, from where."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_PASSWORD
from support.builders import Workbench

# PostgreSQL too: the audit trail's queries and export
pytestmark = pytest.mark.both_databases


def test_login_failure_and_success_are_recorded(client: TestClient) -> None:
    bad = client.post(
        "/api/v1/auth/login",
        json={"username": "admin", "password": "wrong"},
        headers={"Authorization": "", "User-Agent": "pytest-agent"},
    )
    assert bad.status_code == 401
    good = client.post(
        "/api/v1/auth/login",
        json={"username": "admin", "password": ADMIN_PASSWORD},
        headers={"Authorization": ""},
    )
    assert good.status_code == 200
    records = client.get("/api/v1/audit", params={"action": "auth"}).json()["items"]
    failed = [r for r in records if r["action"] == "auth:login_failed"]
    assert failed
    assert failed[0]["object_name"] == "admin"
    assert failed[0]["user_agent"] == "pytest-agent"
    assert failed[0]["source_ip"] == "testclient"
    assert "wrong" not in json.dumps(records)
    assert any(r["action"] == "auth:login" and r["detail"] == "password" for r in records)


def test_run_launch_and_cancel_are_attributed_and_exportable(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    run = workbench.launch(template, launch_type="ui")
    workbench.wait(run["id"])
    records = workbench.client.get(
        "/api/v1/audit", params={"action": "run:launch", "project_id": workbench.project_id}
    ).json()["items"]
    assert len(records) == 1
    entry = records[0]
    assert entry["actor"] == "admin (token tests)"
    assert entry["actor_type"] == "token"
    assert entry["object_type"] == "run"
    assert entry["object_id"] == run["id"]
    assert "ok.yml" in entry["detail"]
    assert "via ui" in entry["detail"]

    exported = workbench.client.get("/api/v1/audit/export", params={"q": "ok.yml", "action": "run"})
    assert exported.headers["content-type"].startswith("application/x-ndjson")
    lines = [json.loads(line) for line in exported.text.splitlines()]
    assert [line["action"] for line in lines] == ["run:launch"]


def test_project_update_records_a_diff(client: TestClient) -> None:
    project = client.post("/api/v1/projects", json={"name": "diffs"}).json()
    client.patch(f"/api/v1/projects/{project['id']}", json={"description": "db fleet"})
    records = client.get("/api/v1/audit", params={"action": "project:update"}).json()["items"]
    assert records[0]["changes"] == {"description": ["", "db fleet"]}


def test_audit_records_cannot_be_changed_through_the_api(client: TestClient) -> None:
    client.post("/api/v1/projects", json={"name": "immutable"})
    entry = client.get("/api/v1/audit").json()["items"][0]
    for method in ("PUT", "PATCH", "DELETE"):
        response = client.request(method, f"/api/v1/audit/{entry['id']}")
        assert response.status_code in (404, 405)
