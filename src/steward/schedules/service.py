"""Saving, reading and previewing schedules. Firing them is ``schedules.firing``.

A schedule launches a template (with launch values) or a workflow (whose nodes carry their
own): ``template_id`` or ``workflow_id``, fixed when it is made; ``target_kind`` keeps which it
was once the target is deleted."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from sqlalchemy.orm import Session, joinedload

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import InvalidInput, InvalidState
from steward.projects import scoped
from steward.projects.models import Project
from steward.runs import service as runs
from steward.runs.models import Run, RunKind
from steward.schedules import recurrence
from steward.schedules.models import Schedule, ScheduleKind
from steward.schedules.recurrence import Recurrence
from steward.schedules.schemas import (
    DraftPreview,
    Occurrence,
    PreviewParams,
    ScheduleCreate,
    SchedulePreview,
    ScheduleUpdate,
)
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from steward.triggers import launch as triggers
from steward.triggers import targets, values
from steward.triggers.schemas import TargetKind
from steward.workflows import service as workflows
from steward.workflows import usage as workflow_runs
from steward.workflows.models import Workflow, WorkflowRun

WITH_NAMES = (
    joinedload(Schedule.template),
    joinedload(Schedule.workflow),
    joinedload(Schedule.owner),
)
TIMING_FIELDS = frozenset({"kind", "expression", "timezone", "start_at", "end_at"})
PLAIN_FIELDS = (
    "name", "description", "kind", "expression", "timezone", "start_at", "end_at", "enabled",
    "missed_policy", "plan",
)  # fmt: skip
AUDITED_FIELDS = (
    *PLAIN_FIELDS, "template_id", "workflow_id", "launch", "owner_id", "disabled_reason",
)  # fmt: skip
WORKFLOW_LAUNCH = (
    "a workflow's nodes carry their own launch values: a schedule of a workflow takes none"
)
WORKFLOW_PLAN = "a schedule of a workflow cannot run plans: only a template's can"


def _fields(schedule: Schedule) -> dict[str, Any]:
    """Its settings; secret answers are ``********`` in ``launch``."""
    return audit.snapshot(schedule, AUDITED_FIELDS)


def recurrence_of(schedule: Schedule) -> Recurrence:
    return _recurrence(schedule, schedule.created_at)


def _recurrence(timing: Schedule | DraftPreview, created_at: dt.datetime) -> Recurrence:
    """What ``timing`` says of the occurrences (a saved schedule, or a draft); an RRULE
    without DTSTART starts at its ``start_at``, else when it was created."""
    return Recurrence(
        kind=ScheduleKind(timing.kind),
        expression=timing.expression,
        timezone=timing.timezone,
        start_at=timing.start_at,
        end_at=timing.end_at,
        anchor=timing.start_at or created_at,
    )


def list_for_project(
    session: Session,
    project: Project,
    *,
    limit: int,
    offset: int,
    seen: targets.Seen,
    template_id: int | None = None,
    workflow_id: int | None = None,
) -> tuple[list[Schedule], int]:
    where = targets.visible(Schedule, seen, template_id=template_id, workflow_id=workflow_id)
    return scoped.list_in_project(
        session, Schedule, project, *where, limit=limit, offset=offset, options=WITH_NAMES
    )


def get(session: Session, project: Project, schedule_id: int, *, seen: targets.Seen) -> Schedule:
    """Any schedule ``seen`` does not show is not found, like one that does not exist."""
    return scoped.get_in_project(
        session,
        Schedule,
        project,
        schedule_id,
        "schedule",
        *targets.visible(Schedule, seen),
        options=WITH_NAMES,
    )


def check_plan(schedule: Schedule) -> None:
    """A schedule of plans: of a template that allows them (the launch gate's rule,
    ``runs.kind_refusal``, asked at save as the gate asks it at every firing); 422 on
    ``plan``."""
    if not schedule.plan:
        return
    if schedule.target_kind == TargetKind.WORKFLOW:
        raise InvalidInput("plan", WORKFLOW_PLAN)
    if schedule.template is not None:
        refused = runs.kind_refusal(schedule.template, RunKind.PLAN)
        if refused:
            raise InvalidInput("plan", refused)


def _refuse_launch_values(body: LaunchOverrides | None) -> None:
    """A workflow target takes no launch values: anything but an empty body is a 422."""
    if body is not None and body.model_dump(exclude_defaults=True):
        raise InvalidInput("launch", WORKFLOW_LAUNCH)


@dataclasses.dataclass(frozen=True)
class Saver:
    """Who saves a schedule and becomes its owner (``actor``, with their ``rights`` in the
    project), the key cipher of its sealed answers, and the shortest interval allowed between
    two occurrences (``STEWARD_SCHEDULE_MIN_INTERVAL_SECONDS``)."""

    rights: ProjectAccess
    actor: Actor
    cipher: KeyCipher
    min_interval: dt.timedelta


def create(
    session: Session, saver: Saver, target: Template | Workflow, body: ScheduleCreate
) -> Schedule:
    """The saver becomes the owner and must hold run:launch on the template (on every
    template node of the workflow, whose launch is then checked as a launch would be)."""
    rights, actor, cipher = saver.rights, saver.actor, saver.cipher
    if isinstance(target, Workflow):
        _refuse_launch_values(body.launch)
        workflows.check_launch(session, cipher, rights, target)
    else:
        triggers.require_launch(session, rights, target)
    scoped.check_name_free(session, Schedule, rights.project, body.name, "schedule")
    now = utcnow()
    schedule = Schedule(
        project_id=rights.project.id,
        owner=actor.user,
        created_at=now,
        disabled_reason="",
        **{field: getattr(body, field) for field in PLAIN_FIELDS},
    )
    if isinstance(target, Workflow):
        schedule.target_kind, schedule.workflow = TargetKind.WORKFLOW, target
        schedule.launch, schedule.secret_launch = {}, None
    else:
        schedule.target_kind, schedule.template = TargetKind.TEMPLATE, target
        schedule.launch, schedule.secret_launch, _secrets = values.seal(
            session, cipher, target, body.launch, {}
        )
    check_plan(schedule)
    first = recurrence.check(recurrence_of(schedule), now, min_interval=saver.min_interval)
    schedule.next_fire_at = first if schedule.enabled else None
    return audit.commit_created(session, actor, AuditAction.SCHEDULE_CREATE, schedule, _fields)


def update(session: Session, saver: Saver, schedule: Schedule, body: ScheduleUpdate) -> Schedule:
    """Fields not sent keep their value; the saver becomes the owner. The launch values are
    checked again whenever the schedule stays enabled (the template may have changed since),
    and the timing whenever it changes; the next occurrence is computed again when the timing
    changes or the schedule is enabled again."""
    rights, actor, cipher = saver.rights, saver.actor, saver.cipher
    before = _fields(schedule)
    was_enabled = schedule.enabled
    changes = scoped.changes_of(session, rights.project, schedule, body, "schedule")
    for field in PLAIN_FIELDS:
        if field in changes:
            setattr(schedule, field, changes[field])
    template, workflow = schedule.template, schedule.workflow
    if template is None and workflow is None and schedule.enabled:
        raise InvalidState(
            f"schedule '{schedule.name}' cannot be enabled: its {schedule.target_kind} was deleted"
        )
    detail = ""
    if schedule.target_kind == TargetKind.WORKFLOW:
        _refuse_launch_values(body.launch)
        if workflow is not None:
            triggers.require_launch(session, rights, workflow)
            if schedule.enabled:
                workflows.check_launch(session, cipher, rights, workflow)
    elif template is not None:
        triggers.require_launch(session, rights, template)
        if body.launch is not None or schedule.enabled:
            detail = _seal_again(session, cipher, schedule, template, body.launch)
    if "plan" in changes or schedule.enabled:
        check_plan(schedule)
    now = utcnow()
    if TIMING_FIELDS & changes.keys() or (schedule.enabled and not was_enabled):
        first = recurrence.check(recurrence_of(schedule), now, min_interval=saver.min_interval)
        schedule.next_fire_at = first
    if not schedule.enabled:
        schedule.next_fire_at = None
    elif not was_enabled:
        schedule.disabled_reason = ""
    schedule.owner = actor.user
    session.flush()  # owner_id, for the audit diff
    return audit.commit_updated(
        session, actor, AuditAction.SCHEDULE_UPDATE, schedule, before, _fields, detail=detail
    )


def _seal_again(
    session: Session,
    cipher: KeyCipher,
    schedule: Schedule,
    template: Template,
    sent: LaunchOverrides | None,
) -> str:
    """Check and store the launch values (``sent``, else the stored ones); the audit detail
    names the secret answers that changed (never their values)."""
    kept = values.secret_answers(cipher, schedule.secret_launch)
    body = sent if sent is not None else values.body_of(schedule.launch, kept)
    schedule.launch, schedule.secret_launch, secrets = values.seal(
        session, cipher, template, body, kept
    )
    changed = sorted(var for var in set(secrets) | set(kept) if secrets.get(var) != kept.get(var))
    return f"secret survey answers changed: {', '.join(changed)}" if changed else ""


def delete(session: Session, schedule: Schedule, *, actor: Actor) -> None:
    scoped.refuse_while_runs_active(
        session, f"schedule '{schedule.name}'", Run.schedule_id == schedule.id
    )
    workflow_runs.refuse_while_running(
        session, f"schedule '{schedule.name}'", WorkflowRun.schedule_id == schedule.id
    )
    audit.commit_deleted(session, actor, AuditAction.SCHEDULE_DELETE, schedule, _fields)


def preview(schedule: Schedule, params: PreviewParams) -> SchedulePreview:
    """The next ``count`` occurrences from now, in UTC, the schedule's zone and the viewer's;
    none while it is off (turned off, or by Steward): an off schedule launches nothing."""
    answer = _preview(recurrence_of(schedule), params.count, params.viewer_tz)
    if schedule.enabled:
        return answer
    return answer.model_copy(update={"enabled": False, "items": []})


def preview_draft(draft: DraftPreview, *, min_interval: dt.timedelta) -> SchedulePreview:
    """The same for a recurrence being typed, refused (422 naming the field) exactly as saving
    it would be."""
    now = utcnow()
    rec = _recurrence(draft, now)
    budget = recurrence.Budget()  # one for the check and the answer together
    recurrence.check(rec, now, min_interval=min_interval, budget=budget)
    return _preview(rec, draft.count, draft.viewer_tz, budget)


def _preview(
    rec: Recurrence, count: int, viewer_tz: str, budget: recurrence.Budget | None = None
) -> SchedulePreview:
    viewer = recurrence.zone(viewer_tz, "viewer_tz")
    place = rec.zone
    items = [
        Occurrence(at=at, local=at.astimezone(place), viewer=at.astimezone(viewer))
        for at in recurrence.upcoming(rec, utcnow(), count, budget)
    ]
    return SchedulePreview(timezone=rec.timezone, viewer_tz=viewer_tz, items=items)
