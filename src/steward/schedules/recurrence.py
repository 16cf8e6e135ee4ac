"""When a schedule fires: its occurrences as UTC instants, computed on the wall clock of its zone.

Pure functions. A cron line (croniter) or an RFC 5545 recurrence (dateutil) yields naive local
times in the schedule's IANA zone; each maps to one UTC instant with ``fold=0``:

- a local time that does not exist (spring forward, 02:30 on the day clocks go from 02:00 to
  03:00) fires once, shifted forward by the gap (02:30 EST is 03:30 EDT);
- a local time that exists twice (autumn, 01:30 on the day clocks go from 02:00 back to 01:00)
  fires once, at its first occurrence;
- two local times that map to the same instant fire once.

Every question has a budget (``Budget``): each local occurrence gone through and each turn of
dateutil's own search (a period of the rule looked at, weighed by the days and times it holds)
spends from it, and a question that spends it all is a 422 on ``expression``. dateutil alone
would search a rule that can never match (``FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30``) up to the
year 9999, seconds of CPU without yielding anything; counted, it stops after ``BUDGET``
units (well under 0.2 s). An RRULE without COUNT starts from a DTSTART moved forward by whole
periods (its occurrences are unchanged), so a minutely rule costs the same after a year as on
its first day.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import heapq
import itertools
import types
import typing
from collections.abc import Iterable, Iterator
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

import dateutil.rrule
from croniter import croniter
from croniter.croniter import CroniterError
from dateutil.relativedelta import relativedelta
from dateutil.rrule import (
    DAILY,
    HOURLY,
    MINUTELY,
    MONTHLY,
    SECONDLY,
    WEEKLY,
    YEARLY,
    rrule,
    rruleset,
    rrulestr,
)

from steward.errors import InvalidInput
from steward.schedules.models import ScheduleKind

# What one question (the next occurrence, the next ten) may cost, in units of about 0.1 µs
# of CPU: a turn of dateutil's search costs TURN_COST plus a unit per day and per time of day it
# builds; each local occurrence gone through costs STEP_COST (zone and order on our side).
BUDGET = 1_000_000
TURN_COST = 40
STEP_COST = 50
MONTH_COST = 16  # a month a turn of a rule under MONTHLY goes through (INTERVAL=10000 days)
# times of day a YEARLY…DAILY rule's BYHOUR, BYMINUTE and BYSECOND may give: dateutil builds
# them all each time the rule is made (86,400 cost 30 ms)
TIMES_PER_DAY_MAX = 24 * 60
CRON_KEYWORDS = frozenset(
    {"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}
)
# files of the zone database that are not a place: the server's own zone, and helpers
NOT_PLACES = frozenset({"localtime", "posixrules", "Factory"})
_PERIODS: dict[int, dt.timedelta] = {
    WEEKLY: dt.timedelta(weeks=1),
    DAILY: dt.timedelta(days=1),
    HOURLY: dt.timedelta(hours=1),
    MINUTELY: dt.timedelta(minutes=1),
    SECONDLY: dt.timedelta(seconds=1),
}
_MONTHS = {MONTHLY: 1, YEARLY: 12}
_MONTH_SECONDS = 28 * 24 * 3600


@functools.cache
def _zone_names() -> frozenset[str]:
    return frozenset(available_timezones() - NOT_PLACES)


def zone(name: str, field: str = "timezone") -> ZoneInfo:
    """The IANA zone ``name`` (``Europe/Berlin``, ``UTC``); anything else is a 422 on ``field``."""
    if name not in _zone_names():
        raise InvalidInput(field, f"'{name}' is not an IANA time zone (such as Europe/Berlin)")
    return ZoneInfo(name)


@dataclasses.dataclass(frozen=True)
class Recurrence:
    """What decides a schedule's occurrences; ``start_at``/``end_at``/``anchor`` are UTC."""

    kind: ScheduleKind
    expression: str
    timezone: str
    start_at: dt.datetime | None = None
    end_at: dt.datetime | None = None
    # the RRULE's DTSTART when the expression has none: start_at, else when it was created
    anchor: dt.datetime | None = None

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.timezone)


