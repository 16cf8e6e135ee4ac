"""One lane's samples and gaps between two flushes: filled by its sampling thread, taken by
whoever writes (``recording``). Thread-safe."""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Mapping

from steward.metrics import packing
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.series import LaneKind, series_of, stored_names


@dataclasses.dataclass
class Gap:
    start_ms: int
    end_ms: int
    reason: str


class Lane:
    def __init__(self, kind: LaneKind, host: str, interval_ms: int) -> None:
        self.kind = kind
        self.host = host
        self.series = series_of(kind)
        self._interval_ms = interval_ms
        self._lock = threading.Lock()
        self._times: list[int] = []
        self._columns: list[list[float]] = [[] for _ in self.series]
        self._closed: list[Gap] = []
        self._open: Gap | None = None  # the gap still going on

    def add(self, t_ms: int, values: Mapping[str, float]) -> None:
        with self._lock:
            self._close_gap()
            self._times.append(t_ms)
            for column, name in zip(self._columns, self.series, strict=True):
                column.append(values.get(name, math.nan))

    def fail(self, start_ms: int, end_ms: int, reason: str) -> None:
        """No sample from ``start_ms`` (the attempt) to ``end_ms`` (at least one interval)."""
        end_ms = max(end_ms, start_ms + self._interval_ms)
        with self._lock:
            if self._open is not None and self._open.reason == reason:
                self._open.end_ms = max(self._open.end_ms, end_ms)
                return
            self._close_gap()
            self._open = Gap(start_ms, end_ms, reason)

    def _close_gap(self) -> None:
        if self._open is not None and self._open.end_ms > self._open.start_ms:
            self._closed.append(self._open)
        self._open = None

    def take(self, run_id: int) -> tuple[MetricChunk | None, list[MetricGap]]:
        """The rows to write for what was gathered since the last ``take``; a gap still going
        on is written up to now and continues from there (touching stretches are merged when
        read)."""
        with self._lock:
            times, columns = self._times, self._columns
            self._times, self._columns = [], [[] for _ in self.series]
            gaps = self._closed
            self._closed = []
            if self._open is not None and self._open.end_ms > self._open.start_ms:
                gaps.append(dataclasses.replace(self._open))
                self._open.start_ms = self._open.end_ms
        chunk = None
        if times:
            chunk = MetricChunk(
                run_id=run_id,
                kind=self.kind,
                host=self.host,
                start_ms=times[0],
                end_ms=times[-1],
                count=len(times),
                series=stored_names(self.series),
                data=packing.pack(times[0], times, columns),
            )
        rows = [
            MetricGap(
                run_id=run_id,
                kind=self.kind,
                host=self.host,
                start_ms=g.start_ms,
                end_ms=g.end_ms,
                reason=g.reason,
            )
            for g in gaps
        ]
        return chunk, rows
