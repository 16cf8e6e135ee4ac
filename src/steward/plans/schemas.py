from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field

from steward.bounds import PLAN_COMMENT_MAX, Offset, PlanHostsLimit, PlanTasksLimit
from steward.runs.status import RunStatus
from steward.schemas import RequestModel, ResponseModel
from steward.templates.launch import LaunchOverrides


class PlanCreate(LaunchOverrides):
    """The body of a run launch: the plan runs in check and diff mode whatever it says."""

    launch_type: Literal["api", "ui", "cli"] = "api"


class ApprovalCreate(RequestModel):
    approve: bool = Field(description="true approves the plan; false rejects it (plan again)")
    comment: str = Field(default="", max_length=PLAN_COMMENT_MAX)


class PlanHostItem(ResponseModel):
    host: str
    counter: int = Field(description="the result's event")
    occurrence: int = Field(description="the nth result of this task on this host")
    diff: str = Field(description="unified diff, masked; cut where it says so")
    reason: str = Field(description="why the outcome is unknown ('' for a change)")


class PlanTask(ResponseModel):
    task: str
    task_path: str = Field(description="file:line of the task in the plan's commit")
    action: str
    outcome: Literal["change", "unknown"]
    hosts: list[PlanHostItem]


class PlanTaskEntry(ResponseModel):
    """One task of a plan's task list, without its hosts' diffs (``…/plan/tasks/{key}/hosts``)."""

    key: int = Field(
        description="the event counter of its first result: its hosts are read at"
        " …/plan/tasks/{key}/hosts, and it is the next page's after="
    )
    task: str
    task_path: str = Field(description="file:line of the task in the plan's commit")
    action: str
    outcome: Literal["change", "unknown"]
    host_count: int = Field(description="hosts it would change (or cannot predict)")
    result_count: int = Field(description="its results (a loop or a task run twice: more)")


class PlanTaskPage(ResponseModel):
    items: list[PlanTaskEntry] = Field(description="grouped by task, unknowns first")
    next_after: int | None = Field(description="pass as after= to continue; null at the end")


class PlanHostPage(ResponseModel):
    items: list[PlanHostItem] = Field(description="one task's results, in the order they came")
    next_after: int | None = Field(description="pass as after= to continue; null at the end")


class PlanTaskParams(BaseModel):
    after: Offset | None = Field(
        default=None, description="the key of the last task of the previous page"
    )
    limit: PlanTasksLimit = 50


class PlanHostParams(BaseModel):
    after: Offset | None = Field(
        default=None, description="the counter of the last result of the previous page"
    )
    limit: PlanHostsLimit = 50


class PlanApproval(ResponseModel):
    required: bool
    state: Literal["not_needed", "waiting", "approved", "rejected"]
    decided_by_id: int | None = None
    decided_by: str = ""
    comment: str = ""
    decided_at: dt.datetime | None = None
    who: str = Field(description="who may approve it, in words")
    can_approve: bool
    approve_reason: str = Field(description="why the caller may not approve it ('' if they may)")


class PlanBinding(ResponseModel):
    commit: str = Field(description="the commit the plan ran; its apply is pinned to it")
    inventory_hosts: int = Field(description="hosts of its resolved inventory")
    inventory_recorded: bool
    changed: list[str] = Field(
        description="what changed since the plan (template, environment, keys, launch values);"
        " the branch head is asked when applying"
    )


class PlanRead(ResponseModel):
    run_id: int
    status: RunStatus
    summary: str = Field(description='"3 hosts change, 12 tasks, 2 unknown"')
    hosts_changing: list[str]
    host_count: int
    task_count: int
    unknown_count: int
    tasks: list[PlanTask] = Field(
        description="its first results grouped by task, unknowns first (every task, paged:"
        " …/plan/tasks, and a task's hosts: …/plan/tasks/{key}/hosts)"
    )
    tasks_truncated: bool = Field(description="more results than ``tasks`` lists")
    expires_at: dt.datetime
    expired: bool
    binding: PlanBinding
    approval: PlanApproval
    apply_run_id: int | None
    apply_status: RunStatus | None
    apply_refusal: str = Field(description="why it cannot be applied now ('' when it can)")


class WaitingPlan(ResponseModel):
    run_id: int
    project_id: int
    project_name: str
    template_id: int | None
    template_name: str
    launched_by_id: int | None
    launched_by: str
    asked_at: dt.datetime | None = Field(description="when the plan finished")
    expires_at: dt.datetime
    summary: str