def next_after(rec: Recurrence, after: dt.datetime) -> dt.datetime | None:
    """The first occurrence strictly after ``after``; None when there is none left."""
    return next(occurrences(rec, after), None)


def upcoming(
    rec: Recurrence, after: dt.datetime, count: int, budget: Budget | None = None
) -> list[dt.datetime]:
    """Up to ``count`` occurrences strictly after ``after``, in order."""
    found: list[dt.datetime] = []
    for instant in occurrences(rec, after, budget):
        found.append(instant)
        if len(found) >= count:
            break
    return found


def check(
    rec: Recurrence,
    now: dt.datetime,
    *,
    min_interval: dt.timedelta,
    budget: Budget | None = None,
) -> dt.datetime:
    """Validate ``rec`` as saved at ``now``: a 422 naming the field when it is invalid, can
    never fire again, fires more often than ``min_interval`` or costs more than ``budget`` to
    evaluate; returns its next occurrence."""
    if rec.start_at is not None and rec.end_at is not None and rec.end_at <= rec.start_at:
        raise InvalidInput("end_at", "must be after start_at")
    if rec.end_at is not None and rec.end_at <= now:
        raise InvalidInput("end_at", "is in the past: the schedule would never fire")
    first = upcoming(rec, now, 10, budget)
    if not first:
        raise InvalidInput("expression", "has no occurrence after now: it would never fire")
    for earlier, later in itertools.pairwise(first):
        if later - earlier < min_interval:
            raise InvalidInput(
                "expression",
                f"fires {_seconds(later - earlier)} apart ({earlier.isoformat()} and"
                f" {later.isoformat()}); at least {_seconds(min_interval)} are required"
                " between runs (STEWARD_SCHEDULE_MIN_INTERVAL_SECONDS)",
            )
    return first[0]


def _seconds(delta: dt.timedelta) -> str:
    return f"{delta.total_seconds():g} s"


def occurrences(
    rec: Recurrence, after: dt.datetime, budget: Budget | None = None
) -> Iterator[dt.datetime]:
    """Every occurrence strictly after ``after`` (UTC, increasing, each once) within
    ``start_at``..``end_at``, while ``budget`` (a new ``Budget`` when not given) lasts.
    Raises ``InvalidInput`` on ``expression`` or ``timezone``."""
    budget = budget or Budget()
    place = rec.zone
    lower = after
    if rec.start_at is not None and rec.start_at - dt.timedelta(microseconds=1) > lower:
        lower = rec.start_at - dt.timedelta(microseconds=1)
    local = _local_times(rec, place, _lookback(lower, place), budget)
    for instant in _in_order(local, place):
        if instant <= lower:
            continue
        if rec.end_at is not None and instant > rec.end_at:
            return
        yield instant


def _lookback(instant: dt.datetime, place: ZoneInfo) -> dt.datetime:
    """A local time early enough that no occurrence after ``instant`` comes before it: a
    time skipped by a recent spring forward maps to an instant after the local time of
    ``instant``, so start from the smaller offset of the last two days."""
    offsets = [
        (instant - dt.timedelta(days=2)).astimezone(place).utcoffset(),
        instant.astimezone(place).utcoffset(),
    ]
    smallest = min(offset for offset in offsets if offset is not None)
    start = (instant + smallest).replace(tzinfo=None, microsecond=0)
    return start - dt.timedelta(seconds=1)


class Budget:
    """The work left for one question; spending past it is a 422 on ``expression``."""

    def __init__(self, units: int = BUDGET) -> None:
        self.left = units

    def spend(self, units: int) -> None:
        self.left -= units
        if self.left < 0:
            raise InvalidInput(
                "expression",
                "takes too long to evaluate: its next occurrences were not found within the"
                " search budget; it may never fire (30 February) or match too rarely or too"
                " densely; use a coarser FREQ, fewer BY… values, or a rule that matches more"
                " regularly",
            )


