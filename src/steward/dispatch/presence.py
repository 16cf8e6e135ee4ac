"""Workers' presence in the database: who is online, on which queues, with how many slots.

Each worker (a ``steward worker``, or the embedded dispatcher of ``steward serve``) renews its
row every heartbeat; a row older than the lease is a worker that is gone. This is what lets the
API say "no worker in group X is online" without asking the broker.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection

from sqlalchemy import delete, func, select, update
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.runner_groups.models import EVERY_GROUP, Worker, WorkerQueue
from steward.runs.lifecycle import WorkerId


def register(session: Session, worker: WorkerId, queues: Collection[str], concurrency: int) -> None:
    """(Re)write the worker's row and queues; commits."""
    unregister(session, worker)
    session.add(Worker(id=str(worker), host=worker.host, pid=worker.pid, concurrency=concurrency))
    session.flush()
    session.add_all(WorkerQueue(worker_id=str(worker), queue=q) for q in sorted(set(queues)))
    session.commit()


def beat(session: Session, worker: WorkerId) -> bool:
    """Renew ``last_seen``; False when the row is gone (pruned while the worker was cut off
    from the database): the caller registers again. Commits."""
    result = session.execute(
        update(Worker).where(Worker.id == str(worker)).values(last_seen=utcnow())
    )
    session.commit()
    return bool(getattr(result, "rowcount", 0))


def unregister(session: Session, worker: WorkerId) -> None:
    session.execute(delete(WorkerQueue).where(WorkerQueue.worker_id == str(worker)))
    session.execute(delete(Worker).where(Worker.id == str(worker)))
    session.commit()


def prune(session: Session, older_than: dt.timedelta) -> int:
    """Forget workers not seen for ``older_than`` (they stopped without unregistering)."""
    cutoff = utcnow() - older_than
    gone = list(session.scalars(select(Worker.id).where(Worker.last_seen < cutoff)))
    if gone:
        session.execute(delete(WorkerQueue).where(WorkerQueue.worker_id.in_(gone)))
        session.execute(delete(Worker).where(Worker.id.in_(gone)))
        session.commit()
    return len(gone)


def online_capacity(session: Session, lease: dt.timedelta) -> dict[str, int]:
    """Slots of the workers seen within ``lease``, per queue they listen on (``*``: the
    embedded dispatcher, which takes every group)."""
    cutoff = utcnow() - lease
    rows = session.execute(
        select(WorkerQueue.queue, func.sum(Worker.concurrency))
        .join(Worker, Worker.id == WorkerQueue.worker_id)
        .where(Worker.last_seen >= cutoff)
        .group_by(WorkerQueue.queue)
    ).all()
    return {queue: int(slots) for queue, slots in rows}


def serves(capacity: dict[str, int], group: str) -> int:
    """Slots online for ``group``: its own workers' and any embedded dispatcher's."""
    return capacity.get(group, 0) + capacity.get(EVERY_GROUP, 0)
