"""When a schedule fires: its occurrences as UTC instants, computed on the wall clock of its zone.

Pure functions. A cron line (croniter) or an RFC 5545 recurrence (dateutil) yields naive local
times in the schedule's IANA zone; each maps to one UTC instant with ``fold=0``:

- a local time that does not exist (spring forward, 02:30 on the day clocks go from 02:00 to
  03:00) fires once, shifted forward by the gap (02:30 EST is 03:30 EDT);
- a local time that exists twice (autumn, 01:30 on the day clocks go from 02:00 back to 01:00)
  fires once, at its first occurrence;
- two local times that map to the same instant fire once.

Iteration is bounded: at most ``STEPS_MAX`` local occurrences per question, and an RRULE without
COUNT starts from a DTSTART moved forward by whole periods (its occurrences are unchanged), so a
minutely rule costs the same after a year as on its first day.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import heapq
import itertools
from collections.abc import Iterable, Iterator
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

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

STEPS_MAX = 100_000  # local occurrences looked at to answer one question
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


def upcoming(rec: Recurrence, after: dt.datetime, count: int) -> list[dt.datetime]:
    """Up to ``count`` occurrences strictly after ``after``, in order."""
    found: list[dt.datetime] = []
    for instant in occurrences(rec, after):
        found.append(instant)
        if len(found) >= count:
            break
    return found


def check(rec: Recurrence, now: dt.datetime, *, min_interval: dt.timedelta) -> dt.datetime:
    """Validate ``rec`` as saved at ``now``: a 422 naming the field when it is invalid, can
    never fire again, or fires more often than ``min_interval``; returns its next occurrence."""
    if rec.start_at is not None and rec.end_at is not None and rec.end_at <= rec.start_at:
        raise InvalidInput("end_at", "must be after start_at")
    if rec.end_at is not None and rec.end_at <= now:
        raise InvalidInput("end_at", "is in the past: the schedule would never fire")
    first = upcoming(rec, now, 10)
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


def occurrences(rec: Recurrence, after: dt.datetime) -> Iterator[dt.datetime]:
    """Every occurrence strictly after ``after`` (UTC, increasing, each once) within
    ``start_at``..``end_at``. Raises ``InvalidInput`` on ``expression`` or ``timezone``."""
    place = rec.zone
    lower = after
    if rec.start_at is not None and rec.start_at - dt.timedelta(microseconds=1) > lower:
        lower = rec.start_at - dt.timedelta(microseconds=1)
    local = _local_times(rec, place, _lookback(lower, place))
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


def _bounded(local: Iterable[dt.datetime]) -> Iterator[dt.datetime]:
    for steps, when in enumerate(local):
        if steps >= STEPS_MAX:
            raise InvalidInput(
                "expression",
                f"has more than {STEPS_MAX} occurrences to go through to find the next one;"
                " use a coarser FREQ or fewer BY… values",
            )
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


def _local_times(rec: Recurrence, place: ZoneInfo, start: dt.datetime) -> Iterator[dt.datetime]:
    if rec.kind == ScheduleKind.CRON:
        return _cron_times(rec.expression, start)
    anchor = rec.anchor or rec.start_at
    if anchor is None:
        raise InvalidInput("expression", "an RRULE needs a DTSTART line or a start_at")
    dtstart = anchor.astimezone(place).replace(tzinfo=None, second=0, microsecond=0)
    return _rrule_times(_parse_rrule(rec.expression, dtstart), start)


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


def _cron_times(expression: str, start: dt.datetime) -> Iterator[dt.datetime]:
    _check_cron(expression)
    try:
        times = croniter(expression.strip(), start)
        for _step in _bounded(itertools.repeat(start)):
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


def _rrule_times(parsed: rrule | rruleset, start: dt.datetime) -> Iterator[dt.datetime]:
    """The occurrences from ``start`` on (and a few before it)."""
    moved: rrule | rruleset
    if isinstance(parsed, rrule):
        moved = _moved(parsed, start)
    else:
        moved = rruleset()
        for rule in parsed._rrule:  # type: ignore[attr-defined]
            moved.rrule(_moved(rule, start))
        for rule in parsed._exrule:  # type: ignore[attr-defined]
            moved.exrule(_moved(rule, start))
        for date in parsed._rdate:  # type: ignore[attr-defined]
            moved.rdate(date)
        for date in parsed._exdate:  # type: ignore[attr-defined]
            moved.exdate(date)
    try:
        for when in _bounded(moved):  # the ones skipped count too
            if when >= start:
                yield when
    except (OverflowError, ValueError):  # past year 9999
        return


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
    if freq in _PERIODS:
        period = _PERIODS[freq] * interval
        steps = (start - dtstart) // period
        return rule.replace(dtstart=dtstart + period * steps) if steps > 0 else rule
    if dtstart.day > 28:
        return rule
    months = _MONTHS[freq] * interval
    elapsed = (start.year - dtstart.year) * 12 + start.month - dtstart.month
    steps = elapsed // months - 1
    return (
        rule.replace(dtstart=dtstart + relativedelta(months=months * steps)) if steps > 0 else rule
    )
