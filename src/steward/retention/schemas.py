"""What the admin page's Storage section reads (``GET /storage``)."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, Field


class TableSizeRead(BaseModel):
    name: str
    bytes: int = Field(description="with its indexes (and TOAST on PostgreSQL)")


class RetentionPeriods(BaseModel):
    """Days each kind of record is kept (0: forever), as the servers apply them."""

    runs_days: int
    webhook_deliveries_days: int
    notification_messages_days: int
    audit_days: int = Field(description="what `steward audit prune` keeps (run by the operator)")
    tick_seconds: float = Field(description="how often each server applies the periods")


class LastPrune(BaseModel):
    at: dt.datetime
    detail: str = Field(description="what was removed and the bytes freed, as recorded")
    size_before: int | None
    size_after: int | None
    bytes_freed: int | None


class StorageRead(BaseModel):
    """The database's size, its biggest tables, the retention in force and the last prune."""

    database: Literal["sqlite", "postgresql"]
    size_bytes: int
    free_bytes: int | None = Field(
        description="SQLite: bytes of the file holding no data; null on PostgreSQL"
    )
    returns_space: bool = Field(
        description="false: a SQLite file made by Steward 0.1.0 keeps what pruning frees until"
        " `steward prune --compact` is run once"
    )
    tables: list[TableSizeRead] | None = Field(
        description="the biggest tables, biggest first; null when the database cannot say"
    )
    warning_bytes: int | None = Field(
        description="STEWARD_DATABASE_SIZE_WARNING_MB in bytes; null when not set"
    )
    over_warning: bool
    retention: RetentionPeriods
    last_prune: LastPrune | None
