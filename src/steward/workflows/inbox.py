"""The approvals inbox: the approval nodes waiting for a decision the caller may give, across
the projects they see.

The selection is the decision's own rule (``workflows.approvers``): ``workflow:approve`` in the
project (``policy.projects_allowing``: roles, admins, capped by the token's scope) and not the
launcher of a run whose node says ``approver_must_differ`` (``approvers.not_excluded``). A node
whose deadline passed, or whose workflow run is being canceled, is no longer asked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import in_projects_allowing
from steward.auth.models import User
from steward.db import paged_rows
from steward.projects.models import Project
from steward.workflows import approvers
from steward.workflows.models import (
    EdgeOn,
    NodeKind,
    NodeStatus,
    WorkflowNodeRun,
    WorkflowRun,
    WorkflowRunStatus,
)
from steward.workflows.schemas import NextStep, WaitingApproval
from steward.workflows.service import template_names


def _selection(session: Session, actor: Actor, now: dt.datetime) -> Any:
    return (
        select(WorkflowNodeRun, WorkflowRun, Project.name, User.username)
        .join(WorkflowRun, WorkflowRun.id == WorkflowNodeRun.workflow_run_id)
        .join(Project, Project.id == WorkflowRun.project_id)
        .outerjoin(User, User.id == WorkflowRun.launched_by_id)
        .where(
            WorkflowNodeRun.kind == NodeKind.APPROVAL,
            WorkflowNodeRun.status == NodeStatus.WAITING,
            or_(WorkflowNodeRun.deadline_at.is_(None), WorkflowNodeRun.deadline_at > now),
            WorkflowRun.status == WorkflowRunStatus.RUNNING,
            WorkflowRun.cancel_requested_at.is_(None),
            approvers.not_excluded(actor),
            in_projects_allowing(session, actor, approvers.PERMISSION, WorkflowRun.project_id),
        )
    )


def waiting(
    session: Session, actor: Actor, now: dt.datetime, *, limit: int, offset: int
) -> tuple[list[WaitingApproval], int]:
    """The page of approvals ``actor`` may give, the longest waiting first, and their total."""
    query = _selection(session, actor, now).order_by(WorkflowNodeRun.started_at, WorkflowNodeRun.id)
    rows, total = paged_rows(session, query, limit=limit, offset=offset)
    steps = _next_steps(session, [(node, wrun) for node, wrun, _p, _u in rows])
    items = [
        WaitingApproval(
            id=node.id,
            project_id=wrun.project_id,
            project_name=project_name,
            workflow_id=wrun.workflow_id,
            workflow_name=wrun.workflow_name,
            workflow_run_id=wrun.id,
            key=node.key,
            name=node.name,
            next=steps[node.id],
            launched_by_id=wrun.launched_by_id,
            launched_by=username or "",
            launch_type=wrun.launch_type,
            schedule_id=wrun.schedule_id,
            webhook_id=wrun.webhook_id,
            asked_at=node.started_at,
            timeout_seconds=node.timeout_seconds,
            deadline_at=node.deadline_at,
        )
        for node, wrun, project_name, username in rows
    ]
    return items, total


def _next_steps(
    session: Session, rows: Sequence[tuple[WorkflowNodeRun, WorkflowRun]]
) -> dict[int, list[NextStep]]:
    """Per approval node: the nodes its approval leads to (edges on success or always), in
    document order."""
    targets = {
        node.id: {
            e["to"]
            for e in wrun.edges
            if e["from"] == node.key and e.get("on", EdgeOn.SUCCESS) != EdgeOn.FAILURE
        }
        for node, wrun in rows
    }
    runs = {wrun.id for _node, wrun in rows}
    siblings = (
        list(
            session.scalars(
                select(WorkflowNodeRun)
                .where(WorkflowNodeRun.workflow_run_id.in_(runs))
                .order_by(WorkflowNodeRun.position)
            )
        )
        if runs
        else []
    )
    names = template_names(session, [{"template_id": n.template_id} for n in siblings])
    steps: dict[int, list[NextStep]] = {}
    for node, _wrun in rows:
        steps[node.id] = [
            NextStep(
                key=s.key,
                kind=s.kind,
                name=names.get(s.template_id or 0, "") if s.kind == NodeKind.TEMPLATE else s.name,
                template_id=s.template_id,
            )
            for s in siblings
            if s.workflow_run_id == node.workflow_run_id and s.key in targets[node.id]
        ]
    return steps
