"""Separation of duties on approval nodes (``workflows.approvers``), below HTTP on both
databases: the launcher of a workflow run may not approve it while the node says
``approver_must_differ`` (the default, admins too), may deny it; another user with
workflow:approve approves and the run goes on; the option off lets the launcher approve; a
schedule-fired run's launcher is the schedule's owner; documents saved before the option read
as on. One HTTP test for the routes' wiring (the 403 problem+json, and what the read says)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.schedules import YEARLY, make_due
from support.waits import wait_until
from support.workflows import Workflows, approval_node, edge, nodes, template_node

from steward.access.actor import Actor
from steward.access.policy import access
from steward.auth.models import TokenScope, User
from steward.config import Settings
from steward.errors import InvalidState, PermissionDenied
from steward.notifications import messages
from steward.notifications.models import Message
from steward.projects.models import Project
from steward.workflows import service
from steward.workflows.models import NodeStatus, Workflow, WorkflowNodeRun

pytestmark = pytest.mark.loops("workflows", "scheduler")

OWN = "the approval of node 'gate' needs someone other than {}, who launched this run"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Workflows passed and schedules fired every 0.1 s."""
    return settings.model_copy(update={"workflow_tick_seconds": 0.1, "scheduler_tick_seconds": 0.1})


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def ok(workbench: Workbench) -> int:
    return workbench.template("ok.yml", name="ok")


@pytest.fixture
def people(workbench: Workbench) -> None:
    """alice and bob, operators of the project (workflow:approve, run:launch); carol, a
    manager (schedules); vic, a viewer."""
    for name, role in (("alice", "operator"), ("bob", "operator"), ("carol", "manager"),
                       ("vic", "viewer")):  # fmt: skip
        user = make_user(workbench.client, name)
        body = {"user_id": user["id"], "role": role}
        assert workbench.client.put(workbench.url("members"), json=body).status_code == 200


class Service:
    """The workflow service called as a user would call it through a route: their actor, their
    rights in the project, a session of its own per call."""

    def __init__(self, workbench: Workbench) -> None:
        app: Any = workbench.client.app
        self.runtime, self.queue = app.state.runtime, app.state.queue
        self.project_id = workbench.project_id

    def _as(self, session: Any, username: str) -> tuple[Actor, Any]:
        user = session.scalars(select(User).where(User.username == username)).one()
        actor = Actor(user, TokenScope.WRITE, "session")
        return actor, access(session, actor, session.get_one(Project, self.project_id))

    def launch(self, username: str, workflow_id: int) -> int:
        with self.runtime.sessions() as session:
            actor, rights = self._as(session, username)
            workflow = service.get(session, rights.project, workflow_id)
            request = service.Launch(rights, actor, workflow)
            wrun = service.launch(session, request, cipher=self.runtime.cipher, queue=self.queue)
            return wrun.id

    def decide(
        self, username: str, wrun_id: int, key: str = "gate", *, approve: bool = True
    ) -> tuple[str, str]:
        """The decided node's (status, reason); PermissionDenied as raised."""
        with self.runtime.sessions() as session:
            actor, rights = self._as(session, username)
            wrun = service.get_run(session, rights.project, wrun_id)
            node = service.decide(
                session,
                self.runtime.cipher,
                self.queue,
                rights,
                wrun,
                key,
                approve=approve,
                comment="",
                actor=actor,
            )
            return node.status, node.reason

    def node(self, wrun_id: int, key: str = "gate") -> WorkflowNodeRun:
        with self.runtime.sessions() as session:
            found: WorkflowNodeRun = session.scalars(
                select(WorkflowNodeRun).where(
                    WorkflowNodeRun.workflow_run_id == wrun_id, WorkflowNodeRun.key == key
                )
            ).one()
            return found


@pytest.fixture
def svc(workbench: Workbench, people: None) -> Service:
    return Service(workbench)


def gated(flows: Workflows, ok: int, **option: Any) -> int:
    """A workflow: the approval 'gate', then a run of ``ok`` on success."""
    made = flows.create(
        [approval_node("gate", "ship it?", **option), template_node("ship", ok)],
        [edge("gate", "ship")],
        name=f"gated-{len(flows.api.get(f'{flows.base}/workflows').json()['items'])}",
    )
    return int(made["id"])


