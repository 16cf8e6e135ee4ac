"""Asking for a workflow pass, and finding the workflow runs that want one.

Below ``progress`` (which advances a workflow run and launches its nodes' runs) so that a run's
status change (``runs.lifecycle``) can ask for a pass without importing the launch path.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from steward.workflows.models import WorkflowRun, WorkflowRunStatus


def mark(session: Session, wrun_id: int) -> None:
    """Ask for a pass (in the caller's transaction)."""
    session.execute(
        update(WorkflowRun)
        .where(WorkflowRun.id == wrun_id, WorkflowRun.status == WorkflowRunStatus.RUNNING)
        .values(needs_pass=True)
        .execution_options(synchronize_session=False)
    )


def due(session: Session, now: dt.datetime, *, limit: int) -> list[int]:
    """Running workflow runs that want a pass, oldest first."""
    return list(
        session.scalars(
            select(WorkflowRun.id).where(wanted(now)).order_by(WorkflowRun.id).limit(limit)
        )
    )


def wanted(now: dt.datetime):  # type: ignore[no-untyped-def]
    return (WorkflowRun.status == WorkflowRunStatus.RUNNING) & or_(
        WorkflowRun.needs_pass, WorkflowRun.wake_at <= now
    )
