"""Runner groups: admins name them (the queues of `steward worker --queues`) and may limit them;
a project or template chooses one; a run is placed in its group at launch (``group_of``)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.db import paged, utcnow
from steward.dispatch import presence
from steward.errors import InvalidInput, NotFound
from steward.projects.models import Project
from steward.projects.scoped import check_name_free
from steward.references import refuse_if_referenced
from steward.runner_groups.models import DEFAULT_GROUP, RunnerGroup, Worker, WorkerQueue
from steward.runner_groups.schemas import (
    RunnerGroupCreate,
    RunnerGroupRead,
    RunnerGroupUpdate,
    WorkerRead,
)
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.templates.models import Template

FIELDS = ("name", "description", "max_parallel_runs")


def group_of(session: Session, project: Project, template: Template | None) -> str:
    """The group a run of ``template`` in ``project`` goes to: the template's, else the
    project's, else ``default``."""
    chosen = (template.runner_group_id if template else None) or project.runner_group_id
    if chosen is None:
        return DEFAULT_GROUP
    return session.scalar(select(RunnerGroup.name).where(RunnerGroup.id == chosen)) or (
        DEFAULT_GROUP
    )


def choose(session: Session, actor: Actor, group_id: int | None, field: str) -> int | None:
    """Check a project's or template's new ``runner_group_id``: only admins place runs (a
    group's workers may reach networks others cannot), and the group must exist."""
    policy.require_runner_group_choice(actor, field)
    if group_id is not None and session.get(RunnerGroup, group_id) is None:
        raise InvalidInput(field, f"runner group {group_id} does not exist")
    return group_id


def _read(group: RunnerGroup, capacity: dict[str, int], workers: dict[str, int]) -> RunnerGroupRead:
    return RunnerGroupRead.model_validate(group).model_copy(
        update={
            "workers_online": workers.get(group.name, 0),
            "slots_online": capacity.get(group.name, 0),
        }
    )


def _online(session: Session, lease: dt.timedelta) -> tuple[dict[str, int], dict[str, int]]:
    rows = session.execute(
        select(WorkerQueue.queue, func.count())
        .join(Worker, Worker.id == WorkerQueue.worker_id)
        .where(Worker.last_seen >= utcnow() - lease)
        .group_by(WorkerQueue.queue)
    ).all()
    return presence.online_capacity(session, lease), {q: int(n) for q, n in rows}


def list_all(
    session: Session, lease: dt.timedelta, *, limit: int, offset: int
) -> tuple[list[RunnerGroupRead], int]:
    query = select(RunnerGroup).order_by(RunnerGroup.name)
    rows, total = paged(session, query, limit=limit, offset=offset)
    capacity, workers = _online(session, lease)
    return [_read(g, capacity, workers) for g in rows], total


def get(session: Session, group_id: int) -> RunnerGroup:
    group = session.get(RunnerGroup, group_id)
    if group is None:
        raise NotFound(f"runner group {group_id} not found")
    return group


def read(session: Session, group: RunnerGroup, lease: dt.timedelta) -> RunnerGroupRead:
    return _read(group, *_online(session, lease))


def create(session: Session, actor: Actor, body: RunnerGroupCreate) -> RunnerGroup:
    check_name_free(session, RunnerGroup, None, body.name, "runner group")
    group = RunnerGroup(**body.model_dump())
    return audit.commit_created(session, actor, AuditAction.RUNNER_GROUP_CREATE, group, FIELDS)


def update(
    session: Session, actor: Actor, group: RunnerGroup, body: RunnerGroupUpdate
) -> RunnerGroup:
    before = audit.snapshot(group, FIELDS)
    for field, value in body.changes().items():
        setattr(group, field, value)
    return audit.commit_updated(
        session, actor, AuditAction.RUNNER_GROUP_UPDATE, group, before, FIELDS
    )


def delete(session: Session, actor: Actor, group: RunnerGroup) -> None:
    """Refused while a project or template chooses it. Runs already placed in it keep their
    queue (workers of that name still execute them), without the group's limit."""
    refuse_if_referenced(session, group)
    audit.commit_deleted(session, actor, AuditAction.RUNNER_GROUP_DELETE, group, FIELDS)


def list_workers(session: Session, lease: dt.timedelta) -> list[WorkerRead]:
    """Every worker known (online or not yet pruned), newest first, with its queues and the
    runs it executes now: three queries whatever the number of workers."""
    workers = list(session.scalars(select(Worker).order_by(Worker.started_at.desc())))
    queues: dict[str, list[str]] = {}
    for worker_id, queue in session.execute(
        select(WorkerQueue.worker_id, WorkerQueue.queue).order_by(WorkerQueue.queue)
    ):
        queues.setdefault(worker_id, []).append(queue)
    running = dict(
        session.execute(
            select(Run.worker_id, func.count())
            .where(Run.status == RunStatus.RUNNING)
            .group_by(Run.worker_id)
        ).all()
    )
    cutoff = utcnow() - lease
    return [
        WorkerRead(
            id=w.id,
            host=w.host,
            pid=w.pid,
            queues=queues.get(w.id, []),
            concurrency=w.concurrency,
            running=int(running.get(w.id, 0)),
            online=w.last_seen >= cutoff,
            started_at=w.started_at,
            last_seen=w.last_seen,
        )
        for w in workers
    ]
