"""The approvals inbox (``workflows.inbox``), below HTTP on ``db_session``: who is asked which
waiting approval — an operator of its project, not a viewer, not someone of another project, an
admin everywhere, not the launcher of a run whose node says ``approver_must_differ`` (unless it
is off), not a read token; decided, timed-out and canceling ones are no longer asked. Every
listed item is one ``approvers.refusal`` lets the viewer approve (the SQL and the rule agree).
One HTTP test for the route's wiring."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy.orm import Session
from support import services
from support.builders import Workbench, member_client

from steward.access.actor import Actor
from steward.access.policy import access
from steward.auth.models import TokenScope, User
from steward.db import utcnow
from steward.projects.models import Project, ProjectMember, ProjectRole
from steward.teams.models import Team, TeamMember
from steward.workflows import approvers, inbox
from steward.workflows.models import (
    NodeKind,
    NodeStatus,
    WorkflowLaunchType,
    WorkflowNodeRun,
    WorkflowRun,
)

pytestmark = pytest.mark.both_databases

NOW = utcnow()


def _user(session: Session, name: str, *, admin: bool = False) -> Actor:
    user = User(username=name, password_hash="-", is_admin=admin)
    session.add(user)
    session.flush()
    return Actor(user, TokenScope.WRITE, "session")


def _role(session: Session, project: Project, actor: Actor, role: ProjectRole) -> None:
    session.add(ProjectMember(project_id=project.id, user_id=actor.user.id, role=role))
    session.flush()


def _waiting(
    session: Session,
    project: Project,
    launcher: Actor | None,
    name: str,
    *,
    must_differ: bool = True,
    status: NodeStatus = NodeStatus.WAITING,
    deadline: dt.datetime | None = None,
    canceling: bool = False,
) -> WorkflowRun:
    """A workflow run of ``project`` whose approval node ``gate`` (asking ``name``) is in
    ``status``, leading to a template node ``next`` on success and ``undo`` on failure."""
    wrun = WorkflowRun(
        project_id=project.id,
        workflow_name=f"wf {name}",
        launched_by_id=launcher.user.id if launcher else None,
        launch_type=WorkflowLaunchType.SCHEDULE if launcher is None else WorkflowLaunchType.MANUAL,
        edges=[
            {"from": "gate", "to": "next", "on": "success"},
            {"from": "gate", "to": "undo", "on": "failure"},
        ],
        cancel_requested_at=NOW if canceling else None,
    )
    session.add(wrun)
    session.flush()
    session.add_all(
        [
            WorkflowNodeRun(
                workflow_run_id=wrun.id,
                key="gate",
                position=0,
                kind=NodeKind.APPROVAL,
                name=name,
                approver_must_differ=must_differ,
                status=status,
                started_at=NOW - dt.timedelta(minutes=5),
                deadline_at=deadline,
                timeout_seconds=600 if deadline else None,
            ),
            WorkflowNodeRun(
                workflow_run_id=wrun.id,
                key="next",
                position=1,
                kind=NodeKind.APPROVAL,
                name="and then?",
            ),
            WorkflowNodeRun(
                workflow_run_id=wrun.id,
                key="undo",
                position=2,
                kind=NodeKind.APPROVAL,
                name="roll back?",
            ),
        ]
    )
    session.flush()
    return wrun


def _asked(session: Session, actor: Actor) -> set[str]:
    items, total = inbox.waiting(session, actor, NOW, limit=50, offset=0)
    assert total == len(items)
    for item in items:  # the rule itself lets the viewer approve each one listed
        wrun = session.get_one(WorkflowRun, item.workflow_run_id)
        node = next(n for n in session.query(WorkflowNodeRun).filter_by(workflow_run_id=wrun.id)
                    if n.key == item.key)  # fmt: skip
        rights = access(session, actor, session.get_one(Project, item.project_id))
        assert approvers.refusal(rights, actor, wrun, node, item.launched_by, approve=True) == ""
    return {item.name for item in items}


def test_the_inbox_asks_those_who_may_approve_and_no_one_else(db_session: Session) -> None:
    s = db_session
    p1, p2 = services.project(s, "inbox-p1"), services.project(s, "inbox-p2")
    alice, bob = _user(s, "inbox-alice"), _user(s, "inbox-bob")  # operators of p1
    vic, olga = _user(s, "inbox-vic"), _user(s, "inbox-olga")  # viewer of p1; operator of p2
    tom = _user(s, "inbox-tom")  # in team "inbox-ops", operator of p1
    boss = _user(s, "inbox-boss", admin=True)
    operator, viewer = ProjectRole.OPERATOR, ProjectRole.VIEWER
    for actor, project, role in ((alice, p1, operator), (bob, p1, operator), (vic, p1, viewer),
                                 (olga, p2, operator)):  # fmt: skip
        _role(s, project, actor, role)
    team = Team(name="inbox-ops")
    s.add(team)
    s.flush()
    s.add(TeamMember(team_id=team.id, user_id=tom.user.id))
    s.add(ProjectMember(project_id=p1.id, team_id=team.id, role=ProjectRole.OPERATOR))
    s.flush()

    _waiting(s, p1, alice, "alice's")  # alice may not approve her own
    _waiting(s, p1, alice, "alice's, self-approvable", must_differ=False)
    _waiting(s, p1, None, "a deleted launcher's")
    _waiting(s, p2, olga, "olga's in p2")
    _waiting(s, p1, bob, "bob's, in time", deadline=NOW + dt.timedelta(minutes=5))
    _waiting(s, p1, bob, "bob's, too late", deadline=NOW - dt.timedelta(seconds=1))
    _waiting(s, p1, bob, "bob's, decided", status=NodeStatus.SUCCESSFUL)
    _waiting(s, p1, bob, "bob's, not yet", status=NodeStatus.PENDING)
    _waiting(s, p1, bob, "bob's, being canceled", canceling=True)
    _waiting(s, p1, boss, "the admin's")

    p1_open = {"alice's", "alice's, self-approvable", "a deleted launcher's", "bob's, in time",
               "the admin's"}  # fmt: skip
    assert _asked(s, bob) == p1_open - {"bob's, in time"}
    assert _asked(s, alice) == p1_open - {"alice's"}
    assert _asked(s, tom) == p1_open  # through the team's role
    assert _asked(s, vic) == set()  # a viewer decides nothing
    assert _asked(s, olga) == set()  # p2 has nothing olga did not launch herself
    assert _asked(s, boss) == (p1_open - {"the admin's"}) | {"olga's in p2"}
    # a read token of an operator reads; it decides nothing, so it is asked nothing
    assert _asked(s, Actor(bob.user, TokenScope.READ, "token")) == set()
    assert _asked(s, Actor(bob.user, TokenScope.RUN, "token")) == p1_open - {"bob's, in time"}


def test_an_inbox_item_says_what_runs_next_who_asked_and_until_when(db_session: Session) -> None:
    s = db_session
    project = services.project(s, "inbox-item")
    launcher, approver = _user(s, "inbox-launcher"), _user(s, "inbox-approver")
    _role(s, project, approver, ProjectRole.OPERATOR)
    deadline = NOW + dt.timedelta(minutes=10)
    wrun = _waiting(s, project, launcher, "patch prod?", deadline=deadline)
    _waiting(s, project, launcher, "second")

    items, total = inbox.waiting(s, approver, NOW, limit=1, offset=0)
    assert total == 2
    assert len(items) == 1
    item = items[0]
    assert (item.workflow_run_id, item.key, item.name) == (wrun.id, "gate", "patch prod?")
    assert (item.project_id, item.project_name) == (project.id, "inbox-item")
    assert (item.launched_by, item.launch_type) == ("inbox-launcher", WorkflowLaunchType.MANUAL)
    assert [step.key for step in item.next] == ["next"]  # not the failure branch
    assert item.next[0].name == "and then?"
    assert item.deadline_at == deadline
    assert item.timeout_seconds == 600
    assert item.asked_at == NOW - dt.timedelta(minutes=5)
    second, _total = inbox.waiting(s, approver, NOW, limit=1, offset=1)
    assert [i.name for i in second] == ["second"]


def test_the_inbox_route_lists_what_the_caller_may_approve(workbench: Workbench) -> None:
    """Wiring: the admin's own run is not in the admin's inbox, an operator's has it."""
    client = workbench.client
    body = {"name": "gated", "nodes": [{"key": "gate", "kind": "approval", "name": "go?"}]}
    created = client.post(workbench.url("workflows"), json=body)
    assert created.status_code == 201, created.text
    launched = client.post(workbench.url(f"workflows/{created.json()['id']}/launch"))
    assert launched.status_code == 201, launched.text
    operator = member_client(client, workbench.project_id, "inbox-op", "operator")

    mine = client.get("/api/v1/approvals")
    theirs = operator.get("/api/v1/approvals", params={"limit": 10})
    assert mine.status_code == 200, mine.text
    assert mine.json()["total"] == 0
    assert theirs.status_code == 200, theirs.text
    page = theirs.json()
    assert (page["total"], page["limit"]) == (1, 10)
    assert page["items"][0]["workflow_run_id"] == launched.json()["id"]
    assert page["items"][0]["launched_by"] == "admin"
