"""Wakes this process's live streams of a run when something of it was committed.

A live stream (``output.stream``) reads what is stored, then waits. Polling the database ten
times a second costs the server CPU beside ansible on every watched run; instead the recorder
rings after each commit of output and ``lifecycle`` after each committed status change, and a
stream reads only when rung (at most every ``output.STREAM_INTERVAL_SECONDS``), or after a
quiet fallback in case the change happened elsewhere.

In-process only: in Celery mode runs execute in workers, whose commits ring no bell here, so
the server's streams poll at the short interval (see ``runs.routes``).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

from sqlalchemy import event
from sqlalchemy.orm import Session

_PENDING = "steward.runs.bell"  # Session.info key: run ids to ring once the session commits


class Bell:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[int, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}

    def ring(self, run_id: int) -> None:
        """Wake every stream of ``run_id`` (thread-safe, never blocks)."""
        with self._lock:
            waiters = tuple(self._waiters.get(run_id, ()))
        for loop, rung in waiters:
            with contextlib.suppress(RuntimeError):  # the stream's loop has closed
                loop.call_soon_threadsafe(rung.set)

    @contextlib.contextmanager
    def listen(self, run_id: int) -> Iterator[asyncio.Event]:
        """An event set whenever ``run_id`` is rung, for the lifetime of the block."""
        waiter = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiters.setdefault(run_id, set()).add(waiter)
        try:
            yield waiter[1]
        finally:
            with self._lock:
                waiters = self._waiters[run_id]
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[run_id]

    def listening(self) -> int:
        """How many runs have a stream waiting (for tests)."""
        with self._lock:
            return len(self._waiters)


BELL = Bell()


def ring_after_commit(session: Session, run_id: int) -> None:
    """Ring ``run_id`` once ``session`` commits (a stream woken earlier would read the old
    state); nothing if it rolls back."""
    session.info.setdefault(_PENDING, set()).add(run_id)


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    for run_id in session.info.pop(_PENDING, ()):
        BELL.ring(run_id)


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    session.info.pop(_PENDING, None)
