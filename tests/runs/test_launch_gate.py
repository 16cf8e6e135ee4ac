"""The one launch gate, below HTTP: every trigger's run goes through ``runs.service.launch``,
which refuses it without run:launch on the template, whoever asks and however.

Each path is tried by someone who only sees the template (a viewer: template:view, no
run:launch), then, as its control, by someone allowed (an operator, or the owner still a
manager): the same call launches.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support.builders import Workbench, bearer, make_user, token
from support.webhooks import SECRET, github_headers
from support.workflows import Workflows, approval_node, edge, template_node

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess, access
from steward.auth.models import TokenScope, User
from steward.db import utcnow
from steward.errors import PermissionDenied
from steward.projects.models import Project
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.schedules import firing
from steward.schedules.models import Schedule
from steward.templates.launch import LaunchOverrides
from steward.webhooks import receive
from steward.webhooks.models import DeliveryOutcome, Webhook
from steward.workflows import service as workflows
from steward.workflows.models import NodeStatus, WorkflowNodeRun

pytestmark = pytest.mark.security


class App:
    """The app's own sessions, cipher and queue: the services called as its routes and loops
    call them."""

    def __init__(self, workbench: Workbench) -> None:
        app: Any = workbench.client.app
        self.runtime, self.queue = app.state.runtime, app.state.queue
        self.cipher = self.runtime.cipher
        self.workbench = workbench

    def session(self) -> Session:
        session: Session = self.runtime.sessions()
        return session

    def rights(self, session: Session, username: str) -> tuple[Actor, ProjectAccess]:
        user = session.scalars(select(User).where(User.username == username)).one()
        actor = Actor(user, TokenScope.WRITE, "session")
        project = session.get_one(Project, self.workbench.project_id)
        return actor, access(session, actor, project)

    def member(self, username: str, role: str) -> tuple[TestClient, int]:
        """A new user holding ``role`` in the project: a client acting as them, their id."""
        client = self.workbench.client
        user = make_user(client, username)
        self.set_role(user["id"], role)
        other = TestClient(client.app, base_url="http://testserver")
        other.headers.update(bearer(token(client, username)))
        return other, int(user["id"])

    def set_role(self, user_id: int, role: str) -> None:
        body = {"user_id": user_id, "role": role}
        answer = self.workbench.client.put(self.workbench.url("members"), json=body)
        assert answer.status_code == 200, answer.text

    def runs_of(self, template_id: int) -> int:
        with self.session() as session:
            return (
                session.scalar(
                    select(func.count()).select_from(Run).where(Run.template_id == template_id)
                )
                or 0
            )


@pytest.fixture
def app(workbench: Workbench) -> App:
    return App(workbench)


@pytest.fixture
def template(workbench: Workbench) -> int:
    return workbench.template("ok.yml")


def _launch(app: App, username: str, template_id: int) -> Run:
    with app.session() as session:
        actor, rights = app.rights(session, username)
        request = runs.Launch(
            rights, actor, template_id, LaunchOverrides(), runs.Trigger(LaunchType.API)
        )
        return runs.launch_now(session, request, cipher=app.cipher, queue=app.queue)


def test_a_launch_needs_run_launch(app: App, template: int) -> None:
    app.member("viewer", "viewer")
    app.member("operator", "operator")
    with pytest.raises(PermissionDenied) as refused:
        _launch(app, "viewer", template)
    assert f"permission 'run:launch' is required on template {template}" in refused.value.message
    assert app.runs_of(template) == 0

    run = _launch(app, "operator", template)  # the control
    assert app.runs_of(template) == 1
    assert run.launch_type == LaunchType.API


def test_a_relaunch_needs_run_launch(app: App, workbench: Workbench, template: int) -> None:
    first = workbench.launch(template)["id"]
    app.member("viewer", "viewer")
    app.member("operator", "operator")

    def relaunch(username: str) -> Run:
        with app.session() as session:
            actor, rights = app.rights(session, username)
            return runs.relaunch(
                session,
                rights=rights,
                actor=actor,
                previous=session.get_one(Run, first),
                overrides=LaunchOverrides(),
                failed_only=False,
                cipher=app.cipher,
                queue=app.queue,
            )

    with pytest.raises(PermissionDenied) as refused:
        relaunch("viewer")
    assert "'run:launch'" in refused.value.message
    assert app.runs_of(template) == 1

    again = relaunch("operator")
    assert (again.relaunch_of_id, app.runs_of(template)) == (first, 2)


def _fire(app: App, schedule_id: int) -> list[int]:
    """The schedule's occurrence as the scheduler fires it (its yearly one, claimed now)."""
    with app.session() as session:
        schedule = session.get_one(Schedule, schedule_id)
        assert schedule.next_fire_at is not None
        plan = firing.Plan(
            schedule_id=schedule.id,
            due=schedule.next_fire_at,
            updated_at=schedule.updated_at,
            next_fire_at=schedule.next_fire_at + dt.timedelta(days=366),
            launch=True,
        )
        return firing.fire(session, app.cipher, app.queue, [plan], utcnow())


