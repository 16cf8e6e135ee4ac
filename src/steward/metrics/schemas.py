from __future__ import annotations

import datetime as dt
import enum

from pydantic import BaseModel, Field

from steward.bounds import METRICS_LANES_MAX, METRICS_POINTS_MAX, Offset
from steward.metrics.series import LaneKind


class MetricsFilter(BaseModel):
    """Which lanes, series and stretch of time (default: the whole run)."""

    host: str | None = Field(
        default=None, min_length=1, max_length=255, description="lanes of this host"
    )
    kind: LaneKind | None = Field(default=None, description="controller or host lanes only")
    series: str | None = Field(
        default=None,
        min_length=1,
        max_length=1000,
        description="comma-separated series names (default: all), e.g. cpu.user,mem.used",
    )
    start: dt.datetime | None = Field(default=None, alias="from", description="from this time")
    end: dt.datetime | None = Field(default=None, alias="to", description="up to this time")


class MetricsQuery(MetricsFilter):
    points: int = Field(
        default=500,
        ge=2,
        le=METRICS_POINTS_MAX,
        description="at most this many points per series: longer stretches are averaged",
    )
    limit: int = Field(default=METRICS_LANES_MAX, ge=1, le=METRICS_LANES_MAX, description="lanes")
    offset: Offset = Field(default=0, description="lanes to skip (controller first, then hosts)")


class ExportFormat(enum.StrEnum):
    CSV = "csv"
    JSON = "json"


class MetricsExport(MetricsFilter):
    format: ExportFormat = ExportFormat.CSV


class GapRead(BaseModel):
    start: int = Field(description="epoch milliseconds")
    end: int
    reason: str


class LaneRead(BaseModel):
    kind: LaneKind
    host: str
    bucket_ms: int | None = Field(description="the averaging width; null: every sample as taken")
    times: list[int] = Field(description="epoch milliseconds (UTC) of each point")
    series: dict[str, list[float | None]] = Field(description="one value per time; null: none")
    gaps: list[GapRead] = Field(description="stretches without samples, and why")


class MetricsRead(BaseModel):
    """Samples per lane: the controller (the machine that executed the run) and each target
    host with a pmproxy endpoint, on one time axis with the run's events."""

    run_id: int
    start: int | None = Field(description="epoch ms: the stretch shown (null: no samples)")
    end: int | None
    units: dict[str, str]
    lanes: list[LaneRead]
    next_offset: int | None = Field(description="offset of the next page of lanes")
