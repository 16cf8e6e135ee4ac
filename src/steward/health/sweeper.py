"""The periodic health pass: a background service of ``steward serve``, on when
``STEWARD_HEALTH_INTERVAL_SECONDS`` is set. It looks often (a tenth of the interval, at most a
minute apart); the pass itself runs once per interval on one server (``service.claim_sweep``).
The checks run in this thread's own event loop: they wait on sockets, not on the CPU, so runs
are not slowed (``bench/host_health.py`` measures a pass of 1,000 hosts)."""

from __future__ import annotations

import logging

from steward.health import service
from steward.runtime import Runtime
from steward.ticker import Ticker

log = logging.getLogger(__name__)

LOOK_MAX_SECONDS = 60.0


class HealthSweeper:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._ticker = Ticker("health", self.tick, self._seconds)

    def _seconds(self) -> float:
        return min(max(self._runtime.settings.health_interval_seconds / 10, 0.05), LOOK_MAX_SECONDS)

    @property
    def enabled(self) -> bool:
        return self._runtime.settings.health_interval_seconds > 0

    def start(self) -> None:
        if self.enabled:
            self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def tick(self) -> int:
        with self._runtime.sessions() as session:
            checked = service.sweep(session, self._runtime.settings)
        if checked:
            log.info("health: %d hosts checked", checked)
        return checked