def _bounded(local: Iterable[dt.datetime], budget: Budget) -> Iterator[dt.datetime]:
    for when in local:
        budget.spend(STEP_COST)
        yield when


def _in_order(local: Iterable[dt.datetime], place: ZoneInfo) -> Iterator[dt.datetime]:
    """Local times (increasing) as UTC instants, increasing and each once.

    Mapping local to UTC keeps the order except for a time in a spring-forward gap: it maps
    past the local times that follow it by less than the gap. Such a time is held until the
    local times have passed the end of its gap."""
    held: list[tuple[dt.datetime, dt.datetime]] = []  # (instant, local time it is safe after)
    last: dt.datetime | None = None
    for when in local:
        while held and held[0][1] <= when:
            instant = heapq.heappop(held)[0]
            if instant != last:
                yield instant
                last = instant
        heapq.heappush(held, _to_utc(when, place))
    for instant, _safe in sorted(held):
        if instant != last:
            yield instant
            last = instant


def _to_utc(local: dt.datetime, place: ZoneInfo) -> tuple[dt.datetime, dt.datetime]:
    """``local`` as a UTC instant (``fold=0``), and the local time once it is safe to emit:
    itself, or the end of the gap it falls in."""
    instant = local.replace(tzinfo=place, fold=0).astimezone(dt.UTC)
    shown = instant.astimezone(place).replace(tzinfo=None)
    return instant, max(shown, local)


def _local_times(
    rec: Recurrence, place: ZoneInfo, start: dt.datetime, budget: Budget
) -> Iterator[dt.datetime]:
    if rec.kind == ScheduleKind.CRON:
        return _cron_times(rec.expression, start, budget)
    anchor = rec.anchor or rec.start_at
    if anchor is None:
        raise InvalidInput("expression", "an RRULE needs a DTSTART line or a start_at")
    dtstart = anchor.astimezone(place).replace(tzinfo=None, second=0, microsecond=0)
    return _rrule_times(_parse_rrule(rec.expression, dtstart), start, budget)


# --- cron ----------------------------------------------------------------------------------


def _check_cron(expression: str) -> None:
    text = expression.strip()
    fields = text.split()
    if text.lower() not in CRON_KEYWORDS and len(fields) != 5:
        raise InvalidInput(
            "expression",
            "a cron line has 5 fields (minute hour day-of-month month day-of-week)"
            f" or is one of {', '.join(sorted(CRON_KEYWORDS))}; this one has {len(fields)}",
        )
    if not croniter.is_valid(text):
        raise InvalidInput("expression", f"'{text}' is not a valid cron expression")


def _cron_times(expression: str, start: dt.datetime, budget: Budget) -> Iterator[dt.datetime]:
    _check_cron(expression)
    try:
        times = croniter(expression.strip(), start)
        for _step in _bounded(itertools.repeat(start), budget):
            yield times.get_next(dt.datetime)
    except CroniterError:  # no further date matches (31 February)
        return


# --- RFC 5545 --------------------------------------------------------------------------------


def _parse_rrule(expression: str, dtstart: dt.datetime) -> rrule | rruleset:
    """The recurrence, on naive local times; DTSTART/UNTIL/EXDATE in UTC or another zone are
    refused (the schedule's ``timezone`` says which zone its local times are in)."""
    try:
        parsed = rrulestr(
            expression.strip(), dtstart=dtstart, unfold=True, tzids=_no_tzid, tzinfos=_no_zone
        )
    except (ValueError, TypeError, OverflowError, KeyError, IndexError) as exc:
        raise InvalidInput("expression", f"is not a valid RFC 5545 recurrence: {exc}") from None
    for rule in _rules(parsed):
        info = vars(rule)
        if info["_dtstart"] is not None and info["_dtstart"].tzinfo is not None:
            raise _zoned()
        if int(info["_interval"]) < 1:
            raise InvalidInput("expression", "INTERVAL must be at least 1")
        if len(info["_timeset"] or ()) > TIMES_PER_DAY_MAX:
            raise InvalidInput(
                "expression",
                f"BYHOUR, BYMINUTE and BYSECOND give {len(info['_timeset'])} times of day; at"
                f" most {TIMES_PER_DAY_MAX} (one a minute) are allowed",
            )
    if isinstance(parsed, rruleset):
        dates: list[dt.datetime] = [*parsed._rdate, *parsed._exdate]  # type: ignore[attr-defined]
        if any(date.tzinfo is not None for date in dates):
            raise _zoned()
    return parsed


