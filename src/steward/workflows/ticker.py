"""The ``workflows`` ticker: a thread of `steward serve` that advances workflow runs.

Every ``STEWARD_WORKFLOW_TICK_SECONDS`` it makes a pass (``progress.run_pass``) over each running
workflow run that a node run's end, a decision or a cancel marked, or whose approval deadline
has come. Several servers may tick on one database: each pass is claimed by one of them. A
restarted server finds the marks left by runs that ended while it was down, so a workflow
continues where it was.
"""

from __future__ import annotations

import logging

from sqlalchemy.exc import OperationalError

from steward.db import utcnow
from steward.queue import RunQueue
from steward.runtime import Runtime
from steward.ticker import Ticker
from steward.workflows import passes, progress

log = logging.getLogger(__name__)

BATCH = 200  # workflow runs read at once


class WorkflowTicker:
    def __init__(self, runtime: Runtime, queue: RunQueue) -> None:
        self.runtime = runtime
        self.queue = queue
        settings = runtime.settings
        self._ticker = Ticker("workflows", self.tick, lambda: settings.workflow_tick_seconds)
        self.planning = progress.Planning.of(settings, runtime.cipher)

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def tick(self) -> int:
        """Pass every workflow run that wants it; how many this process advanced."""
        now = utcnow()
        with self.runtime.sessions() as session:
            wanted = passes.due(session, now, limit=BATCH)
        passed = 0
        for wrun_id in wanted:
            if self._ticker.stopping.is_set():
                break
            try:
                with self.runtime.sessions() as session:
                    done = progress.run_pass(
                        session, self.runtime.cipher, self.queue, wrun_id, now, self.planning
                    )
            except OperationalError as exc:  # busy, a deadlock victim: the mark stays
                log.warning("workflow run %s: pass not made this tick: %s", wrun_id, exc)
                continue
            except Exception:  # one broken workflow run must not hold back the others
                log.exception("workflow run %s: pass failed; trying at the next tick", wrun_id)
                continue
            if done is not None:
                done.send(self.queue)
                passed += 1
        return passed
