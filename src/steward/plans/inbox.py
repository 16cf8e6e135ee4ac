"""Plans waiting for an approval the caller may give, across the projects they see: the
decision's own rule (``approvers``): plan:approve in the project (``policy.projects_allowing``:
roles, admins, capped by the token's scope; every role holding it may launch there) and not
the plan's launcher. A plan that did not succeed, expired, was decided or applied is no longer
asked."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import in_projects_allowing
from steward.auth.models import User
from steward.db import paged_rows
from steward.plans import approvers, read
from steward.plans.schemas import WaitingPlan
from steward.projects.models import Project
from steward.runs.models import Plan, Run, RunKind
from steward.runs.status import RunStatus


def waiting(
    session: Session, actor: Actor, now: dt.datetime, *, limit: int, offset: int
) -> tuple[list[WaitingPlan], int]:
    """The page of plans ``actor`` may approve, the longest waiting first, and their total."""
    query = (
        select(Run, Plan, Project.name, User.username)
        .join(Plan, Plan.run_id == Run.id)
        .join(Project, Project.id == Run.project_id)
        .outerjoin(User, User.id == Run.launched_by_id)
        .where(
            Run.kind == RunKind.PLAN,
            Run.status == RunStatus.SUCCESSFUL,
            Plan.needs_approval.is_(True),
            Plan.approval == "",
            Plan.apply_run_id.is_(None),
            Plan.expires_at > now,
            approvers.not_excluded(actor),
            in_projects_allowing(session, actor, approvers.PERMISSION, Run.project_id),
        )
        .order_by(Run.finished_at, Run.id)
    )
    rows, total = paged_rows(session, query, limit=limit, offset=offset)
    items = []
    for run, plan, project_name, username in rows:
        hosts, tasks, unknown = read.counts(session, run.id)
        items.append(
            WaitingPlan(
                run_id=run.id,
                project_id=run.project_id,
                project_name=project_name,
                template_id=run.template_id,
                template_name=run.name,
                launched_by_id=run.launched_by_id,
                launched_by=username or "",
                asked_at=run.finished_at,
                expires_at=plan.expires_at,
                summary=read.summary(hosts, tasks, unknown),
            )
        )
    return items, total
