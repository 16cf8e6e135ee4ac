from __future__ import annotations

import datetime as dt
from typing import Any

from pydantic import BaseModel, Field

from steward.bounds import Id
from steward.schemas import ResponseModel


class AuditRead(ResponseModel):
    id: int
    created_at: dt.datetime
    actor_type: str
    actor_user_id: int | None
    actor: str
    action: str
    object_type: str
    object_id: int | None
    object_name: str
    project_id: int | None
    source_ip: str
    user_agent: str
    changes: dict[str, Any]
    detail: str


class AuditPage(BaseModel):
    items: list[AuditRead]
    next_before_id: int | None


class AuditFilters(BaseModel):
    actor: str | None = Field(default=None, max_length=200, description="exact actor label")
    action: str | None = Field(
        default=None, max_length=64, description="'run:launch', or a prefix like 'run'"
    )
    object_type: str | None = Field(default=None, max_length=32)
    object_id: Id | None = None
    project_id: Id | None = None
    since: dt.datetime | None = None
    until: dt.datetime | None = None
    q: str | None = Field(default=None, min_length=1, max_length=200, description="full text")
    instance: bool = Field(
        default=False,
        description="only the instance's own records, of no project (sign-ins and failed"
        " sign-ins, users, teams, tokens, runner groups): global admins only (403 otherwise)",
    )


class StreamSinkRead(ResponseModel):
    """A sink of the audit stream as an admin checks it (no secret: the token stays in its
    file, the URL's query is left out)."""

    sink: str = Field(description="syslog or http")
    kind: str = Field(description="syslog, elastic, splunk or json")
    target: str = Field(description="where it goes: tcp://host:port, tls://…, the URL's path")
    configured: bool = Field(description="false: no longer configured, its records are kept")
    backlog: int = Field(description="records waiting to be sent")
    oldest_pending_at: dt.datetime | None
    oldest_pending_seconds: float | None = Field(description="how long the oldest has waited")
    sent: int = Field(description="records acknowledged (since the sink was first configured)")
    last_success_at: dt.datetime | None
    failures: int = Field(description="failures in a row (0: the last batch went through)")
    next_attempt_at: dt.datetime | None = Field(description="set while it waits after failures")
    last_error: str
    last_error_at: dt.datetime | None


class StreamStatus(BaseModel):
    sinks: list[StreamSinkRead]
