"""The caller's days: where each one starts and ends in UTC, in the caller's zone.

Neither database is asked about time zones: Python's zone database gives each local day's
bounds (a daylight-saving day is 23 or 25 hours long), and SQL compares ``created_at`` with
them. The same answer on SQLite and PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Integer, case, literal_column

from steward.runs.models import Run
from steward.schedules.recurrence import zone as iana_zone


@dataclasses.dataclass(frozen=True)
class Window:
    """The last ``len(dates)`` days of ``zone``, today included; day n runs from
    ``bounds[n]`` to ``bounds[n + 1]`` (UTC)."""

    zone: ZoneInfo
    dates: list[dt.date]
    bounds: list[dt.datetime]

    @property
    def start(self) -> dt.datetime:
        return self.bounds[0]

    def day_of_run(self) -> ColumnElement[int]:
        """The index in ``dates`` of a run's day (from ``created_at``): a binary search over the
        bounds written as nested CASEs, about log2(days) comparisons a run, in one pass over
        the window whatever index finds its runs."""

        def search(low: int, high: int) -> ColumnElement[int]:  # the days low .. high - 1
            if high - low == 1:
                return literal_column(str(low), Integer)
            middle = (low + high) // 2
            earlier = Run.created_at < self.bounds[middle]
            return case((earlier, search(low, middle)), else_=search(middle, high))

        return search(0, len(self.dates))


def window(days: int, tz: str, now: dt.datetime) -> Window:
    """Raises ``InvalidInput`` on ``tz`` when it is not an IANA zone name."""
    place = iana_zone(tz, "tz")
    today = now.astimezone(place).date()
    dates = [today - dt.timedelta(days=n) for n in range(days - 1, -1, -1)]
    after = [*dates, today + dt.timedelta(days=1)]
    return Window(place, dates, [_midnight(date, place) for date in after])


def _midnight(date: dt.date, place: ZoneInfo) -> dt.datetime:
    """When ``date`` starts in ``place``, in UTC (where a change skips midnight, the first
    instant of the day: zoneinfo reads a skipped time with the offset before the change)."""
    return dt.datetime.combine(date, dt.time(), tzinfo=place).astimezone(dt.UTC)
