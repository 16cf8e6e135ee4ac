"""Hands a launched run to the queue once the transaction that created it commits.

``runs.service.launch`` adds the run in its caller's transaction (a person's launch, a
schedule's claimed occurrence, a webhook's delivery record, a workflow pass) and registers the
run here; whoever owns the transaction only commits. A queue message sent earlier could reach
an executor before the row exists; one sent after a rollback would name a run that never was.
So no caller submits a launch by hand, and none can forget to.
"""

from __future__ import annotations

from sqlalchemy import event
from sqlalchemy.orm import Session

from steward.queue import RunQueue

_PENDING = "steward.runs.handoff"  # Session.info key: (queue, run id) to submit at commit


def submit_after_commit(session: Session, queue: RunQueue, run_id: int) -> None:
    """``queue.submit(run_id)`` once ``session`` commits; nothing if it rolls back."""
    session.info.setdefault(_PENDING, []).append((queue, run_id))


@event.listens_for(Session, "after_commit")
def _after_commit(session: Session) -> None:
    if session.in_nested_transaction():  # a savepoint: the run is not committed yet
        return
    failed: Exception | None = None
    for queue, run_id in session.info.pop(_PENDING, ()):
        try:
            queue.submit(run_id)
        except Exception as exc:  # noqa: BLE001 - the others are still handed over
            failed = failed or exc
    if failed is not None:  # the run stays queued: the reaper re-sends it
        raise failed


@event.listens_for(Session, "after_rollback")
def _after_rollback(session: Session) -> None:
    if not session.in_nested_transaction():
        session.info.pop(_PENDING, None)
