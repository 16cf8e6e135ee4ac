"""Run events into notification messages, in the transaction of the run's status change.

``lifecycle.transition`` calls ``on_transition`` after its compare-and-set succeeded, so a message
exists exactly when the status change is committed: none lost on a crash, none for a change that
lost its race. The content is built later, by the notifier (``notifications.messages``): here it
costs one query when nobody subscribed, and one or two more for "fixed" and "changed".

Errors: a database error is not caught. It can only mean the transaction that carries the status
change is itself broken (on PostgreSQL it is aborted), so the status change fails with it, as
it would for any other statement of that transaction; catching it would lose the messages
silently and still fail at the commit. What is not a database error cannot happen here: every
value read was validated when it was saved, and unknown stored event names are skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import ColumnElement, and_, exists, insert, or_, select
from sqlalchemy.orm import Session

from steward.notifications.models import Destination, Message, RunEventKind, Subscription
from steward.runs.models import Plan, Run, RunHost
from steward.runs.status import RunStatus
from steward.workflows.models import WorkflowNodeRun, WorkflowRun

EVENT_OF_STATUS: dict[RunStatus, RunEventKind] = {
    RunStatus.RUNNING: RunEventKind.STARTED,
    RunStatus.SUCCESSFUL: RunEventKind.SUCCEEDED,
    RunStatus.FAILED: RunEventKind.FAILED,
    RunStatus.ERROR: RunEventKind.ERROR,
    RunStatus.CANCELED: RunEventKind.CANCELED,
    RunStatus.TIMED_OUT: RunEventKind.TIMED_OUT,
}
# what "fixed" follows: a run that went wrong (a cancel says nothing about the template's health)
BROKEN = (RunStatus.FAILED, RunStatus.ERROR, RunStatus.TIMED_OUT)
COUNTED = (*BROKEN, RunStatus.SUCCESSFUL)


def applies_to_run() -> ColumnElement[bool]:
    """The WHERE clause matching subscriptions to the run joined as ``Run``: project-wide
    ones, the run's template's and the run's schedule's, of enabled destinations."""
    return and_(
        Subscription.project_id == Run.project_id,
        Destination.enabled.is_(True),
        or_(
            and_(Subscription.template_id.is_(None), Subscription.schedule_id.is_(None)),
            Subscription.template_id == Run.template_id,
            Subscription.schedule_id == Run.schedule_id,
        ),
    )


def wanted(events: Iterable[object]) -> set[RunEventKind]:
    """A subscription's stored events as kinds; names this version does not know are skipped."""
    known = {e.value for e in RunEventKind}
    return {RunEventKind(e) for e in events if isinstance(e, str) and e in known}


def on_transition(session: Session, run_id: int, status: RunStatus) -> None:
    """Queue one message per destination whose subscriptions (of the run's project, template
    or schedule) want an event this status stands for: started, succeeded, failed, error,
    canceled, timed out; "fixed" (a success after a failed run of the same template),
    "changed" (a success that changed something on a host) and "approval_needed" (a plan
    whose template asks for approval: it now waits for one) on success."""
    event = EVENT_OF_STATUS.get(status)
    if event is None:
        return
    rows = session.execute(
        select(Subscription.destination_id, Subscription.events, Run.project_id, Run.template_id)
        .join(Run, Run.id == run_id)
        .join(Destination, Destination.id == Subscription.destination_id)
        .where(applies_to_run())
    ).all()
    if not rows:
        return
    project_id, template_id = rows[0].project_id, rows[0].template_id
    wants: dict[RunEventKind, set[int]] = {}
    for row in rows:
        for kind in wanted(row.events):
            wants.setdefault(kind, set()).add(row.destination_id)
    events = {event}
    if status is RunStatus.SUCCESSFUL:
        if RunEventKind.FIXED in wants and _follows_a_failure(session, run_id, template_id):
            events.add(RunEventKind.FIXED)
        if RunEventKind.CHANGED in wants and _changed(session, run_id):
            events.add(RunEventKind.CHANGED)
        if RunEventKind.APPROVAL_NEEDED in wants and _waits_for_approval(session, run_id):
            events.add(RunEventKind.APPROVAL_NEEDED)
    messages = [
        {"project_id": project_id, "destination_id": d, "run_id": run_id, "event": kind.value}
        for kind in sorted(events)
        for d in sorted(wants.get(kind, ()))
    ]
    if messages:
        session.execute(insert(Message), messages)


