"""The run state machine: every status change goes through ``transition``."""

from __future__ import annotations

import enum

from steward.errors import InvalidState


class RunStatus(enum.StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    SUCCESSFUL = "successful"
    FAILED = "failed"
    ERROR = "error"
    CANCELED = "canceled"
    TIMED_OUT = "timed_out"

    @property
    def is_finished(self) -> bool:
        return self in FINISHED


FINISHED = frozenset(
    {
        RunStatus.SUCCESSFUL,
        RunStatus.FAILED,
        RunStatus.ERROR,
        RunStatus.CANCELED,
        RunStatus.TIMED_OUT,
    }
)

ALLOWED: dict[RunStatus, frozenset[RunStatus]] = {
    # a queued run may be canceled, or fail before it starts (repository unreachable, …)
    RunStatus.QUEUED: frozenset({RunStatus.RUNNING, RunStatus.CANCELED, RunStatus.ERROR}),
    RunStatus.RUNNING: FINISHED,
}


def check_transition(current: RunStatus, new: RunStatus) -> None:
    if new not in ALLOWED.get(current, frozenset()):
        raise InvalidState(f"a run cannot go from {current} to {new}")
