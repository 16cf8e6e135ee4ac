"""The embedded dispatcher: starts queued runs in threads of the server process.

It wakes on every submit (no polling tick), claims queued rows of every runner group within the
limits (``lifecycle.claim_next``), and on start fails the runs a dead predecessor left running.
A slow timer (the heartbeat) also catches runs whose delivery was lost, and runs whose worker
stopped heart-beating; it renews this server's row among the online workers (group ``*``).
"""

from __future__ import annotations

import datetime as dt
import logging
import threading
import time

from sqlalchemy.exc import OperationalError

from steward.dispatch import presence, reaper
from steward.execution import workdirs
from steward.execution.executor import execute_run
from steward.queue import RunSignals
from steward.runner_groups.models import EVERY_GROUP
from steward.runs import lifecycle
from steward.runs.lifecycle import Limits, WorkerId
from steward.runs.status import Reason
from steward.runtime import Runtime

log = logging.getLogger(__name__)


class LocalDispatcher:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.worker = WorkerId.current()
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._active: dict[int, tuple[threading.Thread, RunSignals]] = {}
        self._loop_thread: threading.Thread | None = None

    # RunQueue
    def submit(self, run_id: int) -> None:
        self._wake.set()

    def cancel(self, run_id: int) -> None:
        with self._lock:
            active = self._active.get(run_id)
        if active is not None:
            active[1].wake.set()

    # lifecycle
    def start(self) -> None:
        self.recover()
        with self.runtime.sessions() as session:
            presence.register(
                session, self.worker, [EVERY_GROUP], self.runtime.settings.max_parallel_runs
            )
        self._stopping.clear()
        self._loop_thread = threading.Thread(target=self._loop, name="dispatcher", daemon=True)
        self._loop_thread.start()
        self._wake.set()

    def stop(self) -> None:
        """Server shutdown: end running runs as interrupted, and leave queued ones queued."""
        self._stopping.set()
        self._wake.set()
        if self._loop_thread is not None:
            self._loop_thread.join(timeout=10)
        with self._lock:
            active = list(self._active.values())
        for _thread, signals in active:
            signals.shutdown = True
            signals.wake.set()
        for thread, _signals in active:
            thread.join(timeout=self.runtime.settings.cancel_grace_seconds + 15)
        try:
            with self.runtime.sessions() as session:
                presence.unregister(session, self.worker)
        except OperationalError:  # the row expires after the lease, as if this process died
            log.warning("the database is away: this dispatcher's presence expires by itself")

    def recover(self) -> None:
        """Runs left 'running' by a process that is gone become 'error', their processes killed."""
        reaper.recover(self.runtime, self.worker, Reason.INTERRUPTED)

    def _reap_expired(self) -> None:
        lease = dt.timedelta(seconds=self.runtime.settings.lease_seconds)
        with self._lock:
            executing = set(self._active)
        with self.runtime.sessions() as session:
            reaper.fail_expired(session, lease, executing)
            if not presence.beat(session, self.worker):
                presence.register(
                    session, self.worker, [EVERY_GROUP], self.runtime.settings.max_parallel_runs
                )

    def _sweep(self) -> None:
        """Private directories (decrypted secrets) of runs that ended without removing theirs."""
        with self._lock:
            executing = set(self._active)
        with self.runtime.sessions() as session:
            workdirs.sweep(session, self.runtime.settings, executing=executing)

    def _loop(self) -> None:
        due = 0.0  # the heartbeat's work (reap, renew, sweep): at once, then on its timer only,
        # never on a submit or a run's end (each would add two writes to every launch)
        while not self._stopping.is_set():
            self._wake.wait(timeout=max(due - time.monotonic(), 0.0))
            self._wake.clear()
            if self._stopping.is_set():
                break
            try:
                if time.monotonic() >= due:
                    self._reap_expired()
                    self._sweep()
                    settings = self.runtime.settings
                    due = time.monotonic() + min(
                        settings.heartbeat_seconds, settings.lease_seconds / 2
                    )
                self._dispatch()
            except Exception:
                log.exception("dispatching queued runs failed; retrying")
                self._stopping.wait(1.0)
                self._wake.set()

    def _dispatch(self) -> None:
        settings = self.runtime.settings
        limits = Limits.of(settings)
        while True:
            with self._lock:
                if len(self._active) >= settings.max_parallel_runs:
                    return
            with self.runtime.sessions() as session:
                run_id = lifecycle.claim_next(session, self.worker, limits)
            if run_id is None:
                return
            self._start(run_id)

    def _start(self, run_id: int) -> None:
        signals = RunSignals(hears_cancels=True)
        thread = threading.Thread(
            target=self._execute, args=(run_id, signals), name=f"run-{run_id}", daemon=True
        )
        with self._lock:
            self._active[run_id] = (thread, signals)
        thread.start()

    def _execute(self, run_id: int, signals: RunSignals) -> None:
        try:
            execute_run(self.runtime, run_id, self.worker, signals)
        finally:
            with self._lock:
                self._active.pop(run_id, None)
            self._wake.set()  # a slot is free
