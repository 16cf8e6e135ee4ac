"""A plan's or an apply's part of its run read: the plan's approval and apply, and the changes
an apply made that its plan did not predict (``execution/changes``; ``plans``)."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.auth.models import User
from steward.db import paged
from steward.runs.models import Plan, RunChange, RunKind
from steward.runs.schemas import RunPlanInfo, UnplannedChange

UNPLANNED_SHOWN = 100


def unplanned(
    session: Session, run_id: int, *, limit: int = UNPLANNED_SHOWN
) -> tuple[list[UnplannedChange], int]:
    where = (RunChange.run_id == run_id, RunChange.unplanned.is_(True))
    query = select(RunChange).where(*where).order_by(RunChange.counter)
    rows, total = paged(session, query, limit=limit, offset=0)
    items = [UnplannedChange.model_validate(r) for r in rows]
    return items, total


class Planned(Protocol):
    """What says whether a run has a plan: a ``Run``, or a run read's head."""

    @property
    def id(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def plan_id(self) -> int | None: ...


def info(session: Session, run: Planned) -> RunPlanInfo | None:
    kind = RunKind(run.kind)
    plan_id = run.id if kind is RunKind.PLAN else run.plan_id
    if kind is RunKind.RUN or plan_id is None:
        return None
    plan = session.get(Plan, plan_id)
    if plan is None:
        return None
    approver = session.get(User, plan.approved_by_id) if plan.approved_by_id else None
    found, total = unplanned(session, run.id) if kind is RunKind.APPLY else ([], 0)
    return RunPlanInfo(
        plan_id=plan_id,
        approval=plan.approval,
        approved_by=approver.username if approver else "",
        approval_comment=plan.approval_comment,
        apply_run_id=plan.apply_run_id,
        unplanned=found,
        unplanned_count=total,
    )
