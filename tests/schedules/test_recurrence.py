"""Occurrences on real calendar dates of 2027 (no clock involved): daylight saving time in both
directions and both zones, start/end, the minimum interval, and what is refused."""

from __future__ import annotations

import datetime as dt
import time
from zoneinfo import ZoneInfo

import pytest
from dateutil.rrule import rrulestr

from steward.errors import InvalidInput
from steward.schedules.models import ScheduleKind
from steward.schedules.recurrence import Recurrence, check, next_after, upcoming

CRON, RRULE = ScheduleKind.CRON, ScheduleKind.RRULE
NEW_YORK, BERLIN = "America/New_York", "Europe/Berlin"
MINUTE = dt.timedelta(minutes=1)
# every other minute of the year, expanded from a yearly rule: more than the budget to go
# through before reaching December
DENSE_YEARLY = (
    "FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR,SA,SU;BYHOUR="
    + ",".join(str(h) for h in range(24))
    + ";BYMINUTE="
    + ",".join(str(m) for m in range(0, 60, 2))
)


def utc(
    year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0
) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.UTC)


def local(instants: list[dt.datetime], zone: str) -> list[str]:
    return [i.astimezone(ZoneInfo(zone)).isoformat() for i in instants]


# New York: 14 March 2027 02:00 EST -> 03:00 EDT; 7 November 2027 02:00 EDT -> 01:00 EST.
# Berlin: 28 March 2027 02:00 CET -> 03:00 CEST; 31 October 2027 03:00 CEST -> 02:00 CET.
@pytest.mark.parametrize(
    ("kind", "expression"),
    [(CRON, "30 2 * * *"), (RRULE, "FREQ=DAILY;BYHOUR=2;BYMINUTE=30")],
)
def test_a_time_skipped_by_spring_forward_runs_once(kind: ScheduleKind, expression: str) -> None:
    rec = Recurrence(kind, expression, NEW_YORK, anchor=utc(2027, 1, 1))
    assert local(upcoming(rec, utc(2027, 3, 13), 3), NEW_YORK) == [
        "2027-03-13T02:30:00-05:00",
        "2027-03-14T03:30:00-04:00",  # 02:30 does not exist that day: once, an hour later
        "2027-03-15T02:30:00-04:00",
    ]


@pytest.mark.parametrize(
    ("kind", "expression"),
    [(CRON, "30 1 * * *"), (RRULE, "FREQ=DAILY;BYHOUR=1;BYMINUTE=30")],
)
def test_a_time_repeated_by_the_autumn_change_runs_once(
    kind: ScheduleKind, expression: str
) -> None:
    rec = Recurrence(kind, expression, NEW_YORK, anchor=utc(2027, 1, 1))
    assert local(upcoming(rec, utc(2027, 11, 6), 3), NEW_YORK) == [
        "2027-11-06T01:30:00-04:00",
        "2027-11-07T01:30:00-04:00",  # 01:30 happens twice that day: only the first
        "2027-11-08T01:30:00-05:00",
    ]
    # asked from between the two 01:30s, the second is not an occurrence either
    assert next_after(rec, utc(2027, 11, 7, 6, 0)) == utc(2027, 11, 8, 6, 30)


def test_berlin_both_changes_every_half_hour() -> None:
    rec = Recurrence(CRON, "*/30 1-3 * * *", BERLIN)
    spring = upcoming(rec, utc(2027, 3, 27, 23, 59), 5)
    assert local(spring, BERLIN) == [
        "2027-03-28T01:00:00+01:00",
        "2027-03-28T01:30:00+01:00",
        "2027-03-28T03:00:00+02:00",  # 02:00 and 03:00 are the same instant: once
        "2027-03-28T03:30:00+02:00",  # 02:30 and 03:30 are the same instant: once
        "2027-03-29T01:00:00+02:00",
    ]
    autumn = upcoming(rec, utc(2027, 10, 30, 22, 59), 7)
    assert local(autumn, BERLIN) == [
        "2027-10-31T01:00:00+02:00",
        "2027-10-31T01:30:00+02:00",
        "2027-10-31T02:00:00+02:00",  # the first 02:00 and 02:30 only
        "2027-10-31T02:30:00+02:00",
        "2027-10-31T03:00:00+01:00",
        "2027-10-31T03:30:00+01:00",
        "2027-11-01T01:00:00+01:00",
    ]
    assert spring == sorted(set(spring))
    assert autumn == sorted(set(autumn))


