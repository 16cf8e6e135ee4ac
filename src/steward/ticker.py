"""Ticker: the thread behind every background service of a process (scheduler, notifier,
pruner, Celery housekeeping): ``tick`` now, then every ``seconds`` until stopped.

A failing tick never ends the thread: the database being away is a warning (it comes back), any
other failure is logged with its traceback; the next tick comes either way.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy.exc import OperationalError

log = logging.getLogger(__name__)


class Ticker:
    def __init__(self, name: str, tick: Callable[[], object], seconds: Callable[[], float]) -> None:
        self.name = name
        self._tick = tick
        self._seconds = seconds
        self.stopping = threading.Event()  # set by stop(); a long tick may look at it
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self.stopping.clear()
        self._thread = threading.Thread(target=self._loop, name=self.name, daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30) -> None:
        self.stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)

    def _loop(self) -> None:
        while not self.stopping.is_set():
            try:
                self._tick()
            except OperationalError as exc:
                log.warning(
                    "%s: the database is away (%s); trying at the next tick", self.name, exc
                )
            except Exception:
                log.exception("%s: a tick failed; trying again at the next one", self.name)
            self.stopping.wait(self._seconds())
