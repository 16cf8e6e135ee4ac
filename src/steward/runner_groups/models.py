"""Runner groups (named sets of workers, one Celery queue each) and the workers seen online.

A run is placed in a group at launch (its template's, else its project's, else ``default``) and
only a worker listening on that group's queue claims it. A group's row adds a description and an
optional limit of runs at once; the ``default`` group needs no row.

Workers record their presence here (``last_seen``, renewed every heartbeat), so the API can say
"no worker in group X is online" without asking the broker.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow

DEFAULT_GROUP = "default"
EVERY_GROUP = "*"  # the embedded dispatcher: it executes the runs of every group


class RunnerGroup(Base):
    __tablename__ = "runner_groups"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(63), unique=True)  # the Celery queue; never renamed
    description: Mapped[str] = mapped_column(Text, default="")
    max_parallel_runs: Mapped[int | None]  # runs of the group at once; None: no group limit
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Worker(Base):
    """A process that executes runs: a ``steward worker``, or the embedded dispatcher of a
    ``steward serve``. Its id is the ``WorkerId`` written on the runs it claims."""

    __tablename__ = "workers"

    id: Mapped[str] = mapped_column(String(200), primary_key=True)
    host: Mapped[str] = mapped_column(String(255))
    pid: Mapped[int]
    concurrency: Mapped[int]  # runs it executes at once
    started_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    last_seen: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)


class WorkerQueue(Base):
    """A group (queue) a worker listens on."""

    __tablename__ = "worker_queues"
    __table_args__ = (Index("ix_worker_queues_queue", "queue"),)

    worker_id: Mapped[str] = mapped_column(
        ForeignKey("workers.id", ondelete="CASCADE"), primary_key=True
    )
    queue: Mapped[str] = mapped_column(String(63), primary_key=True)