def test_weekdays_of_a_cron_line_and_an_rrule_agree_across_the_change() -> None:
    cron = Recurrence(CRON, "0 9 * * MON-FRI", NEW_YORK)
    rule = Recurrence(
        RRULE, "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9", NEW_YORK, anchor=utc(2027, 1, 4, 5)
    )
    start = utc(2027, 3, 10)
    assert upcoming(cron, start, 10) == upcoming(rule, start, 10)
    assert [i.strftime("%a %H:%M") for i in upcoming(cron, start, 4)] == [
        "Wed 14:00",
        "Thu 14:00",
        "Fri 14:00",
        "Mon 13:00",
    ]


def test_start_and_end_bound_the_occurrences() -> None:
    rec = Recurrence(
        CRON, "0 12 * * *", "UTC", start_at=utc(2027, 5, 3, 12), end_at=utc(2027, 5, 5, 12)
    )
    assert upcoming(rec, utc(2027, 1, 1), 10) == [
        utc(2027, 5, 3, 12),
        utc(2027, 5, 4, 12),
        utc(2027, 5, 5, 12),
    ]
    assert next_after(rec, utc(2027, 5, 5, 12)) is None


def test_an_rrule_starts_at_its_dtstart_else_start_at_else_the_anchor() -> None:
    every_other_week = "FREQ=WEEKLY;INTERVAL=2"
    anchored = Recurrence(RRULE, every_other_week, BERLIN, anchor=utc(2027, 1, 4, 8, 0, 30))
    assert local(upcoming(anchored, utc(2027, 1, 1), 2), BERLIN) == [
        "2027-01-04T09:00:00+01:00",  # to the minute
        "2027-01-18T09:00:00+01:00",
    ]
    started = Recurrence(RRULE, every_other_week, BERLIN, start_at=utc(2027, 1, 5, 8))
    assert local(upcoming(started, utc(2027, 1, 1), 1), BERLIN) == ["2027-01-05T09:00:00+01:00"]
    text = "DTSTART:20270106T070000\nRRULE:FREQ=WEEKLY;INTERVAL=2\nEXDATE:20270120T070000"
    explicit = Recurrence(RRULE, text, BERLIN, anchor=utc(2027, 1, 4))
    assert local(upcoming(explicit, utc(2027, 1, 1), 2), BERLIN) == [
        "2027-01-06T07:00:00+01:00",
        "2027-02-03T07:00:00+01:00",  # 20 January is excluded
    ]


@pytest.mark.parametrize(
    "expression",
    [
        "FREQ=MINUTELY;INTERVAL=7",
        "FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,20",
        "FREQ=DAILY;INTERVAL=3;BYHOUR=4,16",
        "FREQ=WEEKLY;INTERVAL=3;BYDAY=MO,FR;BYHOUR=9;BYSETPOS=-1",
        "FREQ=MONTHLY;INTERVAL=5;BYDAY=-1FR;BYHOUR=9",
        "FREQ=YEARLY;INTERVAL=2;BYMONTH=2,8;BYMONTHDAY=10",
        "RRULE:FREQ=DAILY;BYHOUR=6\nRRULE:FREQ=HOURLY;INTERVAL=13",
    ],
)
def test_rules_that_began_years_ago_give_what_dateutil_gives_and_quickly(expression: str) -> None:
    """DTSTART is moved forward by whole periods before iterating; the occurrences must be
    those of the rule as written."""
    began = utc(2025, 7, 13, 10, 17).replace(tzinfo=None)
    rec = Recurrence(RRULE, expression, "UTC", anchor=began.replace(tzinfo=dt.UTC))
    after = utc(2027, 6, 1, 3, 4).replace(tzinfo=None)
    expected = list(rrulestr(expression, dtstart=began.replace(second=0)).xafter(after, count=5))
    started = time.perf_counter()
    found = upcoming(rec, after.replace(tzinfo=dt.UTC), 5)
    assert time.perf_counter() - started < 0.5
    assert found == [when.replace(tzinfo=dt.UTC) for when in expected]