@pytest.mark.parametrize("demoted", [True, False], ids=["owner-lost-the-right", "control"])
def test_a_schedule_fires_only_while_its_owner_may_launch(
    app: App, workbench: Workbench, template: int, demoted: bool
) -> None:
    bob, bob_id = app.member("bob", "manager")
    url = workbench.url(f"templates/{template}/schedules")
    made = bob.post(url, json={"name": "yearly", "kind": "cron", "expression": "0 0 1 1 *"})
    assert made.status_code == 201, made.text
    if demoted:
        app.set_role(bob_id, "viewer")

    launched = _fire(app, made.json()["id"])

    with app.session() as session:
        schedule = session.get_one(Schedule, made.json()["id"])
        if demoted:
            assert launched == []
            assert not schedule.enabled
            assert schedule.disabled_reason.startswith(
                "its owner 'bob' may no longer launch template 'ok': permission 'run:launch'"
            )
            assert app.runs_of(template) == 0
        else:
            assert (schedule.enabled, schedule.last_run_id) == (True, launched[0])
            assert app.runs_of(template) == 1


@pytest.mark.parametrize("demoted", [True, False], ids=["owner-lost-the-right", "control"])
def test_a_webhook_launches_only_while_its_owner_may_launch(
    app: App, workbench: Workbench, template: int, demoted: bool
) -> None:
    secret = workbench.key(name="hook-secret", kind="secret", value=SECRET)
    bob, bob_id = app.member("bob", "manager")
    made = bob.post(
        workbench.url(f"templates/{template}/webhooks"),
        json={"name": "hook", "auth": "github", "secret_key_id": secret},
    )
    assert made.status_code == 201, made.text
    if demoted:
        app.set_role(bob_id, "viewer")
    body = json.dumps({"ref": "refs/heads/main"}).encode()
    headers = {name.lower(): value for name, value in github_headers(body).items()}

    with app.session() as session:
        webhook = session.get_one(Webhook, made.json()["id"])
        inbound = receive.Inbound(body, too_large=False, headers=headers, source_ip="127.0.0.1")
        received = receive.deliver(session, app.cipher, app.queue, webhook, inbound)

    if demoted:
        assert (received.status, received.outcome, received.run_id) == (
            409,
            DeliveryOutcome.FAILED,
            None,
        )
        assert received.reason.startswith("its owner 'bob' may no longer launch template 'ok'")
        assert "'run:launch'" in received.reason
        assert app.runs_of(template) == 0
        with app.session() as session:
            assert session.get_one(Webhook, made.json()["id"]).enabled is False
    else:
        assert (received.status, received.outcome) == (202, DeliveryOutcome.LAUNCHED)
        assert received.run_id is not None
        assert app.runs_of(template) == 1


@pytest.mark.parametrize("demoted", [True, False], ids=["launcher-lost-the-right", "control"])
def test_a_workflow_node_launches_only_while_its_launcher_may_launch(
    app: App, workbench: Workbench, template: int, demoted: bool
) -> None:
    flows = Workflows(workbench.client, workbench.project_id)
    workflow = flows.create(
        [approval_node("gate"), template_node("ship", template)], [edge("gate", "ship")]
    )
    _operator, operator_id = app.member("operator", "operator")
    with app.session() as session:
        actor, rights = app.rights(session, "operator")
        flow = workflows.get(session, rights.project, workflow["id"])
        request = workflows.Launch(rights, actor, flow)
        wrun = workflows.launch(session, request, cipher=app.cipher, queue=app.queue).id
    if demoted:  # between the launch and the node's run
        app.set_role(operator_id, "viewer")

    with app.session() as session:  # the approval, by someone else: the node's run launches
        actor, rights = app.rights(session, "admin")
        run = workflows.get_run(session, rights.project, wrun)
        workflows.decide(
            session,
            app.cipher,
            app.queue,
            rights,
            run,
            "gate",
            approve=True,
            comment="",
            actor=actor,
        )
        ship = session.scalars(
            select(WorkflowNodeRun).where(
                WorkflowNodeRun.workflow_run_id == wrun, WorkflowNodeRun.key == "ship"
            )
        ).one()
        if demoted:
            assert (ship.status, ship.run_id) == (NodeStatus.FAILED, None)
            assert "launcher 'operator' may no longer launch template" in ship.reason
            assert "'run:launch'" in ship.reason
            assert app.runs_of(template) == 0
        else:
            assert ship.status == NodeStatus.RUNNING
            assert ship.run_id is not None
            assert app.runs_of(template) == 1