def test_the_launcher_may_not_approve_and_another_approver_lets_the_run_go_on(
    workbench: Workbench, flows: Workflows, svc: Service, ok: int
) -> None:
    wrun = svc.launch("alice", gated(flows, ok))
    assert svc.node(wrun).approver_must_differ is True  # the default, copied into the run
    with pytest.raises(PermissionDenied) as refused:
        svc.decide("alice", wrun)
    assert refused.value.message == OWN.format("alice")
    assert svc.node(wrun).status == NodeStatus.WAITING  # nothing decided
    assert svc.node(wrun).decided_by == ""

    assert svc.decide("bob", wrun) == (NodeStatus.SUCCESSFUL, "approved by bob")
    done = flows.wait(wrun)
    assert done["status"] == "successful", done
    assert nodes(done)["ship"]["status"] == "successful"
    actions = [
        a["action"]
        for a in workbench.client.get(
            "/api/v1/audit", params={"object_type": "workflow_run", "object_id": wrun}
        ).json()["items"]
    ]
    assert actions.count("workflow:approve") == 1  # bob's; the refusal changed nothing


def test_the_launcher_may_deny_their_own_request(flows: Workflows, svc: Service, ok: int) -> None:
    wrun = svc.launch("alice", gated(flows, ok))
    assert svc.decide("alice", wrun, approve=False) == (NodeStatus.FAILED, "denied by alice")
    done = flows.wait(wrun)
    assert nodes(done)["ship"]["status"] == "skipped"


def test_an_admin_who_launched_it_is_refused_too(flows: Workflows, svc: Service, ok: int) -> None:
    wrun = svc.launch("admin", gated(flows, ok))
    with pytest.raises(PermissionDenied) as refused:
        svc.decide("admin", wrun)
    assert refused.value.message == OWN.format("admin")
    assert svc.decide("alice", wrun) == (NodeStatus.SUCCESSFUL, "approved by alice")


def test_with_the_option_off_the_launcher_approves(flows: Workflows, svc: Service, ok: int) -> None:
    wrun = svc.launch("alice", gated(flows, ok, must_differ=False))
    assert svc.node(wrun).approver_must_differ is False
    assert svc.decide("alice", wrun) == (NodeStatus.SUCCESSFUL, "approved by alice")
    assert flows.wait(wrun)["status"] == "successful"


def test_the_permission_comes_first_and_a_decided_node_is_a_409_for_anyone(
    flows: Workflows, svc: Service, ok: int
) -> None:
    wrun = svc.launch("alice", gated(flows, ok))
    with pytest.raises(PermissionDenied) as viewer:
        svc.decide("vic", wrun)
    assert viewer.value.message == "permission 'workflow:approve' is required in project 'bench'"
    svc.decide("bob", wrun)
    # decided for good: a 409 saying so, to the launcher too (nothing left to separate)
    with pytest.raises(InvalidState, match="not waiting for a decision: it is 'successful'"):
        svc.decide("alice", wrun)


def test_a_schedule_fired_run_is_launched_by_the_schedules_owner(
    workbench: Workbench, flows: Workflows, svc: Service, ok: int, database_url: str
) -> None:
    workflow_id = gated(flows, ok)
    carol = TestClient(workbench.client.app, headers=bearer(token(workbench.client, "carol")))
    body = {"name": "nightly", "kind": "cron", "expression": YEARLY, "workflow_id": workflow_id}
    made = carol.post(workbench.url("schedules"), json=body)
    assert made.status_code == 201, made.text
    make_due(database_url, made.json()["id"])
    wrun = wait_until(
        lambda: carol.get(workbench.url(f"schedules/{made.json()['id']}")).json()[
            "last_workflow_run_id"
        ],
        timeout=20,
        what="the schedule fired",
    )
    read = flows.wait(wrun, until=lambda w: nodes(w)["gate"]["status"] == "waiting")
    assert (read["launch_type"], read["launched_by"]) == ("schedule", "carol")
    with pytest.raises(PermissionDenied) as refused:
        svc.decide("carol", wrun)
    assert refused.value.message == OWN.format("carol")
    assert svc.decide("bob", wrun) == (NodeStatus.SUCCESSFUL, "approved by bob")


