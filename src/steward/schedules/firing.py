"""One occurrence of one schedule: claimed, checked, launched, in one transaction.

The schedule row is the truth. A server claims an occurrence with a conditional UPDATE of
``next_fire_at`` (from the value it read to the next occurrence after now); only the process
whose UPDATE changed the row launches, so two servers never launch the same occurrence, and
occurrences missed while every server was down collapse into one (``missed_policy``).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
from typing import Any, cast

from pydantic import ValidationError
from sqlalchemy import CursorResult, Table, and_, or_, select, update
from sqlalchemy.orm import Session, joinedload

from steward.access.policy import ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.config import Settings
from steward.crypto import KeyCipher
from steward.errors import DomainError, Frozen
from steward.projects.models import Project
from steward.queue import RunQueue
from steward.runs import service as runs
from steward.runs.models import RunKind
from steward.schedules import recurrence
from steward.schedules.models import MissedPolicy, Schedule
from steward.schedules.service import recurrence_of
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from steward.triggers import launch as triggers
from steward.triggers import values
from steward.triggers.launch import Firing, OwnerRefused, Target

log = logging.getLogger(__name__)

# an occurrence found later than this after its time counts as missed (servers were down):
# a "skip" schedule then does not launch it; added to the scheduler's tick
LATE_AFTER = dt.timedelta(seconds=60)
DEFAULT_PLAN_TTL_HOURS = Settings.model_fields["plan_ttl_hours"].default


@dataclasses.dataclass(frozen=True)
class Plan:
    """What to do with one due schedule, decided from the row as read."""

    schedule_id: int
    due: dt.datetime  # the occurrence (next_fire_at as read)
    updated_at: dt.datetime  # as read: an edit meanwhile makes the claim miss
    next_fire_at: dt.datetime | None  # the first occurrence after now; None: none left
    launch: bool  # False: a missed occurrence of a "skip" schedule, only moved past
    problem: str = ""  # the recurrence cannot be computed any more: disable with this


def due(session: Session, now: dt.datetime, *, after_id: int, limit: int) -> list[Schedule]:
    """Enabled schedules whose occurrence has come, by id from ``after_id`` on."""
    return list(
        session.scalars(
            select(Schedule)
            .where(Schedule.enabled, Schedule.next_fire_at <= now, Schedule.id > after_id)
            .order_by(Schedule.id)
            .limit(limit)
        )
    )


def plan(schedule: Schedule, now: dt.datetime, *, late_after: dt.timedelta) -> Plan:
    assert schedule.next_fire_at is not None  # noqa: S101 - due() selects only those
    due_at = schedule.next_fire_at
    problem, following = "", None
    try:
        following = recurrence.next_after(recurrence_of(schedule), now)
    except DomainError as exc:
        problem = f"its timing cannot be computed any more: {exc}"
    late = now - due_at > late_after
    return Plan(
        schedule_id=schedule.id,
        due=due_at,
        updated_at=schedule.updated_at,
        next_fire_at=following,
        launch=not (late and schedule.missed_policy == MissedPolicy.SKIP) and not problem,
        problem=problem,
    )


def fire(
    session: Session,
    cipher: KeyCipher,
    queue: RunQueue,
    todos: list[Plan],
    now: dt.datetime,
    *,
    plan_ttl_hours: float = DEFAULT_PLAN_TTL_HOURS,
) -> list[int]:
    """Claim each occurrence and launch its run (or disable the schedule, saying why), all in
    one transaction; the ids of the runs launched. An occurrence another process claimed
    first is left to it. A schedule of plans launches plans expiring after
    ``plan_ttl_hours`` (``STEWARD_PLAN_TTL_HOURS``). Commits."""
    known: dict[tuple[int, int], ProjectAccess] = {}  # (owner, project): the same in a batch
    launched: list[int] = []
    claimed = [todo for todo in todos if _claim(session, todo)]
    # loaded at once, and held: the session's identity map alone would let them go, and the
    # template and owner each schedule shares with the others would be loaded again
    schedules = {
        schedule.id: schedule
        for schedule in session.scalars(
            select(Schedule)
            .options(
                joinedload(Schedule.template),
                joinedload(Schedule.workflow),
                joinedload(Schedule.owner),
            )
            .where(Schedule.id.in_([todo.schedule_id for todo in claimed]))
        )
    }
    for todo in claimed:
        schedule = schedules[todo.schedule_id]
        if todo.problem:
            disable(session, schedule, todo.problem)
        elif not todo.launch:
            log.info("schedule %s: skipped the occurrence of %s (missed)", schedule.id, todo.due)
        else:
            launched += _launch(session, (cipher, queue, plan_ttl_hours), schedule, now, known)
    session.commit()  # the runs are handed to the queue once committed (runs.handoff)
    return launched


def _claim(session: Session, todo: Plan) -> bool:
    """Move ``next_fire_at`` from the occurrence as read to the next one; True when this
    transaction did (the row is then locked until it ends)."""
    table = _table()
    claimed = session.connection().execute(
        update(table)
        .where(
            table.c.id == todo.schedule_id,
            table.c.next_fire_at == todo.due,
            table.c.updated_at == todo.updated_at,
            table.c.enabled,
        )
        .values(next_fire_at=todo.next_fire_at, updated_at=table.c.updated_at)
    )
    return claimed.rowcount == 1


def _table() -> Table:
    """The schedules table, for the statements of every occurrence (Core: no ORM cost)."""
    return cast(Table, Schedule.__table__)


def _fired(session: Session, schedule: Schedule, now: dt.datetime, **last: int) -> None:
    """Record the firing and what it launched (``last_run_id`` or ``last_workflow_run_id``)."""
    table = _table()
    session.connection().execute(  # not an edit: updated_at stays
        update(table)
        .where(table.c.id == schedule.id)
        .values(**last, last_fired_at=now, updated_at=table.c.updated_at)
    )


def _launch(
    session: Session,
    where: tuple[KeyCipher, RunQueue, float],
    schedule: Schedule,
    now: dt.datetime,
    known: dict[tuple[int, int], ProjectAccess],
) -> list[int]:
    """Launch its target as the owner (``triggers.launch``), a plan for a schedule of plans;
    or disable the schedule, saying why. The ids of the runs launched (a workflow's root
    nodes' runs)."""
    cipher, queue, plan_ttl_hours = where
    target: Target | None = schedule.template or schedule.workflow
    if target is None:
        disable(session, schedule, f"its {schedule.target_kind} was deleted")
        return []
    project = session.get_one(Project, schedule.project_id)  # deleted with its project
    planned = plan_ttl_hours if schedule.plan and isinstance(target, Template) else None
    firing = Firing("schedule", schedule.id, project, schedule.owner, target, "", planned)
    if planned is not None and isinstance(target, Template):
        refused = runs.kind_refusal(target, RunKind.PLAN)  # the gate's rule, said as the schedule's
        if refused:
            disable(session, schedule, f"it runs plans, and {refused}")
            return []
    try:  # refused before anything of the launch is added to the session
        triggers.as_owner(session, firing, known)  # the owner first, before their values
        overrides = LaunchOverrides()
        if isinstance(target, Template):
            secrets = values.secret_answers(cipher, schedule.secret_launch)
            overrides = values.body_of(schedule.launch, secrets)
        launched = triggers.launch(
            session, firing, overrides, cipher=cipher, queue=queue, known=known
        )
    except OwnerRefused as exc:
        disable(session, schedule, exc.message)
        return []
    except Frozen as exc:  # the occurrence only: the schedule stays enabled
        skip(session, schedule, now, exc.message)
        return []
    except (DomainError, ValidationError) as exc:
        if isinstance(target, Template):
            reason = f"its launch values are refused by template '{target.name}' now: {exc}"
        else:
            owner = schedule.owner.username if schedule.owner else ""
            reason = f"its owner '{owner}' cannot launch workflow '{target.name}': {exc}"
        disable(session, schedule, reason)
        return []
    if launched.workflow_run is not None:
        _fired(session, schedule, now, last_workflow_run_id=launched.workflow_run.id)
        log.info("schedule %s launched workflow run %s", schedule.id, launched.workflow_run.id)
    elif launched.run is not None:
        _fired(session, schedule, now, last_run_id=launched.run.id)
        log.info("schedule %s launched run %s", schedule.id, launched.run.id)
    return launched.run_ids


def skip(session: Session, schedule: Schedule, now: dt.datetime, reason: str) -> None:
    """An occurrence not launched (a freeze window holds): recorded on the schedule (not an
    edit: ``updated_at`` stays) and in the audit trail; the schedule stays enabled."""
    table = _table()
    session.connection().execute(
        update(table)
        .where(table.c.id == schedule.id)
        .values(last_skipped_at=now, last_skipped_reason=reason, updated_at=table.c.updated_at)
    )
    audit.record_change(
        session,
        None,
        AuditAction.SCHEDULE_SKIP,
        schedule,
        {"last_skipped_at": [None, now.isoformat()]},
        detail=f"occurrence of {now.isoformat(timespec='seconds')} skipped: {reason}",
    )
    log.info("schedule %s: skipped an occurrence: %s", schedule.id, reason)


def disable(session: Session, schedule: Schedule, reason: str) -> None:
    """Disabled by Steward (an enabled schedule, claimed by this transaction), with the
    reason in the row and in the audit trail."""
    changes: dict[str, list[Any]] = {
        "enabled": [True, False],
        "disabled_reason": [schedule.disabled_reason, reason],
    }
    schedule.enabled = False
    schedule.disabled_reason = reason
    schedule.next_fire_at = None
    audit.record_change(
        session, None, AuditAction.SCHEDULE_DISABLE, schedule, changes, detail=reason
    )
    log.warning("schedule %s disabled: %s", schedule.id, reason)


def disable_orphans(session: Session) -> int:
    """Disable the enabled schedules whose template, workflow or owner was deleted, each once
    however many servers look (conditional UPDATE); how many this process disabled. Commits."""
    target_gone = and_(Schedule.template_id.is_(None), Schedule.workflow_id.is_(None))
    found = session.execute(
        select(Schedule.id, Schedule.target_kind, target_gone).where(
            Schedule.enabled, or_(target_gone, Schedule.owner_id.is_(None))
        )
    ).all()
    session.rollback()
    disabled = 0
    for schedule_id, kind, gone in found:
        reason = f"its {kind} was deleted" if gone else "its owner was deleted"
        taken = session.execute(
            update(Schedule)
            .where(Schedule.id == schedule_id, Schedule.enabled)
            .values(disabled_reason=Schedule.disabled_reason)
            .execution_options(synchronize_session=False)
        )
        assert isinstance(taken, CursorResult)  # noqa: S101 - an UPDATE answers with a cursor
        schedule = session.get(Schedule, schedule_id) if taken.rowcount == 1 else None
        if schedule is None:
            session.rollback()
            continue
        disable(session, schedule, reason)
        session.commit()
        disabled += 1
    return disabled
