"""Retention: what is removed once it is older than its period (0 keeps it forever).

- **Runs** that finished before the cutoff, with everything kept with them (output, events,
  per-host recap, host metrics: their foreign keys cascade). A queued or running run is never
  removed, however old. Off by default: the run history is the product's record.
- **Workflow runs** that ended before the same cutoff, with their node rows (cascade); one still
  running (a node running or an approval waiting) is never removed. A node whose run was removed
  reads that run as ``gone``.
- **Webhook deliveries** (bodies and headers of what senders posted) and **notification
  messages** that are done (sent or failed, with their attempts): operational logs, kept 30 days
  by default.

Runs go in batches, each in its own transaction, so a large backlog (the first prune of a busy
installation) never holds a long write lock. Every pass that removes something is recorded in the
audit trail, by the system.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from steward.audit.actions import AuditAction
from steward.audit.service import record
from steward.config import Settings
from steward.db import utcnow
from steward.notifications.models import Message, MessageStatus
from steward.runs.models import Run
from steward.runs.status import FINISHED
from steward.webhooks.models import WebhookDelivery
from steward.workflows.models import WorkflowRun, WorkflowRunStatus

RUN_BATCH = 200  # runs removed per transaction (with all their lines, events and metrics)


@dataclasses.dataclass(frozen=True)
class Periods:
    """Days each kind of record is kept; 0 keeps it forever."""

    runs: int = 0
    deliveries: int = 0
    messages: int = 0

    @classmethod
    def of(cls, settings: Settings) -> Periods:
        return cls(
            runs=settings.run_retention_days,
            deliveries=settings.webhook_delivery_retention_days,
            messages=settings.notification_retention_days,
        )


@dataclasses.dataclass(frozen=True)
class Pruned:
    runs: int = 0
    deliveries: int = 0
    messages: int = 0
    workflow_runs: int = 0

    def __bool__(self) -> bool:
        return bool(self.runs or self.deliveries or self.messages or self.workflow_runs)

    def summary(self, periods: Periods, *, zeros: bool = False) -> str:
        """What was removed (the audit detail); with ``zeros`` every kind with a period (the
        CLI's answer)."""
        parts = [
            f"{count} {what} older than {days} days"
            for count, what, days in (
                (self.runs, "runs", periods.runs),
                (self.workflow_runs, "workflow runs", periods.runs),
                (self.deliveries, "webhook deliveries", periods.deliveries),
                (self.messages, "notification messages", periods.messages),
            )
            if days and (count or zeros)
        ]
        return "removed " + ", ".join(parts) if parts else "removed nothing"


def prune(session: Session, periods: Periods, *, batch: int = RUN_BATCH) -> Pruned:
    """Apply every period now; commits. Records the removal when anything was removed."""
    pruned = Pruned(
        runs=_runs(session, periods.runs, batch) if periods.runs else 0,
        deliveries=_deliveries(session, periods.deliveries) if periods.deliveries else 0,
        messages=_messages(session, periods.messages) if periods.messages else 0,
        workflow_runs=_workflow_runs(session, periods.runs, batch) if periods.runs else 0,
    )
    if pruned:
        record(session, None, AuditAction.RETENTION_PRUNE, detail=pruned.summary(periods))
        session.commit()
    return pruned


def _cutoff(days: int) -> dt.datetime:
    return utcnow() - dt.timedelta(days=days)


def _runs(session: Session, days: int, batch: int) -> int:
    ended = (Run.finished_at < _cutoff(days), Run.status.in_(FINISHED))
    return _in_batches(session, Run, Run.id, ended, batch)


def _workflow_runs(session: Session, days: int, batch: int) -> int:
    """Ended workflow runs, with their nodes; their node runs go by the runs' own rule."""
    ended = (
        WorkflowRun.finished_at < _cutoff(days),
        WorkflowRun.status != WorkflowRunStatus.RUNNING,
    )
    return _in_batches(session, WorkflowRun, WorkflowRun.id, ended, batch)


def _in_batches(
    session: Session,
    model: type[Any],
    key: InstrumentedAttribute[int],
    where: tuple[ColumnElement[bool], ...],
    batch: int,
) -> int:
    """Delete the rows ``where`` picks, ``batch`` of them (by ``key``) a transaction; how many.
    The condition is asked again at the delete: a row that changed since it was read is left
    alone."""
    removed = 0
    while True:
        ids = session.scalars(select(key).where(*where).order_by(key).limit(batch)).all()
        if not ids:
            return removed
        session.execute(delete(model).where(key.in_(ids), *where))
        session.commit()
        removed += len(ids)


def _deliveries(session: Session, days: int) -> int:
    result = session.execute(
        delete(WebhookDelivery).where(WebhookDelivery.received_at < _cutoff(days))
    )
    session.commit()
    return int(getattr(result, "rowcount", 0) or 0)


def _messages(session: Session, days: int) -> int:
    done = (MessageStatus.SENT, MessageStatus.FAILED)  # a pending one still has to be told
    result = session.execute(
        delete(Message).where(Message.created_at < _cutoff(days), Message.status.in_(done))
    )
    session.commit()
    return int(getattr(result, "rowcount", 0) or 0)