def test_a_document_saved_before_the_option_reads_as_on(
    workbench: Workbench, flows: Workflows, svc: Service, ok: int
) -> None:
    workflow_id = gated(flows, ok, must_differ=False)
    with svc.runtime.sessions() as session:  # as stored before approver_must_differ existed
        row = session.get_one(Workflow, workflow_id)
        row.nodes = [{k: v for k, v in n.items() if k != "approver_must_differ"} for n in row.nodes]
        session.commit()
    read = workbench.client.get(workbench.url(f"workflows/{workflow_id}")).json()
    assert [n["approver_must_differ"] for n in read["nodes"]] == [True, None]
    exported = workbench.client.get(f"/api/v1/projects/{workbench.project_id}/export").json()
    [gate] = [n for n in exported["workflows"][0]["nodes"] if n["key"] == "gate"]
    assert gate["approver_must_differ"] is True
    wrun = svc.launch("alice", workflow_id)
    with pytest.raises(PermissionDenied):
        svc.decide("alice", wrun)
    # saved again without the field (a PATCH of the name keeps the nodes): still on, now said
    renamed = workbench.client.patch(workbench.url(f"workflows/{workflow_id}"), json={"nodes": [
        {k: v for k, v in n.items() if k not in ("template_name", "approver_must_differ")}
        for n in read["nodes"]
    ]})  # fmt: skip
    assert renamed.status_code == 200, renamed.text
    with svc.runtime.sessions() as session:
        stored = session.get_one(Workflow, workflow_id).nodes
    assert stored[0]["approver_must_differ"] is True


def test_only_approval_nodes_take_the_option(flows: Workflows, ok: int) -> None:
    node = {**template_node("ship", ok), "approver_must_differ": True}
    answer = flows.api.post(f"{flows.base}/workflows", json={"name": "w", "nodes": [node]})
    detail = assert_problem(answer, 422, "nodes.0.approver_must_differ")
    assert "only approval nodes" in detail


def test_the_approval_needed_message_says_who_may_approve(
    flows: Workflows, svc: Service, ok: int
) -> None:
    wrun = svc.launch("alice", gated(flows, ok))
    with svc.runtime.sessions() as session:
        told = messages.for_approval(
            session, Message(workflow_run_id=wrun, node_key="gate"), "https://steward.example"
        )
    assert told["node"]["approver_must_differ"] is True
    assert (
        "May approve: a global admin or a project operator, manager or owner (permission"
        " 'workflow:approve'), other than alice, who launched this run"
    ) in told["text"]


# --- the routes ----------------------------------------------------------------------------


def test_the_routes_refuse_self_approval_and_say_who_may_approve(
    workbench: Workbench, flows: Workflows, people: None, ok: int
) -> None:
    client = workbench.client

    def as_(name: str) -> TestClient:
        return TestClient(client.app, headers=bearer(token(client, name)))

    alice, bob, vic = as_("alice"), as_("bob"), as_("vic")
    launched = alice.post(workbench.url(f"workflows/{gated(flows, ok)}/launch"))
    assert launched.status_code == 201, launched.text
    wrun = launched.json()["id"]
    url = workbench.url(f"workflow-runs/{wrun}")

    seen = nodes(alice.get(url).json())
    assert seen["ship"]["approval"] is None
    said = seen["gate"]["approval"]
    assert said == {
        "permission": "workflow:approve",
        "roles": ["operator", "manager", "owner"],
        "approver_must_differ": True,
        "excluded": "alice",
        "who": "a global admin or a project operator, manager or owner (permission"
        " 'workflow:approve'), other than alice, who launched this run",
        "can_approve": False,
        "approve_reason": OWN.format("alice"),
        "can_deny": True,
        "deny_reason": "",
    }
    theirs = nodes(bob.get(url).json())["gate"]["approval"]
    assert (theirs["can_approve"], theirs["approve_reason"], theirs["can_deny"]) == (
        True,
        "",
        True,
    )
    viewer = nodes(vic.get(url).json())["gate"]["approval"]
    assert viewer["can_approve"] is viewer["can_deny"] is False
    assert "'workflow:approve'" in viewer["approve_reason"]

    refused = alice.post(f"{url}/nodes/gate/approve", json={"comment": "mine"})
    assert refused.headers["content-type"].startswith("application/problem+json")
    assert assert_problem(refused, 403, "gate") == OWN.format("alice")
    approved = bob.post(f"{url}/nodes/gate/approve")
    assert approved.status_code == 200, approved.text
    assert nodes(approved.json())["gate"]["decided_by"] == "bob"
    assert flows.wait(wrun)["status"] == "successful"
