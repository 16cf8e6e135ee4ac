"""The run state machine: which status may follow which, and the reasons Steward gives.

Every status change goes through ``lifecycle.transition``, a compare-and-set on these rules.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping


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

# What a success rate is judged on: a canceled run says nothing of the playbook, whoever
# stopped it; queued and running ones have not ended.
JUDGED = frozenset({RunStatus.SUCCESSFUL, RunStatus.FAILED, RunStatus.ERROR, RunStatus.TIMED_OUT})
SUCCESS_RATE = (
    "successful / (successful + failed + error + timed out) runs, from 0 to 1: canceled runs"
    " are left out (they say nothing of the playbook), queued and running ones too; null"
    " without such a run"
)


def success_rate(counts: Mapping[str, int] | Mapping[RunStatus, int]) -> float | None:
    """The one success rate of Steward (the dashboard's and a template's): ``SUCCESS_RATE``,
    of run counts by status, rounded to 4 digits."""
    judged = sum(n for status, n in counts.items() if status in JUDGED)
    return round(counts.get(RunStatus.SUCCESSFUL, 0) / judged, 4) if judged else None


ALLOWED: dict[RunStatus, frozenset[RunStatus]] = {
    # a queued run may be canceled, or fail before it starts (repository unreachable, …)
    RunStatus.QUEUED: frozenset({RunStatus.RUNNING, RunStatus.CANCELED, RunStatus.ERROR}),
    RunStatus.RUNNING: FINISHED,
}


def check_transition(current: RunStatus, new: RunStatus) -> None:
    """A programming error, not a race: asking for a change the state machine never allows."""
    if new not in ALLOWED.get(current, frozenset()):
        raise ValueError(f"a run cannot go from {current} to {new}")


def sources(new: RunStatus) -> frozenset[RunStatus]:
    """The statuses a run may be in for ``new`` to follow."""
    return frozenset(current for current, nexts in ALLOWED.items() if new in nexts)


class Reason:
    """Why a run reached its status, when Steward (not ansible-playbook) decided it."""

    INTERRUPTED = "interrupted: server stopped during the run"
    WORKER_LOST = "worker lost: no heartbeat within the lease"
    WORKER_STOPPED = "worker lost: its worker stopped during the run"
    CANCELED_QUEUED = "canceled before it started"
    CANCELED = "canceled on request"
    TIMED_OUT = "the run exceeded its timeout"
