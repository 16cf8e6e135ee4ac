"""Retention: what is removed once it is older than its period (0 keeps it forever).

- **Runs** that finished before the cutoff, with everything kept with them (output, events,
  per-host recap, host metrics: their foreign keys cascade). A queued or running run is never
  removed, however old. Off by default: the run history is the product's record.
- **Workflow runs** that ended before the same cutoff, with their node rows (cascade); one still
  running (a node running or an approval waiting) is never removed. A node whose run was removed
  reads that run as ``gone``.
- **Host health checks** (``steward.health``), kept ``health_retention_days`` (30 by default);
  each host's latest check stays.
- **Points of hosts' facts history** (``steward.hosts.facts``), kept
  ``facts_history_retention_days`` (365 by default); each host's newest point and current facts
  stay, and the oldest point kept is made whole first, so the points kept diff as before.
- **Webhook deliveries** (bodies and headers of what senders posted) and **notification
  messages** that are done (sent or failed, with their attempts): operational logs, kept 30 days
  by default.

Runs go in batches, each in its own transaction, so a large backlog (the first prune of a busy
installation) never holds a long write lock. A pass that removed something then gives the space
back (``storage.reclaim``: SQLite's incremental vacuum, PostgreSQL's VACUUM) and measures the
database before and after: the rows and the bytes freed are in its audit record (by the system;
``changes`` holds ``database_bytes: [before, after]``) and in ``steward prune``'s answer.
``steward prune --compact`` is the one-time conversion of a SQLite file made by 0.1.0
(``storage``'s docstring says why it is not a migration).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from sqlalchemy import ColumnElement, delete, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord
from steward.audit.service import record
from steward.bounds import MIB
from steward.config import Settings
from steward.db import utcnow
from steward.health import service as health
from steward.health.models import HostCheck
from steward.hosts import facts
from steward.hosts.models import HostFactPoint
from steward.notifications.models import Message, MessageStatus
from steward.retention import storage
from steward.retention.schemas import LastPrune, RetentionPeriods, StorageRead, TableSizeRead
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
    health: int = 0  # host health checks (``steward.health``; each host's latest stays)
    facts: int = 0  # points of hosts' facts history (each host's newest stays)

    @classmethod
    def of(cls, settings: Settings) -> Periods:
        return cls(
            runs=settings.run_retention_days,
            deliveries=settings.webhook_delivery_retention_days,
            messages=settings.notification_retention_days,
            health=settings.health_retention_days,
            facts=settings.facts_history_retention_days,
        )


@dataclasses.dataclass(frozen=True)
class Pruned:
    runs: int = 0
    deliveries: int = 0
    messages: int = 0
    workflow_runs: int = 0
    health_checks: int = 0
    fact_points: int = 0
    # measured around the pass (0 when nothing was removed: nothing is measured then)
    size_before: int = 0
    size_after: int = 0
    returns_space: bool = True  # False: a SQLite file of 0.1.0, never converted (--compact)
    dialect: str = "sqlite"

    def __bool__(self) -> bool:
        return bool(self.rows)

    @property
    def rows(self) -> int:
        """Records removed, not counting what went with them (a run's output, events…)."""
        return (
            self.runs
            + self.deliveries
            + self.messages
            + self.workflow_runs
            + self.health_checks
            + self.fact_points
        )

    @property
    def bytes_freed(self) -> int:
        return max(self.size_before - self.size_after, 0)

    def space(self) -> str:
        """The bytes freed, and what they mean on this database."""
        if not self:
            return "0 bytes freed"
        freed = f"{human_bytes(self.bytes_freed)} freed ({self.bytes_freed} bytes;"
        freed += f" database now {human_bytes(self.size_after)})"
        if not self.returns_space:
            return (
                f"{freed}: the file keeps the free pages until `steward prune --compact` is run"
                " once (a database made by Steward 0.1.0)"
            )
        if self.dialect != "sqlite":
            return f"{freed}; the removed rows' space is reusable by new rows (PostgreSQL VACUUM)"
        return freed

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
                (self.health_checks, "host health checks", periods.health),
                (self.fact_points, "host facts points", periods.facts),
            )
            if days and (count or zeros)
        ]
        removed = "removed " + ", ".join(parts) if parts else "removed nothing"
        return f"{removed}; {self.space()}"


