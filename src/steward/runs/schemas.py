from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from steward.bounds import (
    RUN_VALUE_FILTERS_MAX,
    AdhocFreeForm,
    AdhocModule,
    Forks,
    Id,
    JsonObject,
    Line,
    LineAfter,
    Offset,
    RunLabel,
    RunNote,
    Verbosity,
)
from steward.runs.models import LaunchType, RunKind
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.runs.values import FILTER_TEXT_MAX, LAUNCH_FIELDS
from steward.schemas import OlderPage, RequestModel, ResponseModel, UpdateModel
from steward.templates.launch import LaunchOverrides
from steward.templates.patterns import HostPattern

FAILED_HOSTS_SHOWN = 1000


class RunCreate(LaunchOverrides):
    template_id: Id
    launch_type: Literal["api", "ui", "cli"] = "api"
    freeze_override_reason: Line | None = Field(
        default=None,
        description="launch during a freeze window: why (needs freeze:override; audited and"
        " notified)",
    )


class RelaunchRequest(LaunchOverrides):
    """The earlier run's launch values are kept; a field given here replaces its value (the
    survey answer by answer; a secret answer left out or sent as ``********`` is kept)."""

    hosts: Literal["all", "failed"] = Field(
        default="all",
        description="'failed': limit to the hosts that failed or were unreachable (whatever"
        " the template allows; not with limit)",
    )
    freeze_override_reason: Line | None = Field(
        default=None,
        description="relaunch during a freeze window: why (needs freeze:override; audited and"
        " notified)",
    )


class RelaunchValues(ResponseModel):
    """What a relaunch of a run starts from (``GET …/relaunch``), within today's template."""

    launch: LaunchOverrides = Field(
        description="the run's launch values that the template lets a launch override, its"
        " extra vars and survey answers; secret answers shown as ********"
    )
    kept_secrets: list[str] = Field(
        description="survey variables whose secret answer is kept unless a new one is given"
    )
    overridable: list[str] = Field(description="the fields the template lets a launch override")
    failed_hosts: list[str] = Field(
        description=f"failed or unreachable hosts of the run (the first {FAILED_HOSTS_SHOWN})"
    )
    failed_host_count: int


class RunRefs(ResponseModel):
    """Names of what the parameters refer to by id ("" when the object has been deleted)."""

    repository: str
    inventory: str
    environment: str | None = None
    ssh_key: str | None = Field(default=None, description="shown to who may see the keys")
    become_key: str | None = None
    vault_keys: list[str] = Field(default_factory=list)


class FirstFailure(ResponseModel):
    """A run's first failed (or unreachable) result."""

    task: str
    host: str = Field(description="empty for the install of the repository's requirements")
    message: str = Field(description="what it said (msg, then stderr), at most 1000 characters")
    unreachable: bool
    line: int = Field(description="where its output starts in the log (line_no)")
    counter: int = Field(description="its event")


class HostCounts(ResponseModel):
    """A run's hosts counted by their worst outcome: unreachable, failed, changed, ok."""

    hosts: int
    ok: int
    changed: int
    failed: int = Field(description="failed, not unreachable")
    unreachable: int


class RunStory(ResponseModel):
    """How a finished run went, for the top of its page."""

    first_failure: FirstFailure | None
    canceled_by: str | None = Field(description="who asked to cancel it (a canceled run)")
    unfinished_hosts: list[str] = Field(
        description="hosts that did not finish: the run ended before the playbook's recap"
        " (first 50 by name)"
    )
    unfinished_host_count: int


class UnplannedChange(ResponseModel):
    host: str
    task: str
    task_path: str
    occurrence: int
    counter: int


class RunPlanInfo(ResponseModel):
    """On the read of a plan or an apply: the plan's approval and apply, and an apply's changes
    its plan did not predict (``unplanned``)."""

    plan_id: int
    approval: str = Field(description="'', approved or rejected")
    approved_by: str = ""
    approval_comment: str = ""
    apply_run_id: int | None = None
    unplanned: list[UnplannedChange] = Field(default_factory=list)
    unplanned_count: int = 0


class RunRead(ResponseModel):
    id: int
    project_id: int
    template_id: int | None
    template_name: str = ""
    status: RunStatus
    status_reason: str
    rc: int | None
    launched_by_id: int | None
    launched_by: str = ""
    launch_type: LaunchType
    source_ip: str
    relaunch_of_id: int | None
    schedule_id: int | None = Field(default=None, description="launched by this schedule")
    webhook_id: int | None = Field(default=None, description="launched by this webhook")
    workflow_run_id: int | None = Field(
        default=None, description="launched as a node of this workflow run"
    )
    kind: RunKind = Field(description="run, plan or apply (of plan_id)")
    plan_id: int | None = Field(default=None, description="an apply: the plan it applies")
    plan: RunPlanInfo | None = Field(
        default=None, description="a plan's or an apply's: in the read of one run only"
    )
    params: RunParams
    refs: RunRefs | None = Field(
        default=None, description="names behind the ids of params; in the read of one run only"
    )
    commit_hash: str
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    cancel_requested_at: dt.datetime | None
    line_count: int
    event_count: int
    runner_group: str = Field(description="the group of workers that executes it")
    label: str = Field(default="", description='what it is called when compared ("baseline")')
    note: str = ""
    waiting_reason: str | None = Field(
        default=None,
        description="queued runs: why it has not started (no worker of its group online,"
        " a limit reached, every worker busy)",
    )
    host_counts: HostCounts | None = Field(
        default=None, description="its hosts by outcome, once any has reported"
    )
    story: RunStory | None = Field(
        default=None, description="in the read of one run only: how it went"
    )


