"""Retention of workflow runs (on both databases): ended workflow runs older than the runs'
period go with their nodes; one still running stays however old; a node whose run was removed
reads it as ``gone``, and its workflow run's page and decisions still answer."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy import func, select, update
from support.builders import Workbench
from support.workflows import Workflows, approval_node, edge, node_waiting, nodes, template_node

from steward.db import utcnow
from steward.retention import service
from steward.retention.service import Periods
from steward.runs.models import Run
from steward.workflows.models import WorkflowNodeRun, WorkflowRun

# PostgreSQL too: bulk deletes of workflow runs and the rows that point at them
pytestmark = [pytest.mark.both_databases, pytest.mark.loops("workflows")]


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


def test_ended_workflow_runs_go_with_their_nodes_running_ones_stay_and_read_gone_runs(
    workbench: Workbench, flows: Workflows
) -> None:
    client = workbench.client
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    ok = workbench.template("ok.yml", name="ok")
    single = flows.create([template_node("only", ok)], [], name="single")
    done = flows.wait(flows.launch(single["id"])["id"])
    assert done["status"] == "successful", done
    asking = flows.create([approval_node("gate")], [], name="asking")
    canceled = flows.launch(asking["id"])["id"]
    cancel = client.post(workbench.url(f"workflow-runs/{canceled}/cancel"))
    assert cancel.status_code == 200, cancel.text
    assert flows.wait(canceled)["status"] == "canceled"
    recent = flows.launch(asking["id"])["id"]  # ended recently (no playbook needed): kept
    assert client.post(workbench.url(f"workflow-runs/{recent}/cancel")).status_code == 200
    assert flows.wait(recent)["status"] == "canceled"
    gated = flows.create(
        [
            template_node("first", ok),
            approval_node("gate", must_differ=False),
            template_node("last", ok),
        ],
        [edge("first", "gate"), edge("gate", "last")],
        name="gated",
    )
    waiting = flows.wait(flows.launch(gated["id"])["id"], until=node_waiting("gate"))
    first_run = nodes(waiting)["first"]["run_id"]
    assert nodes(waiting)["first"]["run_status"] == "successful"

    past = utcnow() - dt.timedelta(days=40)
    old_runs = [nodes(done)["only"]["run_id"], first_run]
    with runtime.sessions() as session:
        session.execute(update(Run).where(Run.id.in_(old_runs)).values(finished_at=past))
        ended = [done["id"], canceled]
        session.execute(
            update(WorkflowRun).where(WorkflowRun.id.in_(ended)).values(finished_at=past)
        )
        session.execute(  # running for 40 days: never removed
            update(WorkflowRun).where(WorkflowRun.id == waiting["id"]).values(created_at=past)
        )
        session.commit()

        pruned = service.prune(session, Periods(runs=30), batch=1)

        assert (pruned.runs, pruned.workflow_runs) == (2, 2)
        left = select(func.count()).select_from(WorkflowNodeRun)
        for wrun_id in ended:
            assert session.scalar(left.where(WorkflowNodeRun.workflow_run_id == wrun_id)) == 0
        assert session.scalar(left.where(WorkflowNodeRun.workflow_run_id == waiting["id"])) == 3

    for wrun_id in ended:
        assert client.get(workbench.url(f"workflow-runs/{wrun_id}")).status_code == 404
    assert flows.read(recent)["status"] == "canceled"  # recent: kept
    listed = client.get(workbench.url("workflow-runs")).json()["items"]
    assert sorted(w["id"] for w in listed) == sorted([recent, waiting["id"]])

    # the workflow run under way keeps its page: its first node's run reads as gone
    page = flows.read(waiting["id"])
    first = nodes(page)["first"]
    assert (first["status"], first["run_id"], first["run_status"]) == (
        "successful",
        first_run,
        "gone",
    )
    assert client.get(workbench.url(f"runs/{first_run}")).status_code == 404
    assert flows.decide(waiting["id"], "gate").status_code == 200
    finished = flows.wait(waiting["id"])
    assert finished["status"] == "successful", finished
    assert nodes(finished)["last"]["run_status"] == "successful"
    assert nodes(finished)["first"]["run_status"] == "gone"

    audit = client.get("/api/v1/audit", params={"action": "retention:prune"}).json()["items"]
    assert [a["detail"].split("; ")[0] for a in audit] == [
        "removed 2 runs older than 30 days, 2 workflow runs older than 30 days"
    ]
