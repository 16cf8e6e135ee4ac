"""Status changes of runs: the transition function, claiming, and recovery after crashes."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import socket
import uuid

import psutil
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.notifications import outbox
from steward.projects.models import Project
from steward.runs.models import Run
from steward.runs.status import RunStatus, check_transition, sources


@dataclasses.dataclass(frozen=True)
class WorkerId:
    host: str
    pid: int
    boot: str

    @classmethod
    def current(cls) -> WorkerId:
        return cls(socket.gethostname(), os.getpid(), uuid.uuid4().hex[:12])

    @classmethod
    def parse(cls, value: str) -> WorkerId | None:
        parts = value.rsplit(":", 2)
        if len(parts) != 3 or not parts[1].isdigit():
            return None
        return cls(parts[0], int(parts[1]), parts[2])

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}:{self.boot}"


def transition(
    session: Session,
    run_id: int,
    new: RunStatus,
    *,
    reason: str = "",
    rc: int | None = None,
    worker: WorkerId | None = None,
    current: RunStatus | None = None,
) -> bool:
    """The one writer of a run's status: a compare-and-set (``UPDATE … WHERE status IN`` the
    statuses ``new`` may follow, or only ``current``, the status the caller saw). False when
    the run was not in one of them: someone else (a claim, a cancel, the reaper) changed it
    first. The caller commits."""
    allowed = sources(new)
    if current is not None:
        check_transition(current, new)
        allowed = frozenset({current})
    now = utcnow()
    values: dict[str, object] = {"status": new}
    if reason:
        values["status_reason"] = reason
    if new is RunStatus.RUNNING:
        values.update(started_at=now, heartbeat_at=now, worker_id=str(worker or ""))
    if new.is_finished:
        values["finished_at"] = now
        if rc is not None:
            values["rc"] = rc
    result = session.execute(
        update(Run)
        .where(Run.id == run_id, Run.status.in_(list(allowed)))
        .values(values)
        .execution_options(synchronize_session="fetch")
    )
    changed = bool(getattr(result, "rowcount", 0) == 1)
    if changed:
        outbox.on_transition(session, run_id, new)
    return changed


def claim(session: Session, run_id: int, worker: WorkerId) -> bool:
    """Atomically take a queued run (queued -> running). False if someone else did, or it ended."""
    claimed = transition(
        session, run_id, RunStatus.RUNNING, worker=worker, current=RunStatus.QUEUED
    )
    session.commit()
    return claimed


def next_claimable(session: Session, *, slots: int, default_project_limit: int) -> list[int]:
    """Queued runs, oldest first, that fit the per-project concurrency limits."""
    if slots <= 0:
        return []
    running = dict(
        session.execute(
            select(Run.project_id, func.count())
            .where(Run.status == RunStatus.RUNNING)
            .group_by(Run.project_id)
        ).all()
    )
    limits = dict(session.execute(select(Project.id, Project.max_parallel_runs)).all())
    chosen: list[int] = []
    queued = session.execute(
        select(Run.id, Run.project_id).where(Run.status == RunStatus.QUEUED).order_by(Run.id)
    )
    for run_id, project_id in queued:
        limit = limits.get(project_id) or default_project_limit
        if running.get(project_id, 0) >= limit:
            continue
        chosen.append(run_id)
        running[project_id] = running.get(project_id, 0) + 1
        if len(chosen) >= slots:
            break
    return chosen


def heartbeat(session: Session, run_id: int) -> None:
    session.execute(update(Run).where(Run.id == run_id).values(heartbeat_at=utcnow()))


def _gone(worker: WorkerId | None, me: WorkerId) -> bool:
    if worker is None or worker.host != me.host:
        return False
    if worker.pid == me.pid:
        return worker.boot != me.boot
    return not psutil.pid_exists(worker.pid)


def interrupted_runs(session: Session, me: WorkerId) -> list[Run]:
    """Runs left running by a process of this host that is gone (crash, kill -9, reboot)."""
    running = session.scalars(select(Run).where(Run.status == RunStatus.RUNNING))
    return [run for run in running if _gone(WorkerId.parse(run.worker_id), me)]


def expired_runs(session: Session, lease: dt.timedelta) -> list[Run]:
    cutoff = utcnow() - lease
    return list(
        session.scalars(
            select(Run).where(Run.status == RunStatus.RUNNING, Run.heartbeat_at < cutoff)
        )
    )