def human_bytes(count: int) -> str:
    """1536 -> "1.5 KiB" (binary units, as ``du -h`` counts)."""
    size = float(count)
    for unit in ("bytes", "KiB", "MiB", "GiB"):
        if size < 1024 or unit == "GiB":
            return f"{int(size)} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError("unreachable")


def prune(session: Session, periods: Periods, *, batch: int = RUN_BATCH) -> Pruned:
    """Apply every period now, then give the freed space back; commits. Records the removal,
    with the rows and the bytes freed, when anything was removed."""

    def remove() -> dict[str, int]:  # a period of 0 keeps its records
        return {
            Run.__tablename__: _runs(session, periods.runs, batch) if periods.runs else 0,
            WebhookDelivery.__tablename__: (
                _deliveries(session, periods.deliveries) if periods.deliveries else 0
            ),
            Message.__tablename__: _messages(session, periods.messages) if periods.messages else 0,
            WorkflowRun.__tablename__: (
                _workflow_runs(session, periods.runs, batch) if periods.runs else 0
            ),
            HostCheck.__tablename__: health.prune(session, periods.health) if periods.health else 0,
            HostFactPoint.__tablename__: facts.prune(session, periods.facts)
            if periods.facts
            else 0,
        }

    removed, freed = storage.prune(session, remove)
    pruned = Pruned(
        runs=removed[Run.__tablename__],
        deliveries=removed[WebhookDelivery.__tablename__],
        messages=removed[Message.__tablename__],
        workflow_runs=removed[WorkflowRun.__tablename__],
        health_checks=removed[HostCheck.__tablename__],
        fact_points=removed[HostFactPoint.__tablename__],
    )
    if not pruned:
        return pruned
    pruned = dataclasses.replace(
        pruned,
        size_before=freed.before,
        size_after=freed.after,
        returns_space=storage.returns_space(session),
        dialect=storage.dialect(session),
    )
    record(
        session,
        None,
        AuditAction.RETENTION_PRUNE,
        detail=pruned.summary(periods),
        changes={"database_bytes": [pruned.size_before, pruned.size_after]},
    )
    session.commit()
    return pruned


def storage_report(session: Session, settings: Settings) -> StorageRead:
    """The admin page's Storage section: measured now (the biggest tables read every page on
    SQLite: on demand only, never for /metrics)."""
    size = storage.size(session)
    found = storage.tables(session)
    warning = settings.database_size_warning_mb * MIB
    periods = Periods.of(settings)
    return StorageRead(
        database="sqlite" if storage.dialect(session) == "sqlite" else "postgresql",
        size_bytes=size.total,
        free_bytes=size.free,
        returns_space=storage.returns_space(session),
        tables=None
        if found is None
        else [TableSizeRead(name=t.name, bytes=t.bytes) for t in found],
        warning_bytes=warning or None,
        over_warning=bool(warning) and size.total > warning,
        retention=RetentionPeriods(
            runs_days=periods.runs,
            webhook_deliveries_days=periods.deliveries,
            notification_messages_days=periods.messages,
            audit_days=settings.audit_retention_days,
            tick_seconds=settings.retention_tick_seconds,
        ),
        last_prune=last_prune(session),
    )


def last_prune(session: Session) -> LastPrune | None:
    """The newest pass that removed something, from its audit record."""
    found = session.scalars(
        select(AuditRecord)
        .where(AuditRecord.action == AuditAction.RETENTION_PRUNE)
        .order_by(AuditRecord.id.desc())
        .limit(1)
    ).first()
    if found is None:
        return None
    sizes = found.changes.get("database_bytes")  # absent from a record of 0.1.0
    if isinstance(sizes, list) and len(sizes) == 2 and all(isinstance(n, int) for n in sizes):
        before, after = sizes
        return LastPrune(
            at=found.created_at,
            detail=found.detail,
            size_before=before,
            size_after=after,
            bytes_freed=max(before - after, 0),
        )
    return LastPrune(
        at=found.created_at,
        detail=found.detail,
        size_before=None,
        size_after=None,
        bytes_freed=None,
    )


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
