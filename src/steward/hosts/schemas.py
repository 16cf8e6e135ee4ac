from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel, Field

from steward.bounds import HOST_METRICS_RUNS_MAX, HOST_NAME_MAX, VARIABLE_NAME_MAX, Id, Offset
from steward.hosts.models import Outcome
from steward.runs.models import LaunchType
from steward.runs.status import RunStatus
from steward.schemas import OlderPage, PageParams, ResponseModel

FILTER_MAX = HOST_NAME_MAX


class HostFilters(PageParams):
    q: str | None = Field(default=None, max_length=FILTER_MAX, description="part of the name")
    group: str | None = Field(
        default=None, max_length=FILTER_MAX, description="hosts of this inventory group"
    )
    var: str | None = Field(
        default=None,
        max_length=VARIABLE_NAME_MAX + 1 + FILTER_MAX,
        description="name=value — hosts whose inventory variable has this value (its text;"
        " masked secrets never match); name alone: hosts that have the variable",
    )


class HostSummary(ResponseModel):
    """A host of the project: from its inventories (as last read) and from its runs."""

    project_id: int
    name: str
    inventories: list[str] = Field(description="the project's inventories that list it")
    groups: list[str]
    runs: int = Field(description="runs that reached it")
    last_seen_at: dt.datetime | None
    last_run_id: int | None
    last_outcome: Outcome


class HostInventory(ResponseModel):
    inventory_id: int
    inventory: str
    groups: list[str]
    vars: dict[str, Any] = Field(description="its own variables there, secrets masked")
    read_at: dt.datetime | None = Field(description="when the inventory's hosts were last read")


class HostDetail(ResponseModel):
    project_id: int
    name: str
    inventories: list[HostInventory]
    runs: int
    first_seen_at: dt.datetime | None
    last_seen_at: dt.datetime | None
    last_run_id: int | None
    last_outcome: Outcome


class HostRun(ResponseModel):
    """A run that reached the host: who, how, and how it went on this host."""

    run_id: int
    template_id: int | None
    template: str
    status: RunStatus
    launched_by: str
    launch_type: LaunchType
    schedule_id: int | None
    webhook_id: int | None
    workflow_run_id: int | None
    source_ip: str
    label: str
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    duration: float | None = Field(description="seconds, start to end of the whole run")
    outcome: Outcome = Field(description="the worst that happened to this host")
    ok: int
    changed: int = Field(description="tasks that changed it")
    failed: int
    unreachable: int
    skipped: int


HostRunPage = OlderPage[HostRun]


class HostChange(ResponseModel):
    """A task result that changed the host."""

    run_id: int
    counter: int
    template: str
    play: str
    task: str
    task_action: str
    role: str
    ended_at: dt.datetime | None
    duration: float | None


class HostChangeFilters(BaseModel):
    before_run_id: Id | None = Field(
        default=None, description="with before_counter: the page after this change"
    )
    before_counter: Offset | None = None
    limit: int = Field(default=50, ge=1, le=500)


class HostChangePage(BaseModel):
    items: list[HostChange]
    next_before_run_id: int | None
    next_before_counter: int | None


class FactsRead(ResponseModel):
    """A host's facts: the current ones (as runs left them, masked), or a point's."""

    name: str
    point_id: int | None = Field(
        default=None, description="the history point they are (current: the latest point)"
    )
    run_id: int | None = Field(default=None, description="the run that gathered them last")
    gathered_at: dt.datetime | None = None
    facts: dict[str, Any]
    size: int = Field(description="bytes of their JSON")
    dropped: list[str] = Field(description="facts left out to stay within the size bound")


class FactsQuery(BaseModel):
    point: Id | None = Field(default=None, description="the facts at this point of the history")


class FactsHistoryFilters(BaseModel):
    before_id: Id | None = Field(default=None, description="the page after this point")
    limit: int = Field(default=50, ge=1, le=200)


class FactPoint(ResponseModel):
    """A point where the host's facts changed (time, free memory and disk left aside)."""

    id: int
    run_id: int | None
    gathered_at: dt.datetime
    first: bool = Field(description="the host's first facts")
    summary: str = Field(description='what changed since the point before: "kernel 5.10 → 6.1"')
    changes: int = Field(description="facts added, removed or changed since the point before")
    stored_bytes: int = Field(description="what the point takes in the database (compressed)")


FactPointPage = OlderPage[FactPoint]


class FactChange(ResponseModel):
    path: str = Field(description='dotted path: "ansible_mounts./boot.size_total"')
    old: Any = None
    new: Any = None


class FactDiff(ResponseModel):
    name: str
    from_id: int
    to_id: int
    summary: str
    added: list[FactChange]
    removed: list[FactChange]
    changed: list[FactChange]
    truncated: bool = Field(description="more changes than a diff lists")


class HostMetricsQuery(BaseModel):
    since: dt.datetime | None = Field(default=None, description="runs created from this time")
    until: dt.datetime | None = Field(default=None, description="runs created before this time")
    limit: int = Field(
        default=30, ge=1, le=HOST_METRICS_RUNS_MAX, description="the newest runs with metrics"
    )


class HostRunMetrics(ResponseModel):
    """One run's host metrics of this host, summed up over the run: one point of the series."""

    run_id: int
    template: str
    created_at: dt.datetime
    start: int = Field(description="epoch ms: the first sample of the host in the run")
    end: int = Field(description="epoch ms: the last sample")
    samples: int
    gap_seconds: float = Field(description="time without samples (unreachable, no PCP, …)")
    cpu_avg: float | None = Field(description="% of the whole machine: user + system + iowait")
    cpu_max: float | None
    mem_used_max: float | None = Field(description="bytes")
    mem_total: float | None = Field(description="bytes")
    disk_read_bytes_avg: float | None = Field(description="bytes/s")
    disk_write_bytes_avg: float | None = Field(description="bytes/s")
    net_rx_bytes_avg: float | None = Field(description="bytes/s")
    net_tx_bytes_avg: float | None = Field(description="bytes/s")


class HostMetrics(ResponseModel):
    """The host's metrics per run, oldest first: the runs that sampled it (newest ``limit``
    of those the caller may see)."""

    host: str
    runs: list[HostRunMetrics]
    more: bool = Field(description="older runs with metrics exist beyond ``limit``")
