"""Status changes of runs: the transition function, claiming, and recovery after crashes."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import os
import socket
import uuid
from collections.abc import Collection
from typing import Any

import psutil
from sqlalchemy import ColumnElement, Integer, Select, bindparam, func, select, update
from sqlalchemy.orm import Session, aliased

from steward.config import Settings
from steward.db import utcnow
from steward.drift import state as drift
from steward.notifications import outbox
from steward.projects.models import Project
from steward.runner_groups.models import RunnerGroup
from steward.runs.bell import ring_after_commit
from steward.runs.models import Run, RunKind
from steward.runs.status import RunStatus, check_transition, sources
from steward.workflows import passes as workflow_passes


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


@dataclasses.dataclass(frozen=True)
class Limits:
    """Runs at once: in the whole installation (None: no limit but the workers' slots), and
    per project unless the project sets its own (``Project.max_parallel_runs``); a runner
    group's own limit is on its row."""

    total: int | None
    project_default: int

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(settings.global_parallel_runs, settings.default_project_parallel_runs)


def _set_status(
    session: Session,
    which: ColumnElement[bool],
    allowed: frozenset[RunStatus],
    new: RunStatus,
    *,
    reason: str = "",
    rc: int | None = None,
    worker: WorkerId | None = None,
    params: dict[str, Any] | None = None,
) -> int | None:
    """The compare-and-set behind ``transition`` and ``claim_next``: ``UPDATE runs … WHERE
    which AND status IN allowed RETURNING id``; the id of the run changed, or None."""
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
    row = session.execute(
        update(Run)
        .where(which, Run.status.in_(list(allowed)))
        .values(values)
        .returning(Run.id, Run.workflow_run_id, Run.kind, drift.drifted_now())
        .execution_options(synchronize_session="fetch"),
        params,
    ).one_or_none()
    if row is None:
        return None
    changed, workflow_run_id, kind, drifted = row
    if new is RunStatus.SUCCESSFUL and (kind == RunKind.PLAN or drifted):
        # found by a plan, cleared by a run (drift.state); no statement more for a run of a
        # template without drift
        drift.on_success(session, changed)
    outbox.on_transition(session, changed, new)
    ring_after_commit(session, changed)
    if workflow_run_id is not None and new.is_finished:
        # a node of a workflow run ended: marked for a pass in this transaction (the UPDATE
        # returned its workflow_run_id: no statement more for a run of no workflow); a server's
        # workflows ticker makes it, never the thread that finished the run
        workflow_passes.mark(session, workflow_run_id)
    return int(changed)


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
    changed = _set_status(
        session, Run.id == run_id, allowed, new, reason=reason, rc=rc, worker=worker
    )
    return changed is not None


@functools.cache
def _claimable(total: bool, queues: bool) -> Select[int]:
    """The oldest queued run that fits every limit: the installation's (``total``: bound as
    ``total``), its project's (``project_default`` where the project sets none) and its
    runner group's, of the groups bound as ``queues`` (``queues``; else of every group).

    Counted over the running runs once (the projects and groups that are full), never once
    per queued run: a claim behind a backlog of thousands costs what it costs behind none.
    Built once per shape: a statement reused is not built again, nor its cache key computed."""
    other = aliased(Run)
    running = other.status == RunStatus.RUNNING
    project_limit = func.coalesce(
        Project.max_parallel_runs, bindparam("project_default", type_=Integer)
    )
    full_projects = (
        select(other.project_id)
        .join(Project, Project.id == other.project_id)
        .where(running)
        .group_by(other.project_id, Project.max_parallel_runs)
        .having(func.count() >= project_limit)
    )
    full_groups = (
        select(other.runner_group)
        .join(RunnerGroup, RunnerGroup.name == other.runner_group)
        .where(running, RunnerGroup.max_parallel_runs.is_not(None))
        .group_by(other.runner_group, RunnerGroup.max_parallel_runs)
        .having(func.count() >= RunnerGroup.max_parallel_runs)
    )
    conditions = [
        Run.status == RunStatus.QUEUED,
        Run.project_id.not_in(full_projects),
        Run.runner_group.not_in(full_groups),
    ]
    if total:
        in_all = select(func.count()).select_from(other).where(running).scalar_subquery()
        conditions.append(in_all < bindparam("total", type_=Integer))
    if queues:
        conditions.append(Run.runner_group.in_(bindparam("queues", expanding=True)))
    # its own FROM: inside the claiming UPDATE of runs, never correlated to the updated row
    return select(Run.id).where(*conditions).order_by(Run.id).limit(1).correlate(None)


def claimable(limits: Limits, queues: Collection[str] | None) -> tuple[Select[int], dict[str, Any]]:
    """The statement of the oldest claimable run of ``queues`` (None: every group) and its
    parameters."""
    params: dict[str, Any] = {"project_default": limits.project_default}
    if limits.total is not None:
        params["total"] = limits.total
    if queues is not None:
        params["queues"] = list(queues)
    return _claimable(limits.total is not None, queues is not None), params


CLAIM_LOCK = 0x5374657761726431  # pg_advisory_xact_lock key: claims run one at a time


def claim_next(
    session: Session, worker: WorkerId, limits: Limits, queues: Collection[str] | None = None
) -> int | None:
    """Take the oldest claimable run (queued -> running, owner, lease) in one conditional
    UPDATE whose WHERE holds the limits; commits. None when nothing fits (a duplicate
    delivery, a full limit, an empty queue): found by a read first, without the write lock
    (every launch behind a full limit wakes a dispatcher to find just that).

    Two claims must not both count N-1 running runs and both start one: SQLite serializes
    writers (the UPDATE takes the write lock before it counts); on PostgreSQL the claiming
    transaction first takes an advisory lock, so the statement's snapshot sees every claim
    committed before it, and ``FOR UPDATE SKIP LOCKED`` passes over rows another transaction
    (a cancel) holds."""
    candidate, params = claimable(limits, queues)
    if session.scalar(candidate, params) is None:
        session.commit()  # the read's transaction ends (a WAL snapshot is not held)
        return None
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(CLAIM_LOCK)))
        candidate = candidate.with_for_update(skip_locked=True, of=Run)
    claimed = _set_status(
        session,
        Run.id == candidate.scalar_subquery(),
        frozenset({RunStatus.QUEUED}),
        RunStatus.RUNNING,
        worker=worker,
        params=params,
    )
    session.commit()
    return claimed


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


def orphaned(session: Session, me: WorkerId, marked: Collection[str]) -> list[str]:
    """Of the run uuids ``marked`` on processes of this host, those that must not be running:
    their run ended, or its worker (on this host) is gone. Processes of runs this database
    does not know are left alone (another installation on the same machine)."""
    if not marked:
        return []
    rows = session.execute(
        select(Run.uuid, Run.status, Run.worker_id).where(Run.uuid.in_(list(marked)))
    ).all()
    return [
        uuid_
        for uuid_, status, worker_id in rows
        if RunStatus(status).is_finished or _gone(WorkerId.parse(worker_id), me)
    ]
