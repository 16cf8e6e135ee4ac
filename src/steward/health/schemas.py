from __future__ import annotations

import datetime as dt

from pydantic import BaseModel, Field

from steward.bounds import HOST_NAME_MAX, Id
from steward.health.models import Status, Trigger
from steward.schemas import PageParams, RequestModel, ResponseModel

UNREACHABLE_DOC = "the check failed: refused, timed out, no route, or not SSH"


class HealthLatest(ResponseModel):
    """A host's latest check in one inventory (its address and port are that inventory's)."""

    inventory_id: int
    inventory: str
    host: str
    checked_at: dt.datetime
    status: Status
    unreachable: bool = Field(description=UNREACHABLE_DOC)
    tcp_ms: float | None = Field(description="TCP connect time, milliseconds")
    banner_ms: float | None = Field(
        description="from the connect's start to the SSH version line, milliseconds"
    )
    reason: str


class HealthCheckRead(ResponseModel):
    inventory_id: int
    inventory: str
    checked_at: dt.datetime
    status: Status
    unreachable: bool = Field(description=UNREACHABLE_DOC)
    tcp_ms: float | None
    banner_ms: float | None
    reason: str
    trigger: Trigger = Field(description="periodic, manual (someone asked), or a run's preflight")


class HostHealthRead(ResponseModel):
    host: str
    latest: list[HealthLatest] = Field(description="per inventory of the project that lists it")
    history: list[HealthCheckRead] = Field(description="newest first, at most 500")


class HealthQuery(BaseModel):
    days: int = Field(default=7, ge=1, le=366, description="history of the last days")


class HealthCheckRequest(RequestModel):
    """What to check now: one host (in every inventory that lists it) or one inventory."""

    host: str | None = Field(default=None, min_length=1, max_length=HOST_NAME_MAX)
    inventory_id: Id | None = None


class HealthCheckAnswer(ResponseModel):
    checked: int
    unreachable: int
    items: list[HealthLatest]


class PreflightHostRead(ResponseModel):
    host: str
    status: Status
    reason: str
    skipped: bool = Field(description="left out of the run (skip_unreachable)")


class InstanceHealthFilters(PageParams):
    failing: bool = Field(
        default=True, description="only the hosts whose latest check failed (false: every host)"
    )


class InstanceHostHealth(HealthLatest):
    project_id: int
    project: str


class InstanceHealth(ResponseModel):
    """Every project's hosts' health (admins): "N of M unreachable now" across the instance,
    the periodic pass's last run, and the hosts (failing ones by default), by project,
    inventory and name."""

    hosts: int = Field(description="hosts of every inventory (as last read)")
    checked: int = Field(description="of them, hosts with a check")
    unreachable: int = Field(description="of them, hosts whose latest check failed")
    sweep_started_at: dt.datetime | None = Field(description="the periodic pass's last start")
    sweep_finished_at: dt.datetime | None
    sweep_hosts: int = Field(description="hosts the last finished pass checked")
    items: list[InstanceHostHealth]
    total: int = Field(description="hosts matching the filter, every page")
    limit: int
    offset: int
