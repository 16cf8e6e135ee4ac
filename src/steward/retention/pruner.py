"""The pruner: a background service of ``steward serve`` applying the retention periods at
start and every ``retention_tick_seconds``. Several servers may prune at once: deleting is
idempotent."""

from __future__ import annotations

import logging

from steward.retention import service
from steward.runtime import Runtime
from steward.ticker import Ticker

log = logging.getLogger(__name__)


class Pruner:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._periods = service.Periods.of(runtime.settings)
        self._ticker = Ticker("pruner", self.tick, lambda: runtime.settings.retention_tick_seconds)

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def tick(self) -> service.Pruned:
        with self._runtime.sessions() as session:
            pruned = service.prune(session, self._periods)
        if pruned:
            log.info("retention: %s", pruned.summary(self._periods))
        return pruned