def test_check_returns_the_next_occurrence_and_enforces_the_minimum_interval() -> None:
    now = utc(2027, 6, 1, 12, 0, 5)
    minutely = Recurrence(CRON, "* * * * *", "UTC")
    assert check(minutely, now, min_interval=MINUTE) == utc(2027, 6, 1, 12, 1)
    with pytest.raises(InvalidInput) as refused:
        check(minutely, now, min_interval=2 * MINUTE)
    assert refused.value.field == "expression"
    assert "at least 120 s" in refused.value.reason
    every_2s = Recurrence(RRULE, "FREQ=SECONDLY;INTERVAL=2", "UTC", anchor=now)
    with pytest.raises(InvalidInput, match="2 s apart"):
        check(every_2s, now, min_interval=MINUTE)
    assert check(every_2s, now, min_interval=dt.timedelta(seconds=1)) == utc(2027, 6, 1, 12, 0, 6)


@pytest.mark.parametrize(
    ("rec", "field", "cause"),
    [
        (Recurrence(CRON, "0 0 31 2 *", "UTC"), "expression", "never fire"),
        (Recurrence(CRON, "0 0 * * * 0", "UTC"), "expression", "5 fields"),
        (Recurrence(CRON, "H * * * *", "UTC"), "expression", "not a valid cron"),
        (Recurrence(CRON, "* * * * *", "Europe/Atlantis"), "timezone", "IANA"),
        (Recurrence(CRON, "* * * * *", "posixrules"), "timezone", "IANA"),
        (
            Recurrence(RRULE, "FREQ=DAILY;COUNT=2", "UTC", anchor=utc(2020, 1, 1)),
            "expression",
            "never fire",
        ),
        (
            Recurrence(RRULE, "FREQ=DAILY;UNTIL=20200101T000000", "UTC", anchor=utc(2019, 1, 1)),
            "expression",
            "never fire",
        ),
        (
            Recurrence(
                RRULE,
                "DTSTART;TZID=Europe/Berlin:20270101T090000\nRRULE:FREQ=DAILY",
                "UTC",
                anchor=utc(2027, 1, 1),
            ),
            "expression",
            "without TZID",
        ),
        (
            Recurrence(
                RRULE, "DTSTART:20270101T090000Z\nRRULE:FREQ=DAILY", "UTC", anchor=utc(2027, 1, 1)
            ),
            "expression",
            "without TZID",
        ),
        (
            Recurrence(
                RRULE,
                "FREQ=DAILY\nEXDATE;TZID=Europe/Berlin:20270104T090000",
                "UTC",
                anchor=utc(2027, 1, 1),
            ),
            "expression",
            "without TZID",
        ),
        (
            Recurrence(RRULE, "FREQ=DAILY;UNTIL=20300101T000000Z", "UTC", anchor=utc(2027, 1, 1)),
            "expression",
            "RFC 5545",
        ),
        (
            Recurrence(RRULE, "FREQ=DAILY;BYHOUR=24", "UTC", anchor=utc(2027, 1, 1)),
            "expression",
            "RFC 5545",
        ),
        (
            Recurrence(RRULE, DENSE_YEARLY, "UTC", anchor=utc(2027, 1, 1)),
            "expression",
            "takes too long",
        ),
        (
            Recurrence(CRON, "* * * * *", "UTC", start_at=utc(2027, 2, 1), end_at=utc(2027, 1, 1)),
            "end_at",
            "after start_at",
        ),
        (Recurrence(CRON, "* * * * *", "UTC", end_at=utc(2027, 1, 1)), "end_at", "past"),
    ],
)
def test_refused(rec: Recurrence, field: str, cause: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        check(rec, utc(2027, 11, 30), min_interval=MINUTE)
    assert refused.value.field == field
    assert cause in refused.value.reason
