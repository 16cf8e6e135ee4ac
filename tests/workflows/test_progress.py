"""Workflow runs with real ansible-playbook runs: success, failure and always
edges, convergence, approvals (approve, deny, timeout), cancel; every node run a normal run."""

from __future__ import annotations

import pytest
from support.builders import Workbench
from support.workflows import (
    Workflows,
    approval_node,
    edge,
    nodes,
    statuses,
    template_node,
)

pytestmark = pytest.mark.loops("workflows")


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def ok(workbench: Workbench) -> int:
    return workbench.template("ok.yml", name="ok", overridable=["extra_vars"])


@pytest.fixture
def fail(workbench: Workbench) -> int:
    return workbench.template("fail.yml", name="fail")


def test_success_path_runs_in_order_as_normal_runs(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    wf = flows.create(
        [template_node("first", ok, extra_vars={"who": "one"}), template_node("second", ok)],
        [edge("first", "second")],
    )
    launched = flows.launch(wf["id"])
    assert launched["status"] == "running"
    first = nodes(launched)["first"]
    assert first["status"] == "running"
    assert first["run_id"] is not None
    assert nodes(launched)["second"]["status"] == "pending"

    done = flows.wait(launched["id"])
    assert done["status"] == "successful", done
    assert statuses(done) == {"first": "successful", "second": "successful"}
    runs = [workbench.run(n["run_id"]) for n in done["nodes"]]
    assert [r["status"] for r in runs] == ["successful", "successful"]
    assert all(r["launch_type"] == "workflow" for r in runs)
    assert all(r["workflow_run_id"] == launched["id"] for r in runs)
    assert all(r["launched_by"] == "admin" for r in runs)
    assert runs[0]["created_at"] < runs[1]["created_at"]
    assert runs[1]["started_at"] >= runs[0]["finished_at"]
    assert any("hello one" in line for line in workbench.lines(runs[0]["id"]))
    assert any("hello world" in line for line in workbench.lines(runs[1]["id"]))


def test_failure_edge_runs_and_the_workflow_succeeds(flows: Workflows, ok: int, fail: int) -> None:
    wf = flows.create(
        [
            template_node("deploy", fail),
            template_node("rollback", ok),
            template_node("announce", ok),
        ],
        [edge("deploy", "rollback", "failure"), edge("deploy", "announce", "success")],
    )
    done = flows.wait(flows.launch(wf["id"])["id"])
    assert statuses(done) == {"deploy": "failed", "rollback": "successful", "announce": "skipped"}
    assert done["status"] == "successful", done
    assert "run" in nodes(done)["deploy"]["reason"]
    assert "failed" in nodes(done)["deploy"]["reason"]
    assert nodes(done)["announce"]["run_id"] is None


def test_unhandled_failure_fails_the_workflow_and_always_edges_fire(
    flows: Workflows, ok: int, fail: int
) -> None:
    wf = flows.create(
        [template_node("step", fail), template_node("cleanup", ok), template_node("next", ok)],
        [edge("step", "cleanup", "always"), edge("step", "next")],
    )
    done = flows.wait(flows.launch(wf["id"])["id"])
    # an always edge counts as handling: the workflow is judged by what was handled
    assert statuses(done) == {"step": "failed", "cleanup": "successful", "next": "skipped"}
    assert done["status"] == "successful"

    alone = flows.create([template_node("step", fail)], [], name="alone")
    done = flows.wait(flows.launch(alone["id"])["id"])
    assert done["status"] == "failed"
    assert "'step' failed" in done["status_reason"]


@pytest.mark.both_databases
def test_convergence_runs_a_join_once_after_all_parents(
    workbench: Workbench, flows: Workflows, ok: int, fail: int
) -> None:
    wf = flows.create(
        [
            template_node("a", ok),
            template_node("b", fail),
            template_node("join", ok),
            template_node("never", ok),
        ],
        [
            edge("a", "join", "success"),  # fires
            edge("b", "join", "success"),  # does not fire: "any" convergence still runs join
            edge("b", "never", "success"),
            edge("a", "never", "failure"),
        ],
    )
    launched = flows.launch(wf["id"])
    assert {k for k, s in statuses(launched).items() if s == "running"} == {"a", "b"}
    done = flows.wait(launched["id"])
    assert statuses(done) == {
        "a": "successful",
        "b": "failed",
        "join": "successful",
        "never": "skipped",
    }
    join = workbench.run(nodes(done)["join"]["run_id"])
    parents = [workbench.run(nodes(done)[k]["run_id"]) for k in ("a", "b")]
    assert all(join["created_at"] >= p["finished_at"] for p in parents)
    # b failed with no failure edge of its own: the workflow fails
    assert done["status"] == "failed"
    listed = workbench.client.get(workbench.url("runs"), params={"limit": 50}).json()["items"]
    assert sum(r["workflow_run_id"] == launched["id"] for r in listed) == 3  # join ran once


def test_approval_approved_runs_the_success_path(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    wf = flows.create(
        [
            approval_node("gate", "ship it?", must_differ=False),
            template_node("ship", ok),
            template_node("no", ok),
        ],
        [edge("gate", "ship"), edge("gate", "no", "failure")],
    )
    launched = flows.launch(wf["id"])
    gate = nodes(launched)["gate"]
    assert gate["status"] == "waiting"
    assert gate["deadline_at"] is None
    assert launched["can_decide"] is True
    answer = flows.decide(launched["id"], "gate", "approve", "looks good")
    assert answer.status_code == 200, answer.text
    decided = nodes(answer.json())["gate"]
    assert decided["status"] == "successful"
    assert decided["decided_by"] == "admin"
    assert decided["decided_at"]
    assert decided["reason"] == "approved by admin: looks good"
    done = flows.wait(launched["id"])
    assert statuses(done) == {"gate": "successful", "ship": "successful", "no": "skipped"}
    assert done["status"] == "successful"
    again = flows.decide(launched["id"], "gate", "deny")
    assert again.status_code == 409
    assert "not waiting" in again.json()["detail"]
    audit = workbench.client.get(
        "/api/v1/audit", params={"object_type": "workflow_run", "object_id": launched["id"]}
    ).json()["items"]
    assert {"workflow:launch", "workflow:approve"} <= {a["action"] for a in audit}


def test_approval_denied_takes_the_failure_edge(flows: Workflows, ok: int) -> None:
    wf = flows.create(
        [approval_node("gate"), template_node("ship", ok), template_node("tell", ok)],
        [edge("gate", "ship"), edge("gate", "tell", "failure")],
    )
    launched = flows.launch(wf["id"])
    answer = flows.decide(launched["id"], "gate", "deny", "not today")
    assert answer.status_code == 200, answer.text
    done = flows.wait(launched["id"])
    assert statuses(done) == {"gate": "failed", "ship": "skipped", "tell": "successful"}
    assert nodes(done)["gate"]["reason"] == "denied by admin: not today"
    assert done["status"] == "successful"

    alone = flows.create([approval_node("gate")], [], name="alone")
    wrun = flows.launch(alone["id"])
    assert flows.decide(wrun["id"], "gate", "deny").status_code == 200
    assert flows.wait(wrun["id"])["status"] == "failed"


def test_approval_timeout_fails_it_and_a_late_decision_is_refused(
    flows: Workflows, ok: int
) -> None:
    wf = flows.create(
        [approval_node("gate", timeout=1), template_node("late", ok)],
        [edge("gate", "late", "failure")],
    )
    launched = flows.launch(wf["id"])
    assert nodes(launched)["gate"]["deadline_at"] is not None
    done = flows.wait(launched["id"])
    gate = nodes(done)["gate"]
    assert gate["status"] == "failed"
    assert gate["reason"].startswith("timed out")
    assert gate["decided_by"] == ""
    assert nodes(done)["late"]["status"] == "successful"
    assert done["status"] == "successful"
    late = flows.decide(launched["id"], "gate", "approve")
    assert late.status_code == 409, late.text


def test_cancel_stops_the_running_node_and_skips_the_rest(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    slow = workbench.template("slow.yml", name="slow")
    wf = flows.create(
        [template_node("slow", slow), template_node("after", ok), approval_node("gate")],
        [edge("slow", "after", "always"), edge("after", "gate")],
    )
    launched = flows.launch(wf["id"])
    run_id = nodes(launched)["slow"]["run_id"]
    workbench.wait(run_id, until=lambda r: r["status"] == "running")
    answer = workbench.client.post(workbench.url(f"workflow-runs/{launched['id']}/cancel"))
    assert answer.status_code == 200, answer.text
    assert answer.json()["cancel_requested_at"] is not None
    done = flows.wait(launched["id"], timeout=30)
    assert done["status"] == "canceled"
    assert statuses(done) == {"slow": "canceled", "after": "canceled", "gate": "canceled"}
    assert workbench.run(run_id)["status"] == "canceled"
    again = workbench.client.post(workbench.url(f"workflow-runs/{launched['id']}/cancel"))
    assert again.status_code == 409


def test_a_node_whose_run_waits_for_a_slot_reads_its_run_queued(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    """The node is ``running`` from its launch; its run's own status says whether it still
    waits for a slot (``queued``) or runs, so the console can tell them apart. Also the node's
    start and end, the console's duration."""
    limited = workbench.client.patch(
        f"/api/v1/projects/{workbench.project_id}", json={"max_parallel_runs": 1}
    )
    assert limited.status_code == 200, limited.text
    blocker = workbench.launch(workbench.template("slow.yml", timeout_seconds=3))
    workbench.wait(blocker["id"], until=lambda r: r["status"] == "running", timeout=30)
    wf = flows.create([template_node("only", ok)], [])
    launched = flows.launch(wf["id"])
    only = nodes(flows.read(launched["id"]))["only"]
    assert (only["status"], only["run_status"]) == ("running", "queued")
    assert workbench.run(only["run_id"])["status"] == "queued"
    assert only["started_at"] is not None
    assert only["finished_at"] is None
    assert workbench.wait(blocker["id"])["status"] == "timed_out"
    done = flows.wait(launched["id"])
    only = nodes(done)["only"]
    assert (only["status"], only["run_status"]) == ("successful", "successful")
    assert only["finished_at"] >= only["started_at"]


@pytest.mark.both_databases
def test_list_pages_and_filters(workbench: Workbench, flows: Workflows) -> None:
    one = flows.create([approval_node("gate")], [], name="one")
    two = flows.create([approval_node("gate")], [], name="two")
    ids = [flows.launch(one["id"])["id"] for _ in range(3)] + [flows.launch(two["id"])["id"]]
    url = workbench.url("workflow-runs")
    page = workbench.client.get(url, params={"limit": 2}).json()
    assert [w["id"] for w in page["items"]] == ids[::-1][:2]
    assert page["items"][0]["nodes"] == []  # nodes only in the read of one
    rest = workbench.client.get(url, params={"limit": 2, "before_id": page["next_before_id"]})
    assert [w["id"] for w in rest.json()["items"]] == ids[::-1][2:]
    assert rest.json()["next_before_id"] is None
    only = workbench.client.get(url, params={"workflow_id": two["id"]}).json()["items"]
    assert [w["id"] for w in only] == [ids[-1]]
    assert only[0]["workflow_name"] == "two"
