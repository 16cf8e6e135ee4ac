"""The caller's days: where each one starts and ends in UTC, in the caller's zone.

Neither database is asked about time zones: Python's zone database gives each local day's
bounds (a daylight-saving day is 23 or 25 hours long), and SQL counts the runs between them,
each day a range of the ``created_at`` index. The same answer on SQLite and PostgreSQL.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from zoneinfo import ZoneInfo

from sqlalchemy import CTE, Integer, column, values

from steward.db import UTCDateTime
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

    def ranges(self) -> CTE:
        """A table of the days: ``n`` (index in ``dates``), ``since`` and ``until`` (UTC); a
        CTE, as SQLite names no columns of a VALUES in FROM."""
        table = values(
            column("n", Integer),
            column("since", UTCDateTime()),
            column("until", UTCDateTime()),
            name="days",
        )
        rows = [(n, self.bounds[n], self.bounds[n + 1]) for n in range(len(self.dates))]
        return table.data(rows).cte("days")


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
