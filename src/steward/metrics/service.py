"""Read a run's metrics: the lanes, their samples in a stretch of time, their gaps."""

from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
from collections.abc import Iterator

from sqlalchemy import ColumnElement, and_, func, literal, select, union
from sqlalchemy.orm import Session

from steward.errors import InvalidInput
from steward.metrics import packing
from steward.metrics.downsampling import buckets
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.schemas import GapRead, LaneRead, MetricsFilter, MetricsQuery, MetricsRead
from steward.metrics.series import ALL_SERIES, UNITS, LaneKind, names_of, series_of

CHUNKS_PER_BATCH = 200


@dataclasses.dataclass(frozen=True)
class Window:
    """What a request asks for, checked: series names, and a stretch in epoch ms."""

    series: tuple[str, ...]
    start: int | None
    end: int | None


def _ms(value: dt.datetime | None) -> int | None:
    if value is None:
        return None
    aware = value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)
    return int(aware.timestamp() * 1000)


def window(query: MetricsFilter) -> Window:
    names = tuple(UNITS)
    if query.series is not None:
        names = tuple(dict.fromkeys(n.strip() for n in query.series.split(",") if n.strip()))
        unknown = [n for n in names if n not in ALL_SERIES]
        if not names or unknown:
            shown = (unknown[0] if unknown else "")[:60]
            raise InvalidInput("series", f"unknown series '{shown}'; known: {', '.join(UNITS)}")
    start, end = _ms(query.start), _ms(query.end)
    if start is not None and end is not None and end < start:
        raise InvalidInput("to", "must not be before 'from'")
    return Window(names, start, end)


def _lane_filter(
    run_id: int, query: MetricsFilter, model: type[MetricChunk] | type[MetricGap]
) -> ColumnElement[bool]:
    clauses = [model.run_id == run_id]
    if query.host is not None:
        clauses.append(model.host == query.host)
    if query.kind is not None:
        clauses.append(model.kind == query.kind)
    return and_(*clauses)


def lanes(session: Session, run_id: int, query: MetricsFilter) -> list[tuple[LaneKind, str]]:
    """Every lane with samples or gaps: the controller first, then hosts by name."""
    found = union(
        select(MetricChunk.kind, MetricChunk.host).where(_lane_filter(run_id, query, MetricChunk)),
        select(MetricGap.kind, MetricGap.host).where(_lane_filter(run_id, query, MetricGap)),
    ).subquery()
    rows = session.execute(select(found.c.kind, found.c.host)).all()
    return sorted(
        ((LaneKind(kind), host) for kind, host in rows),
        key=lambda lane: (lane[0] is not LaneKind.CONTROLLER, lane[1]),
    )


def extent(session: Session, run_id: int) -> tuple[int | None, int | None]:
    """The first and last moment any lane of the run covers."""
    chunks = session.execute(
        select(func.min(MetricChunk.start_ms), func.max(MetricChunk.end_ms)).where(
            MetricChunk.run_id == run_id
        )
    ).one()
    gaps = session.execute(
        select(func.min(MetricGap.start_ms), func.max(MetricGap.end_ms)).where(
            MetricGap.run_id == run_id
        )
    ).one()
    starts = [v for v in (chunks[0], gaps[0]) if v is not None]
    ends = [v for v in (chunks[1], gaps[1]) if v is not None]
    return (min(starts) if starts else None), (max(ends) if ends else None)


def _overlapping(
    model: type[MetricChunk] | type[MetricGap], start: int | None, end: int | None
) -> list[ColumnElement[bool]]:
    clauses: list[ColumnElement[bool]] = []
    if start is not None:
        clauses.append(model.end_ms >= start)
    if end is not None:
        clauses.append(model.start_ms <= end)
    return clauses or [literal(True)]


