from __future__ import annotations

import datetime as dt

from pydantic import Field

from steward.bounds import Description, GroupName
from steward.schemas import RequestModel, ResponseModel, UpdateModel

GroupLimit = Field(default=None, ge=1, le=100000, description="runs of the group at once")


class RunnerGroupCreate(RequestModel):
    name: GroupName = Field(description="the queue its workers listen on: `--queues NAME`")
    description: Description = ""
    max_parallel_runs: int | None = GroupLimit


class RunnerGroupUpdate(UpdateModel):
    """The name is the queue workers and queued runs use: it is never changed."""

    description: Description | None = None
    max_parallel_runs: int | None = GroupLimit

    NULLABLE = frozenset({"max_parallel_runs"})  # null: no limit of the group's own


class RunnerGroupRead(ResponseModel):
    id: int
    name: str
    description: str
    max_parallel_runs: int | None
    workers_online: int = Field(default=0, description="workers seen within the lease")
    slots_online: int = Field(default=0, description="runs those workers execute at once")
    created_at: dt.datetime
    updated_at: dt.datetime


class WorkerRead(ResponseModel):
    id: str
    host: str
    pid: int
    queues: list[str]
    concurrency: int
    running: int = Field(description="runs it executes now")
    online: bool = Field(description="seen within the lease")
    started_at: dt.datetime
    last_seen: dt.datetime
