"""Approval notifications: when an approval node starts waiting (at the
launch or in a later pass), the project-wide subscriptions that ask for ``approval_needed`` get
one message each, through the outbox and the notifier, to a real HTTP receiver on 127.0.0.1; it
names the workflow, the node, the launcher and links to the workflow run's page."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.builders import Workbench
from support.notifications import (
    HttpReceiver,
    messages,
    settle,
    subscribe,
    wait_messages,
    webhook_destination,
)
from support.schedules import YEARLY, make_due
from support.waits import wait_until
from support.workflows import Workflows, approval_node, edge, node_waiting, template_node

from steward.config import Settings

pytestmark = pytest.mark.loops("workflows", "notifier", "scheduler")

BASE_URL = "https://steward.example"
SECRET = "signing-secret-of-the-approvers"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The workflows' fast settings, with a notifier ticking every 0.1 s."""
    return settings.model_copy(
        update={
            "notifier_tick_seconds": 0.1,
            "notify_backoff_seconds": 0.2,
            "url": BASE_URL,
            "scheduler_tick_seconds": 0.1,
        }
    )


@pytest.fixture
def receiver() -> Iterator[HttpReceiver]:
    with HttpReceiver() as r:
        yield r


def approvals(bodies: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The approval_needed bodies by node key; each node told once."""
    told = [b for b in bodies if b["event"] == "approval_needed"]
    keys = [b["node"]["key"] for b in told]
    assert len(keys) == len(set(keys)), f"an approval told twice: {keys}"
    return {b["node"]["key"]: b for b in told}


def test_a_waiting_approval_is_told_to_the_subscriptions_that_ask_for_it(
    workbench: Workbench, receiver: HttpReceiver
) -> None:
    client, project = workbench.client, workbench.project_id
    flows = Workflows(client, project)
    ok = workbench.template("ok.yml", name="ok")
    approvers = webhook_destination(client, project, receiver.url("/approvers"), SECRET)
    subscribe(client, project, destination_id=approvers["id"], events=["approval_needed"])
    with HttpReceiver() as others, HttpReceiver() as off:
        runs_only = webhook_destination(
            client, project, others.url("/runs"), SECRET, name="runs-only"
        )
        subscribe(client, project, destination_id=runs_only["id"], events=["succeeded"])
        disabled = webhook_destination(
            client, project, off.url(), SECRET, name="off", enabled=False
        )
        subscribe(client, project, destination_id=disabled["id"], events=["approval_needed"])

        wf = flows.create(
            [
                approval_node("gate", "Deploy to production?", must_differ=False),
                template_node("ship", ok),
                approval_node("verify", "Does it work?", timeout=3600, must_differ=False),
            ],
            [edge("gate", "ship"), edge("ship", "verify")],
            name="release",
        )
        wrun = flows.launch(wf["id"])
        # the root approval waits from the launch: its message is queued, the notifier sends it
        first = approvals([r.json() for r in receiver.wait_for(1)])
        gate = first["gate"]
        page = f"{BASE_URL}/projects/{project}/workflow-runs/{wrun['id']}"
        assert gate["url"] == page
        name = client.get(f"/api/v1/projects/{project}").json()["name"]
        assert gate["title"] == f"[{name}] release #{wrun['id']}: approval 'gate' is waiting"
        assert gate["workflow_run"]["workflow_name"] == "release"
        assert gate["workflow_run"]["workflow_id"] == wf["id"]
        assert gate["workflow_run"]["launched_by"] == "admin"
        assert gate["node"] == {
            "key": "gate",
            "name": "Deploy to production?",
            "deadline_at": None,
            "approver_must_differ": False,
        }
        assert "Launched by: admin" in gate["text"]
        assert page in gate["text"]
        assert receiver.requests[0].signed_by(SECRET)
        assert receiver.requests[0].path == "/approvers"

        assert flows.decide(wrun["id"], "gate").status_code == 200
        flows.wait(wrun["id"], until=node_waiting("verify"))
        # the later approval, set waiting by a pass of the ticker
        told = approvals([r.json() for r in receiver.wait_for(2)])
        assert set(told) == {"gate", "verify"}
        verify = told["verify"]
        assert verify["node"]["name"] == "Does it work?"
        assert verify["node"]["deadline_at"] is not None
        assert "Decide before:" in verify["text"]
        assert flows.decide(wrun["id"], "verify").status_code == 200
        assert flows.wait(wrun["id"])["status"] == "successful"
        settle(0.5)

        assert len(receiver.requests) == 2  # each approval once
        sent = wait_messages(client, project, approvers["id"], done=2)
        assert sorted((m["node_key"], m["workflow_run_id"], m["run_id"]) for m in sent) == [
            ("gate", wrun["id"], None),
            ("verify", wrun["id"], None),
        ]
        assert {m["status"] for m in sent} == {"sent"}
        # the run-only destination heard of the ship run, never of an approval
        others_said = [r.json()["event"] for r in others.wait_for(1)]
        assert "approval_needed" not in others_said
        assert "succeeded" in others_said
        assert off.requests == []
        assert messages(client, project, disabled["id"]) == []


def test_a_template_subscription_hears_of_the_approvals_of_workflows_that_run_its_template(
    workbench: Workbench, receiver: HttpReceiver
) -> None:
    """A subscription scoped to a template is told of an approval waiting in a workflow run
    with a node running that template (before or after it); one scoped to a template the
    workflow does not run is not; a destination reached twice is told once."""
    client, project = workbench.client, workbench.project_id
    flows = Workflows(client, project)
    ok = workbench.template("ok.yml", name="ok")
    other = workbench.template("ok.yml", name="other")

    def destination(name: str, template_id: int | None, *more: int | None) -> int:
        made = webhook_destination(client, project, receiver.url(f"/{name}"), SECRET, name=name)
        for scope in (template_id, *more):
            body: dict[str, Any] = {"destination_id": made["id"], "events": ["approval_needed"]}
            if scope is not None:
                body["template_id"] = scope
            subscribe(client, project, **body)
        return int(made["id"])

    follows_ok = destination("follows-ok", ok)
    follows_other = destination("follows-other", other)
    twice = destination("twice", None, ok)  # project-wide and ok's
    wf = flows.create(
        [approval_node("gate", "Ship it?", must_differ=False), template_node("ship", ok)],
        [edge("gate", "ship")],
        name="release",
    )
    wrun = flows.launch(wf["id"])
    told = [r for r in receiver.wait_for(2)]
    settle(0.5)
    assert sorted(r.path for r in receiver.requests) == ["/follows-ok", "/twice"]
    assert {r.json()["node"]["key"] for r in told} == {"gate"}
    for destination_id in (follows_ok, twice):
        sent = wait_messages(client, project, destination_id, done=1)
        assert [(m["event"], m["workflow_run_id"], m["node_key"]) for m in sent] == [
            ("approval_needed", wrun["id"], "gate")
        ]
    assert messages(client, project, follows_other) == []
    assert flows.decide(wrun["id"], "gate").status_code == 200
    assert flows.wait(wrun["id"])["status"] == "successful"


def test_a_schedule_subscription_hears_of_the_approvals_of_the_workflow_runs_it_launched(
    workbench: Workbench, receiver: HttpReceiver, database_url: str
) -> None:
    """A schedule that launches a workflow: its subscriptions are told of the approvals of the
    workflow runs it launched; another schedule's are not, nor of a run launched by hand."""
    client, project = workbench.client, workbench.project_id
    flows = Workflows(client, project)
    ok = workbench.template("ok.yml", name="ok")
    wf = flows.create([approval_node("gate", "Ship it?"), template_node("ship", ok)], [])
    nightly, weekly = (
        client.post(
            workbench.url("schedules"),
            json={"name": name, "kind": "cron", "expression": YEARLY, "workflow_id": wf["id"]},
        ).json()
        for name in ("nightly", "weekly")
    )
    ids = {}
    for schedule in (nightly, weekly):
        made = webhook_destination(
            client, project, receiver.url(f"/{schedule['name']}"), SECRET, name=schedule["name"]
        )
        subscribe(
            client,
            project,
            destination_id=made["id"],
            events=["approval_needed"],
            schedule_id=schedule["id"],
        )
        ids[schedule["name"]] = made["id"]
    by_hand = flows.launch(wf["id"])
    make_due(database_url, nightly["id"])
    wrun_id = wait_until(
        lambda: client.get(workbench.url(f"schedules/{nightly['id']}")).json()[
            "last_workflow_run_id"
        ],
        timeout=20,
        what="the nightly schedule fired",
    )
    told = receiver.wait_for(1)
    settle(0.5)
    assert [r.path for r in receiver.requests] == ["/nightly"]
    assert told[0].json()["workflow_run"]["id"] == wrun_id != by_hand["id"]
    sent = wait_messages(client, project, ids["nightly"], done=1)
    assert [(m["workflow_run_id"], m["node_key"]) for m in sent] == [(wrun_id, "gate")]
    assert messages(client, project, ids["weekly"]) == []
