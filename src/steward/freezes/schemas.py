from __future__ import annotations

import datetime as dt

from pydantic import Field

from steward.bounds import Description, Name, ScheduleExpression, TemplateLabels, TimeZoneName
from steward.freezes.models import FreezeScope
from steward.schemas import RequestModel, ResponseModel, UpdateModel

STARTS_DOC = "wall-clock time in `timezone` (no offset) the first occurrence starts"
ENDS_DOC = "wall-clock time in `timezone` it ends (exclusive); each occurrence lasts as long"
RRULE_DOC = (
    "one RFC 5545 RRULE line repeating the window (FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=20);"
    " empty: once"
)

LABELS_DOC = (
    "template labels: empty freezes every launch of its scope; else only launches of templates"
    " carrying at least one of them (not ad-hoc commands)"
)


class FreezeWindowCreate(RequestModel):
    name: Name
    description: Description = ""
    starts_local: dt.datetime = Field(description=STARTS_DOC)
    ends_local: dt.datetime = Field(description=ENDS_DOC)
    timezone: TimeZoneName = "UTC"
    rrule: ScheduleExpression | None = Field(default=None, description=RRULE_DOC)
    labels: TemplateLabels = Field(default_factory=list, description=LABELS_DOC)


class FreezeWindowUpdate(UpdateModel):
    """Only the fields sent change; the window is checked again as a whole."""

    name: Name | None = None
    description: Description | None = None
    starts_local: dt.datetime | None = Field(default=None, description=STARTS_DOC)
    ends_local: dt.datetime | None = Field(default=None, description=ENDS_DOC)
    timezone: TimeZoneName | None = None
    rrule: ScheduleExpression | None = Field(default=None, description=RRULE_DOC)
    labels: TemplateLabels | None = Field(default=None, description=LABELS_DOC)

    NULLABLE = frozenset({"rrule"})  # null: once


class OccurrenceRead(ResponseModel):
    starts_at: dt.datetime
    ends_at: dt.datetime = Field(description="exclusive")


class FreezeWindowRead(ResponseModel):
    id: int
    scope: FreezeScope
    project_id: int | None
    name: str
    description: str
    starts_local: dt.datetime
    ends_local: dt.datetime
    timezone: str
    rrule: str
    labels: list[str] = Field(description=LABELS_DOC)
    active: OccurrenceRead | None = Field(default=None, description="the occurrence now")
    coming: OccurrenceRead | None = Field(default=None, description="the next one to start")
    created_at: dt.datetime
    updated_at: dt.datetime


class FreezeStanding(ResponseModel):
    """A window as it stands for a launch now."""

    window_id: int
    scope: FreezeScope
    project_id: int | None
    name: str
    labels: list[str] = Field(description=LABELS_DOC)
    starts_at: dt.datetime
    ends_at: dt.datetime = Field(description="exclusive")
    shown_end: str = Field(description="its end on the window's own clock")
    active: bool = Field(description="it holds now (else it is coming)")


class ActiveFreezes(ResponseModel):
    """What the launch dialog shows of freezes for a template: the freeze now, if any (a
    launch needs `freeze:override` and a reason), and the next one to start."""

    active: FreezeStanding | None
    coming: FreezeStanding | None
    can_override: bool = Field(description="whether the caller holds freeze:override here")
