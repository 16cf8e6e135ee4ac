"""Export a project holding every kind of object, import it under a new name, export again:
the same document but for what an import changes on purpose; and a template of the imported
project runs (real ansible-playbook on localhost). On both databases."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem
from support.portability import IMPORT_URL, export_url, full_project
from support.waits import wait_for_run


def export(client: TestClient, project_id: int) -> dict[str, Any]:
    response = client.get(export_url(project_id))
    assert response.status_code == 200, response.text
    document: dict[str, Any] = response.json()
    return document


def comparable(document: dict[str, Any]) -> dict[str, Any]:
    """The document without what differs between two projects by design: the project's name
    and the time of export."""
    out = copy.deepcopy(document)
    out.pop("exported_at")
    out["project"].pop("name")
    return out


@pytest.mark.both_databases
def test_export_import_export_gives_the_same_document_and_a_template_runs(
    client: TestClient, tmp_path: Path
) -> None:
    source = full_project(client, tmp_path)
    first = export(client, source["project"])
    assert first["steward_export"] == 1
    counts = {
        kind: len(first[kind])
        for kind in (
            "keys",
            "repositories",
            "inventories",
            "environments",
            "templates",
            "schedules",
            "webhooks",
            "workflows",
            "notification_destinations",
            "notification_subscriptions",
        )
    }
    assert counts == {
        "keys": 7,
        "repositories": 2,
        "inventories": 2,
        "environments": 1,
        "templates": 3,
        "schedules": 2,
        "webhooks": 1,
        "workflows": 1,
        "notification_destinations": 2,
        "notification_subscriptions": 3,
    }
    # a subscription's thresholds travel (the second export equals the first, below)
    quiet = [s["host_quiet_minutes"] for s in first["notification_subscriptions"]]
    assert sorted(quiet, key=str) == [7.5, None, None]

    dry = client.post(IMPORT_URL, json={"document": first, "name": "copy", "dry_run": True})
    assert dry.status_code == 200, dry.text
    assert dry.json()["project_id"] is None
    assert dry.json()["created"] == counts
    names = [p["name"] for p in client.get("/api/v1/projects").json()["items"]]
    assert "copy" not in names  # a dry run makes nothing

    done = client.post(IMPORT_URL, json={"document": first, "name": "copy"})
    assert done.status_code == 201, done.text
    report = done.json()
    assert report["created"] == counts
    assert report["project_name"] == "copy"
    # the same report as the dry run, but for the id
    assert {**dry.json(), "project_id": None, "dry_run": False} == {
        **report,
        "project_id": None,
    }
    attention = {(a["kind"], a["name"]) for a in report["needs_attention"]}
    assert {("key", k["name"]) for k in first["keys"]} <= attention
    assert ("schedule", "nightly") in attention  # enabled before: imported disabled
    assert ("webhook", "on-push") in attention
    nightly = next(a for a in report["needs_attention"] if a["name"] == "nightly")
    assert "db_password" in nightly["reason"]  # its secret answer was not exported
    release = next(a for a in report["needs_attention"] if a["kind"] == "workflow")
    assert release["name"] == "release"
    assert "node 'deploy': db_password" in release["reason"]
    deploy = next(n for n in first["workflows"][0]["nodes"] if n["key"] == "deploy")
    assert deploy["template"] == "full"  # by name, never by id
    assert next(t for t in first["templates"] if t["name"] == "full")["labels"] == ["db", "prod"]
    assert deploy["launch"] == {
        "limit": "localhost",
        "inventory": "localhost",
        "survey": {"release": "v3"},
    }
    assert deploy["omitted_secret_answers"] == ["db_password"]
    assert "template_id" not in str(first["workflows"])
    # a survey option source's key travels by name too
    ok = next(t for t in first["templates"] if t["name"] == "ok")
    assert ok["survey"][0]["source"]["key"] == "api-token"
    assert "key_id" not in ok["survey"][0]["source"]
    # an approval's separation of duties travels: said for each approval node
    nodes = {n["key"]: n for n in first["workflows"][0]["nodes"]}
    assert nodes["gate"]["approver_must_differ"] is True  # left to its default when made
    assert nodes["signoff"]["approver_must_differ"] is False
    assert "approver_must_differ" not in nodes["deploy"]

    second = export(client, report["project_id"])
    assert second["project"]["name"] == "copy"
    expected = comparable(first)
    for schedule in expected["schedules"]:
        schedule["enabled"] = False  # imported disabled on purpose
        schedule["omitted_secret_answers"] = []  # the copy never had them (reported instead)
    for webhook in expected["webhooks"]:
        webhook["enabled"] = False
    for node in expected["workflows"][0]["nodes"]:
        if node["kind"] == "template":
            node["omitted_secret_answers"] = []  # as for schedules: reported instead
    assert comparable(second) == expected
    copied = client.get(f"/api/v1/projects/{report['project_id']}/workflows").json()["items"]
    assert {n["key"]: n["approver_must_differ"] for n in copied[0]["nodes"]} == {
        "gate": True,
        "deploy": None,
        "check": None,
        "signoff": False,
    }

    # the keys are placeholders of the right kind, without a value
    copy_id = report["project_id"]
    keys = client.get(f"/api/v1/projects/{copy_id}/keys").json()["items"]
    assert {k["name"]: (k["kind"], k["has_secret"]) for k in keys} == {
        k["name"]: (k["kind"], False) for k in first["keys"]
    }
    # the webhook has a new URL
    old_hooks = client.get(f"/api/v1/projects/{source['project']}/webhooks").json()["items"]
    new_hooks = client.get(f"/api/v1/projects/{copy_id}/webhooks").json()["items"]
    assert old_hooks[0]["url"] != new_hooks[0]["url"]
    assert new_hooks[0]["enabled"] is False

    templates = client.get(f"/api/v1/projects/{copy_id}/templates").json()["items"]
    ok = next(t for t in templates if t["name"] == "ok")
    launched = client.post(f"/api/v1/projects/{copy_id}/runs", json={"template_id": ok["id"]})
    assert launched.status_code == 201, launched.text
    run = wait_for_run(client, f"/api/v1/projects/{copy_id}/runs/{launched.json()['id']}")
    assert run["status"] == "successful", run
    output = client.get(f"/api/v1/projects/{copy_id}/runs/{run['id']}/output").text
    assert "hello imported" in output


def test_import_is_audited_and_the_importer_owns_the_project(
    client: TestClient, tmp_path: Path
) -> None:
    source = full_project(client, tmp_path)
    document = export(client, source["project"])
    done = client.post(IMPORT_URL, json={"document": document, "name": "copy"})
    assert done.status_code == 201, done.text
    copy_id = done.json()["project_id"]
    members = client.get(f"/api/v1/projects/{copy_id}/members").json()
    assert [(m["username"], m["role"]) for m in members] == [("admin", "owner")]
    records = client.get("/api/v1/audit", params={"action": "project:import"}).json()["items"]
    assert [r["object_name"] for r in records] == ["copy"]
    assert records[0]["project_id"] == copy_id
    exports = client.get("/api/v1/audit", params={"action": "project:export"}).json()["items"]
    assert [r["object_id"] for r in exports] == [source["project"]]


def test_export_answers_an_attachment_with_a_safe_file_name(client: TestClient) -> None:
    project = client.post("/api/v1/projects", json={"name": "Web site (prod)"}).json()["id"]
    response = client.get(export_url(project))
    assert response.status_code == 200, response.text
    disposition = response.headers["content-disposition"]
    assert disposition == 'attachment; filename="steward-Web_site_prod.json"'


@pytest.mark.both_databases
def test_a_failure_late_in_the_document_leaves_nothing_behind(
    client: TestClient, tmp_path: Path
) -> None:
    """All or nothing, on both databases: the import's one transaction is rolled back."""
    hostile = export(client, full_project(client, tmp_path)["project"])
    hostile["notification_subscriptions"][-1]["events"] = ["no-such-event"]
    audit_before = _newest_audit_id(client)
    before = _project_names(client)
    response = client.post(IMPORT_URL, json={"document": hostile, "name": "half"})
    assert_problem(response, 422, "notification_subscriptions[2].events")
    assert _project_names(client) == before
    assert _newest_audit_id(client) == audit_before


def _project_names(client: TestClient) -> list[str]:
    return [p["name"] for p in client.get("/api/v1/projects?limit=200").json()["items"]]


def _newest_audit_id(client: TestClient) -> int:
    newest: int = client.get("/api/v1/audit", params={"limit": 1}).json()["items"][0]["id"]
    return newest
