from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from steward.plans.schemas import PlanTask
from steward.schemas import ResponseModel

STATE_DOC = (
    "'drift': a scheduled plan found changes on a template whose last run or apply finished"
    " cleanly; 'clean': the last plan found none, or a run or apply converged the hosts since;"
    " 'unchecked': no plan of the whole template yet"
)


class ApplyToFix(ResponseModel):
    """The drift's plan and whether the caller may apply it now (``POST …/runs/{id}/apply``)."""

    plan_run_id: int | None = Field(description="the latest plan that found the drift")
    can_apply: bool
    apply_refusal: str = Field(description="why not now ('' when it can be applied)")


class DriftSummary(ApplyToFix):
    template_id: int
    template_name: str
    host_count: int
    task_count: int
    hosts: list[str] = Field(description="the hosts it would change (at most 100)")
    detected_at: dt.datetime | None = Field(description="when this drift was first found")
    checked_at: dt.datetime | None = Field(description="when a plan last found it")


class DriftedTemplate(ResponseModel):
    template_id: int
    template_name: str


class DriftedHost(ResponseModel):
    host: str
    templates: list[DriftedTemplate]


class ProjectDrift(ResponseModel):
    """The project's drifted templates (the caller may see the runs of) and their hosts."""

    templates: list[DriftSummary]
    hosts: list[DriftedHost]


class TemplateDriftRead(ApplyToFix):
    template_id: int
    template_name: str
    state: Literal["drift", "clean", "unchecked"] = Field(description=STATE_DOC)
    host_count: int
    task_count: int
    hosts: list[str]
    tasks: list[PlanTask] = Field(description="what the plan would change, by task, with diffs")
    tasks_truncated: bool
    baseline_run_id: int | None = Field(description="the clean run or apply it moved away from")
    detected_at: dt.datetime | None
    checked_at: dt.datetime | None
    cleared_at: dt.datetime | None
    cleared_by_run_id: int | None
    cleared_reason: str


class HostTemplateDrift(ApplyToFix):
    template_id: int
    template_name: str
    detected_at: dt.datetime | None
    tasks: list[PlanTask] = Field(description="what the plan would change on this host")


class HostDrift(ResponseModel):
    host: str
    templates: list[HostTemplateDrift]
