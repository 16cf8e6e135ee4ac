"""Schedules that launch a workflow: made with ``workflow_id`` (exactly one target), fired by the
app's own scheduler thread (a 0.1 s tick) into a real workflow run whose node runs run the real
playbook; disabled, saying why, when the owner may no longer launch every template node or the
workflow is deleted; audited like a template's schedule."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.schedules import YEARLY, make_due
from support.waits import wait_until
from support.workflows import Workflows, approval_node, edge, fast, template_node

from steward.config import Settings

pytestmark = pytest.mark.loops("scheduler", "workflows")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast(settings).model_copy(update={"scheduler_tick_seconds": 0.1})


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


def schedule_workflow(
    client: TestClient, workbench: Workbench, workflow_id: int, **body: Any
) -> dict[str, Any]:
    body = {"name": "nightly", "kind": "cron", "expression": YEARLY, **body}
    response = client.post(workbench.url("schedules"), json={"workflow_id": workflow_id, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def read(workbench: Workbench, schedule_id: int) -> dict[str, Any]:
    response = workbench.client.get(workbench.url(f"schedules/{schedule_id}"))
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def fired(workbench: Workbench, schedule_id: int) -> dict[str, Any]:
    found = wait_until(
        lambda: (s := read(workbench, schedule_id))["last_workflow_run_id"] and s,
        timeout=20,
        what=f"schedule {schedule_id} fired",
    )
    assert isinstance(found, dict)
    return found


def disabled(workbench: Workbench, schedule_id: int) -> dict[str, Any]:
    found = wait_until(
        lambda: not (s := read(workbench, schedule_id))["enabled"] and s,
        timeout=20,
        what=f"schedule {schedule_id} disabled",
    )
    assert isinstance(found, dict)
    return found


def test_a_schedule_fires_a_workflow_whose_nodes_run(
    workbench: Workbench, flows: Workflows, database_url: str
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml", overridable=["limit"])
    workflow = flows.create(
        [template_node("first", ok), template_node("second", ok, limit="localhost")],
        [edge("first", "second")],
    )
    schedule = schedule_workflow(client, workbench, workflow["id"])
    assert (schedule["target_kind"], schedule["workflow_id"], schedule["template_id"]) == (
        "workflow",
        workflow["id"],
        None,
    )
    assert schedule["workflow_name"] == "pipeline"
    set_values = {k: v for k, v in schedule["launch"].items() if v not in (None, {})}
    assert set_values == {}  # a workflow's schedule holds no launch values

    make_due(database_url, schedule["id"])
    after = fired(workbench, schedule["id"])
    wrun = flows.wait(after["last_workflow_run_id"])

    assert wrun["status"] == "successful", wrun
    assert (wrun["launch_type"], wrun["schedule_id"], wrun["webhook_id"]) == (
        "schedule",
        schedule["id"],
        None,
    )
    assert wrun["launched_by"] == "admin"
    assert [n["status"] for n in wrun["nodes"]] == ["successful", "successful"]
    assert after["last_run_id"] is None
    assert after["last_fired_at"] is not None
    assert after["enabled"] is True
    assert after["next_fire_at"] is not None
    node_runs = [workbench.run(n["run_id"]) for n in wrun["nodes"]]
    assert {(r["launch_type"], r["status"]) for r in node_runs} == {("workflow", "successful")}
    assert any("ok" in line for line in workbench.lines(node_runs[0]["id"]))
    launches = client.get(
        "/api/v1/audit", params={"action": "workflow:launch", "object_id": wrun["id"]}
    ).json()["items"]
    assert [(a["actor"], a["actor_type"]) for a in launches] == [
        (f"admin (via schedule {schedule['id']})", "schedule")
    ]
    created = client.get(
        "/api/v1/audit", params={"action": "schedule:create", "object_id": schedule["id"]}
    ).json()["items"]
    assert created[0]["changes"]["workflow_id"] == [None, workflow["id"]]
    # listed with the project's schedules, and with the workflow's
    listed = client.get(workbench.url("schedules"), params={"workflow_id": workflow["id"]}).json()
    assert [s["id"] for s in listed["items"]] == [schedule["id"]]
    assert client.get(workbench.url("schedules"), params={"template_id": ok}).json()["total"] == 0


def test_one_target_and_no_launch_values(workbench: Workbench, flows: Workflows) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml", overridable=["limit"])
    workflow = flows.create([template_node("only", ok)], [])
    base = {"name": "s", "kind": "cron", "expression": YEARLY}
    url = workbench.url("schedules")
    both = client.post(url, json={**base, "template_id": ok, "workflow_id": workflow["id"]})
    assert "not both" in assert_problem(both, 422, "workflow_id")
    neither = client.post(url, json=base)
    assert "template_id or workflow_id" in assert_problem(neither, 422, "template_id")
    values = client.post(
        url, json={**base, "workflow_id": workflow["id"], "launch": {"limit": "localhost"}}
    )
    assert "carry their own launch values" in assert_problem(values, 422, "launch")
    unknown = client.post(url, json={**base, "workflow_id": workflow["id"] + 1000})
    assert "not found" in assert_problem(unknown, 422, "workflow_id")
    # the template's own route takes no workflow
    path = workbench.url(f"templates/{ok}/schedules")
    assert_problem(
        client.post(path, json={**base, "workflow_id": workflow["id"]}), 422, "workflow_id"
    )
    # a template target through the project's route is the template's schedule, as before
    made = client.post(url, json={**base, "template_id": ok, "launch": {"limit": "localhost"}})
    assert made.status_code == 201, made.text
    assert (made.json()["target_kind"], made.json()["launch"]["limit"]) == ("template", "localhost")

    schedule = schedule_workflow(client, workbench, workflow["id"])
    patched = client.patch(
        workbench.url(f"schedules/{schedule['id']}"), json={"launch": {"limit": "x"}}
    )
    assert_problem(patched, 422, "launch")
    renamed = client.patch(workbench.url(f"schedules/{schedule['id']}"), json={"name": "other"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["workflow_id"] == workflow["id"]


def test_owner_who_may_no_longer_launch_a_node_disables_it(
    workbench: Workbench, flows: Workflows, settings: Settings, database_url: str
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml")
    workflow = flows.create(
        [approval_node("gate"), template_node("ship", ok)], [edge("gate", "ship")]
    )
    bob = make_user(client, "bob")
    members = workbench.url("members")
    assert client.put(members, json={"user_id": bob["id"], "role": "manager"}).status_code == 200
    as_bob = TestClient(client.app, headers=bearer(token(client, "bob")))
    schedule = schedule_workflow(as_bob, workbench, workflow["id"])
    assert schedule["owner_name"] == "bob"
    # a viewer sees the workflow but may not launch its template node
    assert client.put(members, json={"user_id": bob["id"], "role": "viewer"}).status_code == 200
    make_due(database_url, schedule["id"])
    found = disabled(workbench, schedule["id"])

    assert found["disabled_reason"].startswith(
        "its owner 'bob' may no longer launch workflow 'pipeline': permission 'run:launch' is"
        " required"
        " on template 'ok' (node 'ship')"
    ), found["disabled_reason"]
    assert found["last_workflow_run_id"] is None
    assert found["next_fire_at"] is None
    assert client.get(workbench.url("workflow-runs")).json()["items"] == []
    [record] = client.get(
        "/api/v1/audit", params={"action": "schedule:disable", "object_id": schedule["id"]}
    ).json()["items"]
    assert record["detail"] == found["disabled_reason"]
    # as a viewer, bob cannot save it again (the rights a launch needs, checked at save)
    again = as_bob.patch(workbench.url(f"schedules/{schedule['id']}"), json={"enabled": True})
    assert again.status_code == 403, again.text


def test_a_workflow_deleted_disables_its_schedules(
    workbench: Workbench, flows: Workflows, database_url: str
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml")
    workflow = flows.create(
        [approval_node("gate"), template_node("ship", ok)], [edge("gate", "ship")]
    )
    schedule = schedule_workflow(client, workbench, workflow["id"])
    make_due(database_url, schedule["id"])
    wrun_id = fired(workbench, schedule["id"])["last_workflow_run_id"]
    flows.wait(wrun_id, until=lambda w: w["nodes"][0]["status"] == "waiting")
    # a workflow run it launched is running: neither the schedule nor the workflow goes
    busy = client.delete(workbench.url(f"schedules/{schedule['id']}"))
    assert busy.status_code == 409
    assert f"running workflow run ({wrun_id})" in busy.json()["detail"]
    assert client.delete(workbench.url(f"workflows/{workflow['id']}")).status_code == 409
    cancel = client.post(workbench.url(f"workflow-runs/{wrun_id}/cancel"))
    assert cancel.status_code == 200, cancel.text
    flows.wait(wrun_id)

    assert client.delete(workbench.url(f"workflows/{workflow['id']}")).status_code == 204
    found = disabled(workbench, schedule["id"])
    assert found["disabled_reason"] == "its workflow was deleted"
    assert (found["target_kind"], found["workflow_id"], found["template_id"]) == (
        "workflow",
        None,
        None,
    )
    assert flows.read(wrun_id)["schedule_id"] == schedule["id"]  # the run says what launched it
    again = client.patch(workbench.url(f"schedules/{schedule['id']}"), json={"enabled": True})
    assert again.status_code == 409
    assert "its workflow was deleted" in again.json()["detail"]
    assert client.delete(workbench.url(f"schedules/{schedule['id']}")).status_code == 204
    assert flows.read(wrun_id)["schedule_id"] is None


def test_schedules_and_webhooks_of_a_workflow_round_trip_through_export(
    workbench: Workbench, flows: Workflows
) -> None:
    """Exported naming their workflow; imported once the workflows are made (disabled, as every
    imported schedule and webhook); the second export is the first. Those of a workflow the
    import cannot make are skipped and reported, the rest of the project is made."""
    client = workbench.client
    ok = workbench.template("ok.yml")
    secret = [{"variable": "pw", "label": "pw", "type": "password", "required": True}]
    guarded = workbench.template("ok.yml", name="guarded", survey=secret)
    pipeline = flows.create([template_node("only", ok)], [])
    locked = flows.create([template_node("g", guarded, survey={"pw": "x"})], [], name="locked")
    key = workbench.key(name="hook-secret", kind="secret", value="hook-secret-value-5d1e")
    schedule_workflow(client, workbench, pipeline["id"], name="nightly")
    schedule_workflow(client, workbench, locked["id"], name="locked-nightly")
    for name, workflow_id in (("on-push", pipeline["id"]), ("locked-push", locked["id"])):
        body = {"name": name, "auth": "github", "secret_key_id": key, "workflow_id": workflow_id}
        assert client.post(workbench.url("webhooks"), json=body).status_code == 201

    first = client.get(workbench.url("export")).json()
    exported = {s["name"]: s for s in first["schedules"]}
    assert (exported["nightly"]["workflow"], exported["nightly"]["template"]) == ("pipeline", None)
    assert {w["name"]: w["workflow"] for w in first["webhooks"]} == {
        "on-push": "pipeline",
        "locked-push": "locked",
    }
    assert "workflow_id" not in str(first["schedules"]) + str(first["webhooks"])

    done = client.post("/api/v1/projects/import", json={"document": first, "name": "copy"})
    assert done.status_code == 201, done.text
    report = done.json()
    assert report["created"]["workflows"] == 1
    assert (report["created"]["schedules"], report["created"]["webhooks"]) == (1, 1)
    notes = {(a["kind"], a["name"]): a["reason"] for a in report["needs_attention"]}
    for kind, name in (("schedule", "locked-nightly"), ("webhook", "locked-push")):
        assert notes[(kind, name)] == (
            "not imported: its workflow 'locked' was not imported; create it again"
        )
    assert "imported disabled" in notes[("schedule", "nightly")]

    copy_id = report["project_id"]
    second = client.get(f"/api/v1/projects/{copy_id}/export").json()
    expected_schedule = {**exported["nightly"], "enabled": False}
    assert second["schedules"] == [expected_schedule]
    [hook] = second["webhooks"]
    assert hook == {
        **next(w for w in first["webhooks"] if w["name"] == "on-push"),
        "enabled": False,
    }
    schedules = client.get(f"/api/v1/projects/{copy_id}/schedules").json()["items"]
    copied = client.get(f"/api/v1/projects/{copy_id}/workflows").json()["items"]
    assert [(s["target_kind"], s["workflow_id"]) for s in schedules] == [
        ("workflow", copied[0]["id"])
    ]
