"""The scheduler: a thread of `steward serve` that launches the occurrences that have come.

Every ``STEWARD_SCHEDULER_TICK_SECONDS`` it disables the schedules whose template or owner was
deleted, then fires every due schedule (``firing``), in batches until none is left. Several
servers may tick on one database: each occurrence is claimed by exactly one of them. A failure
is logged and the next tick tries again; it never stops the server.
"""

from __future__ import annotations

import datetime as dt
import logging

from sqlalchemy.exc import OperationalError

from steward.db import utcnow
from steward.queue import RunQueue
from steward.runtime import Runtime
from steward.schedules import firing
from steward.ticker import Ticker

log = logging.getLogger(__name__)

BATCH = 500  # due schedules read at once
CLAIMS = 50  # occurrences claimed and launched in one transaction


class Scheduler:
    def __init__(self, runtime: Runtime, queue: RunQueue) -> None:
        self.runtime = runtime
        self.queue = queue
        self._ticker = Ticker("scheduler", self.tick, lambda: self.tick_seconds)
        self._stopping = self._ticker.stopping

    @property
    def tick_seconds(self) -> float:
        return self.runtime.settings.scheduler_tick_seconds

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def tick(self) -> list[int]:
        """Fire everything due now; the ids of the runs this process launched."""
        now = utcnow()
        with self.runtime.sessions() as session:
            firing.disable_orphans(session)
        late_after = firing.LATE_AFTER + dt.timedelta(seconds=self.tick_seconds)
        launched: list[int] = []
        after_id = 0
        while not self._stopping.is_set():
            with self.runtime.sessions() as session:
                rows = firing.due(session, now, after_id=after_id, limit=BATCH)
            for first in range(0, len(rows), CLAIMS):
                if self._stopping.is_set():
                    break
                batch = rows[first : first + CLAIMS]
                plans = [firing.plan(row, now, late_after=late_after) for row in batch]
                launched += self._fire(plans, now)
            if len(rows) < BATCH:
                break
            after_id = rows[-1].id
        return launched

    def _fire(self, todos: list[firing.Plan], now: dt.datetime) -> list[int]:
        """In one transaction; when that fails, one by one, so that a schedule that cannot
        be fired does not hold back the others."""
        try:
            with self.runtime.sessions() as session:
                ttl = self.runtime.settings.plan_ttl_hours
                return firing.fire(
                    session, self.runtime.cipher, self.queue, todos, now, plan_ttl_hours=ttl
                )
        except OperationalError as exc:  # SQLite busy with another server: the next tick retries
            log.warning("schedules: %d not fired this tick: %s", len(todos), exc)
            return []
        except Exception:  # one broken schedule must not stop the others
            if len(todos) == 1:
                what = todos[0].schedule_id
                log.exception("schedule %s: firing failed; trying again at the next tick", what)
                return []
            log.warning("schedules: firing %d at once failed; one by one", len(todos))
        return [run_id for todo in todos for run_id in self._fire([todo], now)]
