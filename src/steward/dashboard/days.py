"""The caller's days: where each starts in UTC, and a run's local day computed in SQL.

Neither database is asked about time zones: the zone's UTC offsets over the window (a few steps
at most, one per daylight-saving change) come from Python's zone database, and the day of a run
is the date of ``created_at`` shifted by the offset in force at that instant. The same answer on
SQLite and PostgreSQL, and no per-row work beyond one CASE and a date().
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from sqlalchemy import Date, Integer, String, case, cast, func, literal
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from steward.runs.models import Run
from steward.schedules.recurrence import zone as iana_zone

SECOND = dt.timedelta(seconds=1)


@dataclasses.dataclass(frozen=True)
class Window:
    """The last ``days`` days of ``zone``, today included, from ``start`` (UTC) until now."""

    zone: ZoneInfo
    dates: list[dt.date]
    start: dt.datetime
    # (from this instant on, the zone's UTC offset in seconds), oldest first
    offsets: list[tuple[dt.datetime, int]]


def window(days: int, tz: str, now: dt.datetime) -> Window:
    """Raises ``InvalidInput`` on ``tz`` when it is not an IANA zone name."""
    place = iana_zone(tz, "tz")
    today = now.astimezone(place).date()
    dates = [today - dt.timedelta(days=n) for n in range(days - 1, -1, -1)]
    start = dt.datetime.combine(dates[0], dt.time(), tzinfo=place).astimezone(dt.UTC)
    return Window(place, dates, start, _offsets(place, start, now))


def _offset(place: ZoneInfo, instant: dt.datetime) -> int:
    offset = instant.astimezone(place).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def _offsets(
    place: ZoneInfo, start: dt.datetime, end: dt.datetime
) -> list[tuple[dt.datetime, int]]:
    """Every offset in force between ``start`` and ``end``: checked daily, each change found to
    the second by bisection (zones change offset at most twice a year)."""
    steps = [(start, _offset(place, start))]
    at = start
    while at < end:
        later = min(at + dt.timedelta(days=1), end)
        if _offset(place, later) != steps[-1][1]:
            low, high = at, later  # the offset changes after low, and has changed at high
            while high - low > SECOND:
                middle = low + (high - low) // 2
                middle -= dt.timedelta(microseconds=middle.microsecond)
                if middle <= low:
                    break
                if _offset(place, middle) == steps[-1][1]:
                    low = middle
                else:
                    high = middle
            steps.append((high, _offset(place, high)))
        at = later
    return steps


def _offset_seconds(win: Window) -> ColumnElement[int]:
    """The zone's offset at each run's ``created_at``, in seconds."""
    (_, first), *changes = win.offsets
    if not changes:
        return literal(first, Integer)
    # newest change first: the first one a run is at or after is the one in force
    return case(
        *((Run.created_at >= since, offset) for since, offset in reversed(changes)),
        else_=first,
    )


def local_day(session: Session, win: Window) -> ColumnElement[dt.date | str]:
    """A run's day in the window's zone: a date (PostgreSQL) or 'YYYY-MM-DD' (SQLite)."""
    seconds = _offset_seconds(win)
    if session.get_bind().dialect.name == "postgresql":
        # created_at is timestamptz: the UTC wall clock first, so the session zone plays no part
        utc_wall = func.timezone("UTC", Run.created_at)
        return cast(utc_wall + func.make_interval(0, 0, 0, 0, 0, 0, seconds), Date)
    return func.date(Run.created_at, cast(seconds, String) + literal(" seconds"))


def parse_day(value: dt.date | str) -> dt.date:
    return value if isinstance(value, dt.date) else dt.date.fromisoformat(value)
