"""Run events into notification messages, in the transaction of the run's status change.

``lifecycle.transition`` calls ``on_transition`` after its compare-and-set succeeded, so a message
exists exactly when the status change is committed: none lost on a crash, none for a change that
lost its race.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from steward.runs.status import RunStatus


def on_transition(session: Session, run_id: int, status: RunStatus) -> None:
    """Queue a message per subscription of the run's project/template/schedule wanting the
    events this status stands for (started, succeeded, failed, …, fixed, changed)."""
    # implemented with the notifications domain (issue 10)