def _no_zone(name: object, _offset: object = None) -> None:
    """Given to dateutil's parser, which asks it about every date, zoned or not."""
    if name is not None:
        raise ValueError(f"time zone {name!r}: give local times without TZID or a zone name")


def _no_tzid(name: str) -> dt.tzinfo:
    """Given to dateutil instead of its zone lookup, which would open a file named by the
    TZID (``TZID=/dev/stdin``)."""
    raise ValueError(f"TZID={name}: give local times without TZID")


def _zoned() -> InvalidInput:
    return InvalidInput(
        "expression",
        "give DTSTART, RDATE and EXDATE as local times without TZID or Z;"
        " the schedule's timezone says where they are",
    )


def _rules(parsed: rrule | rruleset) -> list[rrule]:
    if isinstance(parsed, rrule):
        return [parsed]
    found: list[rrule] = [*parsed._rrule, *parsed._exrule]  # type: ignore[attr-defined]
    return found


def _rrule_times(
    parsed: rrule | rruleset, start: dt.datetime, budget: Budget
) -> Iterator[dt.datetime]:
    """The occurrences from ``start`` on (and a few before it), every rule counted."""
    moved: rrule | rruleset
    if isinstance(parsed, rrule):
        moved = _counted(_moved(parsed, start), budget)
    else:
        moved = rruleset()
        for rule in parsed._rrule:  # type: ignore[attr-defined]
            moved.rrule(_counted(_moved(rule, start), budget))
        for rule in parsed._exrule:  # type: ignore[attr-defined]
            moved.exrule(_counted(_moved(rule, start), budget))
        for date in parsed._rdate:  # type: ignore[attr-defined]
            moved.rdate(date)
        for date in parsed._exdate:  # type: ignore[attr-defined]
            moved.exdate(date)
    try:
        for when in _bounded(moved, budget):  # the ones skipped count too
            if when >= start:
                yield when
    except (OverflowError, ValueError):  # past year 9999
        return


_DaySet = tuple[Iterable[int | None], int, int]  # a period's days, and where they are in it


class _CountedInfo(dateutil.rrule._iterinfo):
    """dateutil's per-rule calendar, charging the rule's budget at each turn of its search:
    the search calls one of the ``*dayset`` methods once per period (year, month, week, day)
    it looks at, and a ``*timeset`` one per hour, minute or second of an HOURLY, MINUTELY or
    SECONDLY rule. (No ``__slots__`` of its own: dateutil's ``__init__`` sets every name of
    ``self.__slots__``, which must stay dateutil's.)"""

    def _spend(self, units: int) -> None:
        rule = typing.cast(_CountedRule, self.rrule)
        rule.budget.spend(units)

    def _days(self, found: _DaySet) -> _DaySet:
        rule = typing.cast(_CountedRule, self.rrule)
        self._spend(rule.turn_cost + (found[2] - found[1]) * (1 + len(rule._bysetpos or ())))
        return found

    def ydayset(self, year: int, month: int, day: int) -> _DaySet:
        return self._days(super().ydayset(year, month, day))

    def mdayset(self, year: int, month: int, day: int) -> _DaySet:
        return self._days(super().mdayset(year, month, day))

    def wdayset(self, year: int, month: int, day: int) -> _DaySet:
        return self._days(super().wdayset(year, month, day))

    def ddayset(self, year: int, month: int, day: int) -> _DaySet:
        return self._days(super().ddayset(year, month, day))

    def htimeset(self, hour: int, minute: int, second: int) -> list[dt.time]:
        found = super().htimeset(hour, minute, second)
        self._spend(len(found))
        return found

    def mtimeset(self, hour: int, minute: int, second: int) -> list[dt.time]:
        found = super().mtimeset(hour, minute, second)
        self._spend(len(found))
        return found

    def stimeset(self, hour: int, minute: int, second: int) -> tuple[dt.time, ...]:
        found = super().stimeset(hour, minute, second)
        self._spend(len(found))
        return found