def _chunks(
    session: Session, run_id: int, lane: tuple[LaneKind, str], win: Window
) -> Iterator[tuple[list[int], dict[str, list[float | None]]]]:
    """Each of the lane's chunks in the window, in time order: its times, series -> values."""
    kind, host = lane
    rows = session.scalars(
        select(MetricChunk)
        .where(
            MetricChunk.run_id == run_id,
            MetricChunk.kind == kind,
            MetricChunk.host == host,
            *_overlapping(MetricChunk, win.start, win.end),
        )
        .order_by(MetricChunk.start_ms)
        .execution_options(yield_per=CHUNKS_PER_BATCH)
    )
    for chunk in rows:
        names = names_of(chunk.series)
        times, columns = packing.unpack(chunk.data, chunk.start_ms, chunk.count, len(names))
        yield times, dict(zip(names, columns, strict=True))


def _inside(times: list[int], win: Window) -> tuple[int, int]:
    """The slice of ``times`` (ascending) inside the window."""
    low = 0 if win.start is None else bisect.bisect_left(times, win.start)
    high = len(times) if win.end is None else bisect.bisect_right(times, win.end)
    return low, high


def samples(
    session: Session, run_id: int, lane: tuple[LaneKind, str], win: Window
) -> Iterator[tuple[int, dict[str, float | None]]]:
    """The lane's samples in the window, in time order: (epoch ms, series -> value)."""
    for times, by_name in _chunks(session, run_id, lane, win):
        low, high = _inside(times, win)
        wanted = [(name, by_name.get(name)) for name in win.series]
        for i in range(low, high):
            yield times[i], {name: (col[i] if col is not None else None) for name, col in wanted}


def columns(
    session: Session, run_id: int, lane: tuple[LaneKind, str], win: Window, names: list[str]
) -> tuple[list[int], list[list[float | None]]]:
    """The lane's samples in the window as columns: the times, and one list per name."""
    times: list[int] = []
    found: list[list[float | None]] = [[] for _ in names]
    for chunk_times, by_name in _chunks(session, run_id, lane, win):
        low, high = _inside(chunk_times, win)
        times += chunk_times[low:high]
        for name, column in zip(names, found, strict=True):
            values = by_name.get(name)
            column += values[low:high] if values is not None else [None] * (high - low)
    return times, found


def gaps(session: Session, run_id: int, lane: tuple[LaneKind, str], win: Window) -> list[GapRead]:
    """The lane's gaps in the window; stretches of one reason that touch are one gap."""
    kind, host = lane
    rows = session.execute(
        select(MetricGap.start_ms, MetricGap.end_ms, MetricGap.reason)
        .where(
            MetricGap.run_id == run_id,
            MetricGap.kind == kind,
            MetricGap.host == host,
            *_overlapping(MetricGap, win.start, win.end),
        )
        .order_by(MetricGap.start_ms)
    ).all()
    merged: list[GapRead] = []
    for start, end, reason in rows:
        last = merged[-1] if merged else None
        if last is not None and last.reason == reason and start <= last.end:
            last.end = max(last.end, end)
        else:
            merged.append(GapRead(start=start, end=end, reason=reason))
    return merged


def read(session: Session, run_id: int, query: MetricsQuery) -> MetricsRead:
    win = window(query)
    first, last = extent(session, run_id)
    start = win.start if win.start is not None else first
    end = win.end if win.end is not None else last
    every = lanes(session, run_id, query)
    page = every[query.offset : query.offset + query.limit]
    shown: list[LaneRead] = []
    for lane in page:
        names = [name for name in win.series if name in series_of(lane[0])]
        times, values = columns(session, run_id, lane, win, names)
        width, times, values = buckets(times, values, start or 0, end or 0, query.points)
        shown.append(
            LaneRead(
                kind=lane[0],
                host=lane[1],
                bucket_ms=width,
                times=times,
                series=dict(zip(names, values, strict=True)),
                gaps=gaps(session, run_id, lane, win),
            )
        )
    more = query.offset + query.limit < len(every)
    return MetricsRead(
        run_id=run_id,
        start=start,
        end=end,
        units={name: UNITS[name] for name in win.series},
        lanes=shown,
        next_offset=query.offset + query.limit if more else None,
    )
