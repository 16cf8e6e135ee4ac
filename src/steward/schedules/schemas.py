from __future__ import annotations

import datetime as dt

from pydantic import AwareDatetime, BaseModel, Field

from steward.bounds import Description, Name, ScheduleExpression, TimeZoneName
from steward.schedules.models import MissedPolicy, ScheduleKind
from steward.schemas import NamedUpdate, RequestModel
from steward.templates.launch import LaunchOverrides
from steward.triggers.schemas import TargetChoice, TriggerRead

PREVIEW_MAX = 100

EXPRESSION_DOC = (
    "kind 'cron': five fields (minute hour day-of-month month day-of-week) or @daily, @weekly, …;"
    " kind 'rrule': an RFC 5545 recurrence (RRULE, optionally DTSTART, RDATE, EXDATE lines) on"
    " local times of the schedule's timezone, without TZID or Z. An RRULE without DTSTART"
    " starts at start_at, else when the schedule was created."
)
PLAN_DOC = (
    "true: each occurrence launches a plan of the template (check + diff mode, as"
    " POST …/templates/{id}/plans does; the template must allow plans), whose changes on a"
    " template that last applied cleanly are drift. Not for a workflow's schedule."
)
LAUNCH_DOC = (
    "Launch values, checked like a manual launch of the template (only the overrides it"
    " allows; survey answers). Password answers are stored encrypted and read back as"
    " ********; sending ******** back keeps the stored answer. A schedule of a workflow"
    " takes none (its nodes carry their own): anything sent is a 422."
)


class ScheduleCreate(RequestModel):
    """Saved by the caller, who becomes the owner: the schedule launches with the owner's
    rights, so the owner must hold run:launch on the template (now and at every firing)."""

    name: Name
    description: Description = ""
    kind: ScheduleKind
    expression: ScheduleExpression = Field(description=EXPRESSION_DOC)
    timezone: TimeZoneName = Field(default="UTC", description="IANA zone, e.g. Europe/Berlin")
    start_at: AwareDatetime | None = Field(default=None, description="no occurrence before it")
    end_at: AwareDatetime | None = Field(default=None, description="no occurrence after it")
    enabled: bool = True
    missed_policy: MissedPolicy = Field(
        default=MissedPolicy.RUN_ONCE,
        description="after the servers were down: 'run_once' launches the latest missed"
        " occurrence once, 'skip' waits for the next one",
    )
    launch: LaunchOverrides = Field(default_factory=LaunchOverrides, description=LAUNCH_DOC)
    plan: bool = Field(default=False, description=PLAN_DOC)


class ScheduleTargetCreate(TargetChoice, ScheduleCreate):
    """A schedule of a template or of a workflow: exactly one of ``template_id`` and
    ``workflow_id``. A workflow's schedule needs workflow:write, and its owner must hold
    run:launch on every template node of the workflow (now and at every firing)."""


class ScheduleUpdate(NamedUpdate):
    """Only the fields sent change (the expression is kept unless sent); the caller becomes
    the owner. ``launch``, when sent, replaces all launch values. Re-enabling clears
    ``disabled_reason``."""

    kind: ScheduleKind | None = None
    expression: ScheduleExpression | None = Field(default=None, description=EXPRESSION_DOC)
    timezone: TimeZoneName | None = None
    start_at: AwareDatetime | None = None
    end_at: AwareDatetime | None = None
    enabled: bool | None = None
    missed_policy: MissedPolicy | None = None
    launch: LaunchOverrides | None = Field(default=None, description=LAUNCH_DOC)
    plan: bool | None = Field(default=None, description=PLAN_DOC)

    NULLABLE = frozenset({"start_at", "end_at"})


class ScheduleRead(TriggerRead):
    kind: ScheduleKind
    expression: str
    timezone: str
    start_at: dt.datetime | None
    end_at: dt.datetime | None
    enabled: bool
    disabled_reason: str = Field(description="why Steward disabled it; empty otherwise")
    missed_policy: MissedPolicy
    launch: LaunchOverrides = Field(description="secret survey answers shown as ********")
    plan: bool = Field(description=PLAN_DOC)
    owner_id: int | None = Field(description="who saved it last: it launches with their rights")
    owner_name: str = ""
    next_fire_at: dt.datetime | None = Field(description="null when disabled or exhausted")
    last_fired_at: dt.datetime | None
    last_run_id: int | None
    last_workflow_run_id: int | None = Field(
        default=None, description="a workflow target's last workflow run"
    )
    last_skipped_at: dt.datetime | None = Field(
        default=None, description="the last occurrence skipped: a freeze window held"
    )
    last_skipped_reason: str = Field(default="", description="why it was skipped")
    created_at: dt.datetime
    updated_at: dt.datetime


class PreviewParams(BaseModel):
    count: int = Field(default=10, ge=1, le=PREVIEW_MAX)
    viewer_tz: TimeZoneName = Field(default="UTC", description="the viewer's IANA zone")


class DraftPreview(RequestModel):
    """A recurrence not saved yet (the schedule form, while it is typed): checked like a save."""

    kind: ScheduleKind
    expression: ScheduleExpression = Field(description=EXPRESSION_DOC)
    timezone: TimeZoneName = Field(default="UTC", description="IANA zone, e.g. Europe/Berlin")
    start_at: AwareDatetime | None = None
    end_at: AwareDatetime | None = None
    count: int = Field(default=10, ge=1, le=PREVIEW_MAX)
    viewer_tz: TimeZoneName = Field(default="UTC", description="the viewer's IANA zone")


class Occurrence(BaseModel):
    at: dt.datetime = Field(description="UTC")
    local: dt.datetime = Field(description="in the schedule's zone, with its offset")
    viewer: dt.datetime = Field(description="in the viewer's zone, with its offset")


class SchedulePreview(BaseModel):
    timezone: str
    viewer_tz: str
    enabled: bool = Field(
        default=True, description="false: the schedule is off, it launches nothing (no items)"
    )
    items: list[Occurrence] = Field(
        description="the next occurrences from now; none while the schedule is off"
    )