def on_drift(session: Session, run_id: int) -> None:
    """Queue a ``drift_detected`` message of plan ``run_id`` per enabled destination whose
    subscriptions (of the plan's project, template or schedule) want it, in the transaction
    that found the drift (``drift.state``: once per change of the drift)."""
    _on_run_event(session, run_id, RunEventKind.DRIFT_DETECTED)


def on_freeze_override(session: Session, run_id: int) -> None:
    """Queue a ``freeze_override`` message of run ``run_id`` (launched during a freeze by who
    may override it) per enabled destination whose subscriptions want it, in the launch's
    transaction (``freezes.service``)."""
    _on_run_event(session, run_id, RunEventKind.FREEZE_OVERRIDE)


def _on_run_event(session: Session, run_id: int, kind: RunEventKind) -> None:
    rows = session.execute(
        select(Subscription.destination_id, Subscription.events, Run.project_id)
        .join(Run, Run.id == run_id)
        .join(Destination, Destination.id == Subscription.destination_id)
        .where(applies_to_run())
    ).all()
    wanting = sorted({r.destination_id for r in rows if kind in wanted(r.events)})
    if wanting:
        session.execute(
            insert(Message),
            [
                {
                    "project_id": rows[0].project_id,
                    "destination_id": d,
                    "run_id": run_id,
                    "event": kind.value,
                }
                for d in wanting
            ],
        )


def _waits_for_approval(session: Session, run_id: int) -> bool:
    """Whether the run is a plan whose template asked for approval (it just succeeded)."""
    return bool(
        session.scalar(select(exists().where(Plan.run_id == run_id, Plan.needs_approval.is_(True))))
    )


def _follows_a_failure(session: Session, run_id: int, template_id: int | None) -> bool:
    """Whether the template's previous run that succeeded or went wrong went wrong."""
    if template_id is None:
        return False
    previous = session.scalar(
        select(Run.status)
        .where(Run.template_id == template_id, Run.id < run_id, Run.status.in_(COUNTED))
        .order_by(Run.id.desc())
        .limit(1)
    )
    return previous in BROKEN


def _changed(session: Session, run_id: int) -> bool:
    """Whether the run's recap (written before its final status, ``Recorder.close``) counts a
    change on some host."""
    return bool(
        session.scalar(select(exists().where(RunHost.run_id == run_id, RunHost.changed > 0)))
    )


def on_approval_waiting(session: Session, project_id: int, workflow_run_id: int, key: str) -> None:
    """Queue an ``approval_needed`` message per enabled destination with a subscription that
    wants it, in the transaction of the workflow pass that set the approval node ``waiting``
    (a node waits once: one message per destination, however many of its subscriptions match).

    Which subscriptions, as their runs' events go to them: the project-wide ones; those of a
    template that one of the workflow run's template nodes runs (the run's own copy of the
    document), so who follows a template hears when a workflow waits for a decision before (or
    after) running it; and those of the schedule that launched the workflow run."""
    templates = select(WorkflowNodeRun.template_id).where(
        WorkflowNodeRun.workflow_run_id == workflow_run_id,
        WorkflowNodeRun.template_id.is_not(None),
    )
    schedule = select(WorkflowRun.schedule_id).where(WorkflowRun.id == workflow_run_id)
    rows = session.execute(
        select(Subscription.destination_id, Subscription.events)
        .join(Destination, Destination.id == Subscription.destination_id)
        .where(
            Subscription.project_id == project_id,
            Destination.enabled.is_(True),
            or_(
                and_(Subscription.template_id.is_(None), Subscription.schedule_id.is_(None)),
                Subscription.template_id.in_(templates),
                Subscription.schedule_id == schedule.scalar_subquery(),
            ),
        )
    ).all()
    wanting = sorted(
        {r.destination_id for r in rows if RunEventKind.APPROVAL_NEEDED in wanted(r.events)}
    )
    if wanting:
        session.execute(
            insert(Message),
            [
                {
                    "project_id": project_id,
                    "destination_id": d,
                    "run_id": None,
                    "workflow_run_id": workflow_run_id,
                    "node_key": key,
                    "event": RunEventKind.APPROVAL_NEEDED.value,
                }
                for d in wanting
            ],
        )