class RunPage(OlderPage[RunRead]):
    pass


class RunFilters(BaseModel):
    template_id: Id | None = None
    status: list[RunStatus] | None = Field(default=None, max_length=len(RunStatus))
    launched_by_id: Id | None = None
    host: str | None = Field(default=None, max_length=255)
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    answer: list[Annotated[str, Field(max_length=FILTER_TEXT_MAX)]] | None = Field(
        default=None,
        max_length=RUN_VALUE_FILTERS_MAX,
        description="name:value — runs given this survey answer or extra var at launch (exact"
        " value; secret answers are never searchable); repeat for several, all must match",
    )
    launch: list[Annotated[str, Field(max_length=FILTER_TEXT_MAX)]] | None = Field(
        default=None,
        max_length=RUN_VALUE_FILTERS_MAX,
        description=f"field:value — runs launched with this setting, one of"
        f" {', '.join(LAUNCH_FIELDS)} (check_mode:true); repeat for several",
    )
    before_id: Id | None = None
    limit: int = Field(default=50, ge=1, le=500)


class RunLabelUpdate(UpdateModel):
    """A run's label and note, for comparing it with others; only the fields sent change
    ("" clears one)."""

    label: RunLabel | None = Field(default=None, description='one short line: "TDE on"')
    note: RunNote | None = None


class LineRead(ResponseModel):
    line_no: int
    counter: int
    text: str


class LinePage(BaseModel):
    items: list[LineRead]
    line_count: int = Field(description="lines stored so far")
    status: RunStatus
    next_after: int | None = Field(
        description="pass as after= to continue; null when nothing more is stored yet"
    )


class LineFilters(BaseModel):
    after: LineAfter = Field(default=-1, description="return lines with line_no > after")
    limit: int = Field(default=1000, ge=1, le=10000)
    q: str | None = Field(default=None, min_length=1, max_length=500, description="text contained")
    host: str | None = Field(default=None, max_length=255)
    failed: bool = Field(default=False, description="only lines of failed/unreachable events")


class EventRead(ResponseModel):
    counter: int
    event: str
    uuid: str
    parent_uuid: str
    host: str
    play: str
    task: str
    task_action: str
    role: str
    changed: bool
    failed: bool
    start_line: int
    end_line: int
    created_at: dt.datetime
    started_at: dt.datetime | None
    ended_at: dt.datetime | None
    duration: float | None
    data: dict[str, Any]


class EventPage(BaseModel):
    items: list[EventRead]
    next_after: int | None


class EventFilters(BaseModel):
    after: Offset = Field(default=0, description="return events with counter > after")
    limit: int = Field(default=200, ge=1, le=1000)
    host: str | None = Field(default=None, max_length=255)
    event: str | None = Field(default=None, max_length=64)
    failed: bool | None = None
    changed: bool | None = None
    q: str | None = Field(default=None, min_length=1, max_length=500)


class HostParams(BaseModel):
    limit: int = Field(default=10000, ge=1, le=10000, description="hosts per page")
    offset: Offset = Field(default=0, description="hosts to skip, in the recap's order")


class HostRecap(ResponseModel):
    host: str
    ok: int
    changed: int
    failed: int
    unreachable: int
    skipped: int
    rescued: int
    ignored: int


class TimelineParams(BaseModel):
    after: Offset = Field(default=0, description="return results with counter > after")
    limit: int = Field(default=10000, ge=1, le=10000, description="results per page")


class TimelineEntry(BaseModel):
    host: str
    task: str
    play: str
    task_action: str
    status: str
    started_at: dt.datetime | None
    ended_at: dt.datetime | None
    duration: float | None
    counter: int
    kind: Literal["task", "requirements"] = Field(
        default="task",
        description="task: a task's result on a host; requirements: the install of the"
        " repository's roles and collections before the playbook (host empty)",
    )


class AdhocCreate(RequestModel):
    """An ad-hoc command on the inventory's hosts (``runs.adhoc``): one allow-listed module."""

    module: AdhocModule = Field(description="one of the allowed modules (GET …/adhoc/modules)")
    args: AdhocFreeForm | JsonObject = Field(
        default="",
        description="the module's arguments: a JSON object, or free-form text for command and"
        " shell (their `cmd`); data, never templated",
    )
    limit: HostPattern = Field(default="", description="host pattern ('' : all hosts)")
    ssh_key_id: Id | None = None
    become: bool = False
    become_key_id: Id | None = None
    forks: Forks | None = None
    verbosity: Verbosity = Field(default=1, description="1 (the default): each host's result")
    launch_type: Literal["api", "ui", "cli"] = "api"


class AdhocModules(ResponseModel):
    modules: list[str] = Field(description="the modules an ad-hoc command may run")
    free_form: list[str] = Field(description="those taking free-form text (as `cmd`)")
    allowed: bool = Field(description="whether the caller may run one here (adhoc:run)")
