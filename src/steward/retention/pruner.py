"""The pruner: a background service of ``steward serve`` applying the retention periods every
``retention_tick_seconds``. Several servers may prune at once: deleting is idempotent."""

from __future__ import annotations

import logging
import threading

from sqlalchemy.exc import OperationalError

from steward.retention import service
from steward.runtime import Runtime

log = logging.getLogger(__name__)


class Pruner:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._periods = service.Periods.of(runtime.settings)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._loop, name="pruner", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _loop(self) -> None:
        while not self._stop.wait(self._runtime.settings.retention_tick_seconds):
            try:
                self.tick()
            except OperationalError:
                log.warning("retention: the database is away; pruning at the next tick")
            except Exception:
                log.exception("retention: pruning failed; trying again at the next tick")

    def tick(self) -> service.Pruned:
        with self._runtime.sessions() as session:
            pruned = service.prune(session, self._periods)
        if pruned.runs or pruned.deliveries or pruned.messages:
            log.info("retention: %s", pruned.summary(self._periods))
        return pruned