class _CountedRule(rrule):
    """An rrule whose search spends ``budget``: dateutil's own ``_iter``, run with
    ``_CountedInfo`` as its calendar (the same code, given other globals: nothing of dateutil
    is changed for anyone else)."""

    budget: Budget
    turn_cost: int
    _bysetpos: tuple[int, ...] | None

    _iter = types.FunctionType(
        rrule._iter.__code__,  # type: ignore[attr-defined]
        {**vars(dateutil.rrule), "_iterinfo": _CountedInfo},
        "_iter",
    )

    def _rrule__mod_distance(self, value: int, byxxx: Any, base: int) -> tuple[int, int]:
        """The next hour, minute or second in BYHOUR/BYMINUTE/BYSECOND: up to ``base``
        steps, called up to a day's worth of times in one turn of a SECONDLY rule."""
        self.budget.spend(base)
        found: tuple[int, int] = rrule._rrule__mod_distance(  # type: ignore[attr-defined]
            self, value, byxxx, base
        )
        return found


def _counted(rule: rrule, budget: Budget) -> _CountedRule:
    """``rule`` as a ``_CountedRule`` spending ``budget`` (what ``rrule.replace`` keeps)."""
    info: dict[str, Any] = vars(rule)
    kwargs: dict[str, Any] = {
        "freq": info["_freq"],
        "dtstart": info["_dtstart"],
        "interval": info["_interval"],
        "wkst": info["_wkst"],
        "count": info["_count"],
        "until": info["_until"],
        "cache": False,
        **info["_original_rule"],
    }
    counted = _CountedRule(**kwargs)
    counted.budget = budget
    # a turn of a rule under MONTHLY moves forward a month at a time (in one loop of
    # dateutil's) to the period's month: INTERVAL=2147483647 days is 70 million of them
    period = _PERIODS.get(int(info["_freq"]))
    seconds = int(period.total_seconds()) * int(info["_interval"]) if period is not None else 0
    counted.turn_cost = TURN_COST + MONTH_COST * (seconds // _MONTH_SECONDS)
    return counted


def _moved(rule: rrule, start: dt.datetime) -> rrule:
    """``rule`` with its DTSTART moved forward by whole periods to at most ``start``: the same
    occurrences from there on (BY… parts taken from DTSTART keep their value), fewer to skip.
    A rule with COUNT counts from its DTSTART and stays as it is, as does a monthly or yearly
    one starting after the 28th (a month without that day would change it)."""
    info: dict[str, Any] = vars(rule)
    dtstart: dt.datetime = info["_dtstart"]
    freq, interval = int(info["_freq"]), int(info["_interval"])
    if info["_count"] is not None or start <= dtstart:
        return rule
    if freq in _PERIODS:  # in whole seconds: INTERVAL=2147483647 days is no timedelta
        period = int(_PERIODS[freq].total_seconds()) * interval
        steps = int((start - dtstart).total_seconds()) // period
        moved = dt.timedelta(seconds=period * steps) if steps > 0 else None
        return rule.replace(dtstart=dtstart + moved) if moved is not None else rule
    if dtstart.day > 28:
        return rule
    months = _MONTHS[freq] * interval
    elapsed = (start.year - dtstart.year) * 12 + start.month - dtstart.month
    steps = elapsed // months - 1
    return (
        rule.replace(dtstart=dtstart + relativedelta(months=months * steps)) if steps > 0 else rule
    )
