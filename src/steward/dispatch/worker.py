"""``steward worker``: a Celery worker (threads pool) that claims and executes runs of its queues.

Each task is a wake-up: it claims the oldest claimable run of the worker's queues, executes it,
and claims again until nothing fits (so a backlog drains even if messages were lost). Beside
the Celery consumer, a housekeeping thread renews the worker's presence row, fails runs whose
lease expired and re-sends runs left queued. At start the worker fails what it left running
and kills the orphans of its previous life (``reaper.recover``).

Threads, not processes: SIGKILL of the worker then stops every heartbeat of its runs at once
(they end "worker lost"), and nothing of it keeps executing but the orphans ``recover`` kills.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import socket
import threading
from collections.abc import Sequence
from typing import Any

from celery import signals as celery_signals
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.dispatch import presence, reaper
from steward.dispatch.celery import Housekeeping, make_app, publish
from steward.execution import workdirs
from steward.execution.executor import execute_run
from steward.queue import RunSignals
from steward.runs import lifecycle
from steward.runs.lifecycle import Limits, WorkerId
from steward.runs.models import Run
from steward.runs.status import Reason, RunStatus
from steward.runtime import Runtime

log = logging.getLogger(__name__)


class RunWorker:
    def __init__(self, runtime: Runtime, queues: Sequence[str], concurrency: int) -> None:
        self.runtime = runtime
        self.queues = tuple(dict.fromkeys(queues))
        self.concurrency = concurrency
        self.me = WorkerId.current()
        self.app = make_app(runtime.settings)
        self.app.task(name="steward.run", acks_late=True, ignore_result=True)(self._task)
        self._lock = threading.Lock()
        self._active: dict[int, RunSignals] = {}
        self._stopping = threading.Event()
        self.housekeeping = Housekeeping(runtime, self.app, executing=self.executing)
        self.housekeeping.on_tick.append(self._beat)

    def executing(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._active)

    def run(self, loglevel: str = "INFO") -> int:
        reaper.recover(self.runtime, self.me, Reason.WORKER_STOPPED)
        with self.runtime.sessions() as session:
            presence.register(session, self.me, self.queues, self.concurrency)
        self.housekeeping.start()
        celery_signals.worker_shutting_down.connect(self._shutting_down, weak=False)
        worker = self.app.Worker(
            hostname=f"steward-{os.getpid()}@{socket.gethostname()}",
            queues=list(self.queues),
            pool="threads",
            concurrency=self.concurrency,
            loglevel=loglevel,
            without_mingle=True,
            without_gossip=True,
        )
        try:
            worker.start()
        finally:
            self._shutting_down()
            self.housekeeping.stop()
            with self.runtime.sessions() as session:
                presence.unregister(session, self.me)
            left = self.executing()
            if left:
                log.warning("runs %s were still executing at exit", sorted(left))
        return int(worker.exitcode or 0)

    def _shutting_down(self, **_: Any) -> None:
        """A stop (SIGTERM, SIGINT): claim nothing more, end running runs as interrupted."""
        self._stopping.set()
        with self._lock:
            for signals in self._active.values():
                signals.shutdown = True
                signals.wake.set()

    def _beat(self, session: Session) -> None:
        if not presence.beat(session, self.me):  # pruned while we were cut off: come back
            presence.register(session, self.me, self.queues, self.concurrency)
        workdirs.sweep(session, self.runtime.settings, executing=self.executing())

    def _task(self, run_id: int | None = None) -> None:
        """A wake-up (``run_id`` only says which launch sent it): drain what is claimable."""
        limits = Limits.of(self.runtime.settings)
        while not self._stopping.is_set():
            with self.runtime.sessions() as session:
                claimed = lifecycle.claim_next(session, self.me, limits, self.queues)
            if claimed is None:
                return
            signals = RunSignals()
            with self._lock:
                self._active[claimed] = signals
            try:
                execute_run(self.runtime, claimed, self.me, signals)
            finally:
                with self._lock:
                    self._active.pop(claimed, None)
            self._wake_other_groups()

    def _wake_other_groups(self) -> None:
        """A run that ended frees a project or global slot that a run of another group may be
        waiting for: wake each other group that has queued runs and an online worker, once."""
        lease = dt.timedelta(seconds=self.runtime.settings.lease_seconds)
        with self.runtime.sessions() as session:
            groups = session.scalars(
                select(Run.runner_group)
                .where(Run.status == RunStatus.QUEUED, Run.runner_group.not_in(self.queues))
                .distinct()
            ).all()
            online = presence.online_capacity(session, lease) if groups else {}
        for group in groups:
            if online.get(group):
                publish(self.app, group)
