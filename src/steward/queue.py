"""How "run N is queued" reaches an executor. The run's row is the truth; this only delivers."""

from __future__ import annotations

import dataclasses
import threading
from typing import Protocol


class RunQueue(Protocol):
    def submit(self, run_id: int) -> None:
        """Called after the queued run's row is committed. Must not block."""

    def cancel(self, run_id: int) -> None:
        """Called after a cancel request is committed, to wake the executor early."""


@dataclasses.dataclass
class RunSignals:
    """How a queue reaches a run it is executing: wake it to re-check cancel, or stop it."""

    wake: threading.Event = dataclasses.field(default_factory=threading.Event)
    shutdown: bool = False
    # whether a cancel request made in the run's process wakes it (the embedded dispatcher);
    # if not (a Celery worker), the executor reads the run's row more often to notice one
    hears_cancels: bool = False
