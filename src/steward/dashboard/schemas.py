from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from steward.bounds import TimeZoneName
from steward.runs.models import LaunchType
from steward.runs.status import SUCCESS_RATE, RunStatus
from steward.schemas import ResponseModel

DAYS_MAX = 90
ACTIVE_MAX = 50  # running runs, and queued runs, listed (the totals count them all)
FAILING_MAX = 100


class DashboardParams(BaseModel):
    days: int = Field(default=14, ge=1, le=DAYS_MAX, description="days shown, today included")
    tz: TimeZoneName = Field(
        default="UTC", description="the caller's IANA zone: where each day starts and ends"
    )


class DayCounts(BaseModel):
    day: dt.date = Field(description="a day in the caller's zone")
    counts: dict[RunStatus, int] = Field(description="runs created that day, by current status")
    total: int


class FailingTemplate(BaseModel):
    """A template whose latest finished run (canceled ones left out) failed, errored or timed
    out."""

    project_id: int
    project_name: str
    template_id: int
    template_name: str
    failures: int = Field(description="failed, errored or timed-out runs in the window")
    finished: int = Field(description="finished runs in the window (canceled ones left out)")
    failure_rate: float = Field(description="failures / finished, from 0 to 1")
    last_failure_at: dt.datetime
    last_failed_run_id: int
    last_status: RunStatus


class ActiveRun(ResponseModel):
    id: int
    project_id: int
    project_name: str = ""
    template_id: int | None
    template_name: str = ""
    status: RunStatus
    launched_by: str = ""
    launch_type: LaunchType
    runner_group: str
    created_at: dt.datetime
    started_at: dt.datetime | None
    waiting_reason: str | None = Field(default=None, description="queued runs: why it waits")


class Totals(BaseModel):
    runs: int = Field(description="runs created in the window")
    by_status: dict[RunStatus, int]
    success_rate: float | None = Field(description=f"of the window's runs: {SUCCESS_RATE}")
    running: int = Field(description="running now")
    queued: int = Field(description="queued now")
    failing_templates: int


class Dashboard(BaseModel):
    days: int
    tz: str
    since: dt.datetime = Field(description="start of the first day, UTC")
    per_day: list[DayCounts] = Field(description="one entry per day, oldest first")
    failing_templates: list[FailingTemplate] = Field(
        description=f"latest failure first, at most {FAILING_MAX}"
    )
    running: list[ActiveRun] = Field(description=f"longest running first, at most {ACTIVE_MAX}")
    queued: list[ActiveRun] = Field(
        description=f"in claim order (oldest first), at most {ACTIVE_MAX}"
    )
    totals: Totals
