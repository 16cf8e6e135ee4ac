"""Where a moment stands against a freeze window: inside an occurrence, or before the next.

Pure functions. A window is a wall-clock span (``start`` up to ``end``, end exclusive) in an
IANA zone, repeated by an optional RFC 5545 RRULE whose DTSTART is ``start``. The RRULE is
evaluated by ``schedules.recurrence`` (its DST rules and its CPU budget: a rule that costs too
much is a 422 on ``rrule``); each occurrence lasts the same wall-clock span, so a freeze from
18:00 to 08:00 ends at 08:00 local on the day clocks change too. A local time that does not
exist (a spring-forward gap) is moved forward by the gap (the occurrence keeps its length from
the start as shown), one that exists twice is its first.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools
from collections.abc import Iterator
from zoneinfo import ZoneInfo

from steward.errors import InvalidInput
from steward.schedules import recurrence
from steward.schedules.models import ScheduleKind

SPAN_MAX = dt.timedelta(days=366)  # one occurrence at most a year long
# how far before a moment an occurrence containing it may start, beyond its span: a span
# measured on the wall clock lasts up to a DST shift (at most 2 h anywhere) longer in UTC
SHIFT_MAX = dt.timedelta(hours=3)


@dataclasses.dataclass(frozen=True)
class Window:
    """A window's rule: ``start``/``end`` naive wall-clock times in ``timezone``."""

    start: dt.datetime
    end: dt.datetime
    timezone: str
    rrule: str = ""

    @property
    def span(self) -> dt.timedelta:
        return self.end - self.start


@dataclasses.dataclass(frozen=True)
class Occurrence:
    """One occurrence as UTC instants, ``ends_at`` exclusive."""

    starts_at: dt.datetime
    ends_at: dt.datetime

    def holds(self, when: dt.datetime) -> bool:
        return self.starts_at <= when < self.ends_at


def to_utc(local: dt.datetime, place: ZoneInfo) -> dt.datetime:
    """A wall-clock time as a UTC instant (``fold=0``, as ``schedules.recurrence``): a time in
    a gap moved forward by the gap, a time that exists twice its first."""
    return local.replace(tzinfo=place, fold=0).astimezone(dt.UTC)


def _recurrence(window: Window, place: ZoneInfo) -> recurrence.Recurrence:
    return recurrence.Recurrence(
        kind=ScheduleKind.RRULE,
        expression=window.rrule,
        timezone=window.timezone,
        anchor=to_utc(window.start, place),
    )


def _occurrence(start: dt.datetime, window: Window, place: ZoneInfo) -> Occurrence:
    """The occurrence starting at UTC ``start``: the window's span on the wall clock."""
    local = start.astimezone(place).replace(tzinfo=None)
    return Occurrence(start, to_utc(local + window.span, place))


def occurrences(
    window: Window, after: dt.datetime, budget: recurrence.Budget | None = None
) -> Iterator[Occurrence]:
    """Every occurrence starting strictly after ``after`` (UTC), in order, while the budget
    lasts (a 422 on ``rrule`` past it)."""
    place = recurrence.zone(window.timezone)
    if not window.rrule:
        first = _occurrence(to_utc(window.start, place), window, place)
        if first.starts_at > after:
            yield first
        return
    # the first occurrence is the span itself, whether the rule matches DTSTART or not
    anchor = _occurrence(to_utc(window.start, place), window, place)
    if anchor.starts_at > after:
        yield anchor
    starts = recurrence.occurrences(_recurrence(window, place), after, budget)
    try:
        for start in starts:
            if start != anchor.starts_at:
                yield _occurrence(start, window, place)
    except InvalidInput as exc:
        raise InvalidInput("rrule", exc.reason) from None


@dataclasses.dataclass(frozen=True)
class Standing:
    """Where a moment stands: the occurrence it is in (or None), and the next one to start."""

    active: Occurrence | None
    coming: Occurrence | None


def standing(
    window: Window, when: dt.datetime, budget: recurrence.Budget | None = None
) -> Standing:
    """The occurrence holding ``when`` (UTC; start inclusive, end exclusive), and the first
    one starting after ``when``."""
    active: Occurrence | None = None
    lookback = when - window.span - SHIFT_MAX
    for found in occurrences(window, lookback, budget):
        if found.starts_at > when:
            return Standing(active, found)
        if found.holds(when) and active is None:
            active = found
    return Standing(active, None)


def check(window: Window, now: dt.datetime) -> None:
    """A window as saved at ``now``: a 422 naming the field when its span is empty or too
    long, its zone or rule invalid, its occurrences overlap, or it costs more than the
    budget to evaluate."""
    if window.end <= window.start:
        raise InvalidInput("ends_local", "must be after starts_local")
    if window.span > SPAN_MAX:
        raise InvalidInput("ends_local", f"a window lasts at most {SPAN_MAX.days} days")
    recurrence.zone(window.timezone)
    text = window.rrule
    one_line = "\n" not in text and "\r" not in text
    if text and not (one_line and text.upper().startswith(("RRULE:", "FREQ="))):
        raise InvalidInput(
            "rrule",
            "one RRULE line (FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=20), without DTSTART:"
            " starts_local is the first occurrence",
        )
    budget = recurrence.Budget()
    first = list(itertools.islice(occurrences(window, now - window.span, budget), 10))
    for earlier, later in itertools.pairwise(first):
        if later.starts_at < earlier.ends_at:
            raise InvalidInput(
                "rrule",
                f"occurrences overlap ({earlier.starts_at.isoformat()} starts the next before"
                f" {earlier.ends_at.isoformat()}, when the one before ends): make the window"
                " shorter or the rule sparser",
            )
