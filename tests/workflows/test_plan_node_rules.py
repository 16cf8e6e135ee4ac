"""Plan and apply nodes below HTTP on ``db_session``: a pass without ``Planning`` (a schedule's
or webhook's launch) leaves them to the ticker's; an apply node applies only the plan its own
workflow run made: a plan node whose run was swapped for another workflow run's plan (a
tampered row) fails the apply node instead of applying that plan; the control, its own plan,
launches the apply."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services
from support.runs import NoQueue

from steward.config import Settings
from steward.db import utcnow
from steward.projects.models import Project
from steward.repositories.checkout import Reach
from steward.runs.models import Run, RunKind
from steward.runs.status import RunStatus
from steward.templates.models import Template
from steward.workflows import progress, service
from steward.workflows.models import NodeStatus, WorkflowNodeRun, WorkflowRun
from steward.workflows.schemas import WorkflowCreate

COMMIT = "a" * 40  # a commit given at launch: the apply asks no repository whether it moved


def _planned(
    session: Session, settings: Settings, template: Template, name: str
) -> tuple[WorkflowRun, Run]:
    """A workflow run of plan → apply whose plan run succeeded (not yet passed again)."""
    project = session.get_one(Project, template.project_id)
    actor = services.admin(session)
    body = WorkflowCreate.model_validate(
        {
            "name": name,
            "nodes": [
                {"key": "plan", "kind": "plan", "template_id": template.id},
                {"key": "apply", "kind": "apply", "plan_node": "plan"},
            ],
            "edges": [{"from": "plan", "to": "apply"}],
        }
    )
    workflow = service.create(session, project, body, actor=actor, cipher=services.cipher())
    rights = support_runs.rights(session, actor, project)
    wrun, _done = service.start(
        session,
        service.Launch(rights, actor, workflow),
        cipher=services.cipher(),
        queue=NoQueue(),
        planning=_planning(settings),
    )
    node = _node(session, wrun, "plan")
    assert node.run_id is not None
    plan = session.get_one(Run, node.run_id)
    assert (plan.kind, plan.workflow_run_id) == (RunKind.PLAN, wrun.id)
    plan.status = RunStatus.SUCCESSFUL
    plan.commit_hash = COMMIT
    plan.params = {**plan.params, "ref": COMMIT}
    node.status = NodeStatus.SUCCESSFUL
    session.flush()
    return wrun, plan


def _planning(settings: Settings) -> progress.Planning:
    reach = Reach(services.cipher(), (), services.guard(), settings.data_dir)
    return progress.Planning(ttl_hours=24, reach=reach)


def _node(session: Session, wrun: WorkflowRun, key: str) -> WorkflowNodeRun:
    return session.scalars(
        select(WorkflowNodeRun).where(
            WorkflowNodeRun.workflow_run_id == wrun.id, WorkflowNodeRun.key == key
        )
    ).one()


def test_a_pass_without_planning_leaves_a_plan_node_to_the_tickers_pass(
    db_session: Session, settings: Settings
) -> None:
    project = services.project(db_session)
    template = support_runs.template(db_session, project, plans_allowed=True, survey=[])
    actor = services.admin(db_session)
    body = WorkflowCreate.model_validate(
        {"name": "w", "nodes": [{"key": "plan", "kind": "plan", "template_id": template.id}]}
    )
    workflow = service.create(db_session, project, body, actor=actor, cipher=services.cipher())
    rights = support_runs.rights(db_session, actor, project)
    launch = service.Launch(rights, actor, workflow)
    wrun, _ = service.start(db_session, launch, cipher=services.cipher(), queue=NoQueue())
    assert _node(db_session, wrun, "plan").status == NodeStatus.PENDING
    assert wrun.needs_pass  # the ticker's pass starts it
    progress.advance(
        db_session, services.cipher(), NoQueue(), wrun.id, utcnow(), _planning(settings)
    )
    node = _node(db_session, wrun, "plan")
    assert node.status == NodeStatus.RUNNING
    assert db_session.get_one(Run, node.run_id).kind == RunKind.PLAN


@pytest.mark.security
def test_an_apply_node_never_applies_another_workflow_runs_plan(
    db_session: Session, settings: Settings
) -> None:
    project = services.project(db_session)
    template = support_runs.template(db_session, project, plans_allowed=True, survey=[])
    mine, _my_plan = _planned(db_session, settings, template, "mine")
    theirs, their_plan = _planned(db_session, settings, template, "theirs")
    _node(db_session, mine, "plan").run_id = their_plan.id  # the tampered row
    db_session.flush()
    progress.advance(
        db_session, services.cipher(), NoQueue(), mine.id, utcnow(), _planning(settings)
    )
    apply = _node(db_session, mine, "apply")
    assert apply.status == NodeStatus.FAILED
    assert apply.reason == f"run {their_plan.id} is not the plan of node 'plan'"
    assert apply.run_id is None
    assert db_session.scalar(select(Run).where(Run.plan_id == their_plan.id)) is None
    # the control: the other workflow run applies its own plan, pinned to its commit
    progress.advance(
        db_session, services.cipher(), NoQueue(), theirs.id, utcnow(), _planning(settings)
    )
    applied = _node(db_session, theirs, "apply")
    assert applied.status == NodeStatus.RUNNING, applied.reason
    run = db_session.get_one(Run, applied.run_id)
    assert (run.kind, run.plan_id, run.workflow_run_id) == (RunKind.APPLY, their_plan.id, theirs.id)
    assert run.params["ref"] == COMMIT
