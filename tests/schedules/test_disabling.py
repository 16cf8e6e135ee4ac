"""A schedule that can no longer launch is disabled by Steward with the reason, in the row and
in the audit trail, and launches nothing: its template deleted, its owner deleted or demoted,
its launch values refused. The app's own scheduler thread does it, ticking every 0.1 s."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.schedules import make_due, make_schedule
from support.waits import wait_until

from steward.auth.models import User
from steward.config import Settings

pytestmark = pytest.mark.loops("scheduler")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"scheduler_tick_seconds": 0.1})


def disabled(workbench: Workbench, schedule_id: int) -> dict[str, Any]:
    url = workbench.url(f"schedules/{schedule_id}")

    def read() -> dict[str, Any] | None:
        found: dict[str, Any] = workbench.client.get(url).json()
        return None if found["enabled"] else found

    found = wait_until(read, timeout=20, what=f"schedule {schedule_id} disabled")
    assert found is not None
    return found


def disable_records(client: TestClient, schedule_id: int) -> list[dict[str, Any]]:
    params: dict[str, str | int] = {"action": "schedule:disable", "object_id": schedule_id}
    items: list[dict[str, Any]] = client.get("/api/v1/audit", params=params).json()["items"]
    return items


def runs(workbench: Workbench) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = workbench.client.get(workbench.url("runs")).json()["items"]
    return items


def test_deleted_template(workbench: Workbench, settings: Settings) -> None:
    template = workbench.template("ok.yml")
    schedule = make_schedule(workbench.client, workbench.project_id, template)
    assert workbench.client.delete(workbench.url(f"templates/{template}")).status_code == 204
    read = disabled(workbench, schedule["id"])
    assert read["disabled_reason"] == "its template was deleted"
    assert (read["template_id"], read["next_fire_at"]) == (None, None)
    [record] = disable_records(workbench.client, schedule["id"])
    assert (record["actor"], record["actor_type"]) == ("system", "system")
    assert record["detail"] == "its template was deleted"
    assert record["changes"]["enabled"] == [True, False]
    # it stays listed, and cannot be enabled again without a template
    assert [s["id"] for s in workbench.client.get(workbench.url("schedules")).json()["items"]] == [
        schedule["id"]
    ]
    again = workbench.client.patch(
        workbench.url(f"schedules/{schedule['id']}"), json={"enabled": True}
    )
    assert again.status_code == 409
    assert "template was deleted" in again.json()["detail"]


def test_owner_demoted_then_deleted(workbench: Workbench, settings: Settings) -> None:
    client = workbench.client
    template = workbench.template("ok.yml")
    bob = make_user(client, "bob")
    members = workbench.url("members")
    assert client.put(members, json={"user_id": bob["id"], "role": "manager"}).status_code == 200
    as_bob = TestClient(client.app, headers=bearer(token(client, "bob")))
    schedule = make_schedule(as_bob, workbench.project_id, template)
    assert schedule["owner_name"] == "bob"
    assert client.put(members, json={"user_id": bob["id"], "role": "viewer"}).status_code == 200

    make_due(settings.database_url, schedule["id"])
    read = disabled(workbench, schedule["id"])
    assert read["disabled_reason"] == (
        f"its owner 'bob' may no longer launch template 'ok': permission 'run:launch' is"
        f" required on template {template} in project 'bench'"
    )
    assert runs(workbench) == []
    assert len(disable_records(client, schedule["id"])) == 1

    # saved again by someone allowed: the new owner
    url = workbench.url(f"schedules/{schedule['id']}")
    assert client.patch(url, json={"enabled": True}).json()["owner_name"] == "admin"
    assert client.get(url).json()["disabled_reason"] == ""


def test_owner_deactivated_or_deleted(workbench: Workbench, settings: Settings) -> None:
    client = workbench.client
    template = workbench.template("ok.yml")
    members = workbench.url("members")
    made = {}
    for name in ("carol", "dave"):
        user = make_user(client, name)
        assert (
            client.put(members, json={"user_id": user["id"], "role": "manager"}).status_code == 200
        )
        as_user = TestClient(client.app, headers=bearer(token(client, name)))
        made[name] = (user["id"], make_schedule(as_user, workbench.project_id, template, name=name))
    carol, dave = made["carol"], made["dave"]

    off = client.patch(f"/api/v1/users/{carol[0]}", json={"is_active": False})
    assert off.status_code == 200, off.text
    make_due(settings.database_url, carol[1]["id"])
    assert disabled(workbench, carol[1]["id"])["disabled_reason"] == (
        "its owner 'carol' is deactivated"
    )
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.engine.begin() as conn:  # no API deletes a user: they are deactivated
        conn.execute(delete(User).where(User.id == dave[0]))
    read = disabled(workbench, dave[1]["id"])  # not due: found by the sweep of each tick
    assert read["disabled_reason"] == "its owner was deleted"
    assert read["owner_id"] is None
    assert runs(workbench) == []


def test_launch_values_refused_at_fire_time(workbench: Workbench, settings: Settings) -> None:
    """The inventory the schedule launches with is deleted; a survey question is added."""
    client = workbench.client
    spare = workbench.inventory("spare", "localhost\n")
    template = workbench.template("ok.yml", overridable=["inventory_id"])
    asking = workbench.template("ok.yml", name="asking")
    by_inventory = make_schedule(
        client, workbench.project_id, template, name="inv", launch={"inventory_id": spare}
    )
    by_survey = make_schedule(client, workbench.project_id, asking, name="survey")
    assert client.delete(workbench.url(f"inventories/{spare}")).status_code == 204
    question = {"variable": "who", "label": "Who", "type": "text", "required": True}
    patched = client.patch(workbench.url(f"templates/{asking}"), json={"survey": [question]})
    assert patched.status_code == 200, patched.text

    make_due(settings.database_url, by_inventory["id"], by_survey["id"])
    first = disabled(workbench, by_inventory["id"])
    second = disabled(workbench, by_survey["id"])
    assert first["disabled_reason"] == (
        f"its launch values are refused by template 'ok' now:"
        f" inventory_id: inventory {spare} does not exist in this project"
    )
    assert second["disabled_reason"] == (
        "its launch values are refused by template 'asking' now: survey.who: an answer is required"
    )
    assert runs(workbench) == []
    # enabling it again checks the launch values like a launch: the reason is given at once
    url = workbench.url(f"schedules/{by_survey['id']}")
    assert_problem(client.patch(url, json={"enabled": True}), 422, "launch.survey.who")
    fixed = client.patch(url, json={"enabled": True, "launch": {"survey": {"who": "ops"}}})
    assert fixed.status_code == 200, fixed.text
    assert (fixed.json()["enabled"], fixed.json()["disabled_reason"]) == (True, "")
