"""The window maths, pure: where a moment stands against a window (inside an occurrence, end
exclusive, or before the next), on the window's wall clock across DST changes."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from steward.errors import InvalidInput
from steward.freezes import windows
from steward.freezes.windows import Window

UTC = dt.UTC


def at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text).astimezone(UTC)


def local(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


YEAR_END = Window(local("2026-12-20T00:00"), local("2027-01-03T00:00"), "Europe/Berlin")


def test_a_one_off_window_holds_from_its_start_to_its_end_exclusive() -> None:
    start, end = at("2026-12-20T00:00+01:00"), at("2027-01-03T00:00+01:00")
    before = windows.standing(YEAR_END, start - dt.timedelta(seconds=1))
    assert before.active is None
    assert before.coming == windows.Occurrence(start, end)
    assert windows.standing(YEAR_END, start).active == windows.Occurrence(start, end)
    last = windows.standing(YEAR_END, end - dt.timedelta(microseconds=1))
    assert last.active == windows.Occurrence(start, end)
    after = windows.standing(YEAR_END, end)  # the end is exclusive
    assert (after.active, after.coming) == (None, None)


def test_a_yearly_rule_repeats_the_span_in_the_windows_zone() -> None:
    yearly = Window(
        local("2026-12-20T00:00"),
        local("2027-01-03T00:00"),
        "Europe/Berlin",
        "RRULE:FREQ=YEARLY",
    )
    now = at("2027-06-01T12:00+00:00")
    where = windows.standing(yearly, now)
    assert where.active is None
    assert where.coming == windows.Occurrence(
        at("2027-12-20T00:00+01:00"), at("2028-01-03T00:00+01:00")
    )
    inside = windows.standing(yearly, at("2028-01-02T23:59+01:00"))
    assert inside.active is not None
    assert inside.active.ends_at == at("2028-01-03T00:00+01:00")


def test_a_nightly_freeze_keeps_its_wall_clock_across_a_dst_change() -> None:
    # 18:00 to 08:00 Berlin time, every night: the night clocks go back (25 October 2026)
    # lasts 15 hours, and still ends at 08:00 local
    nightly = Window(
        local("2026-10-20T18:00"), local("2026-10-21T08:00"), "Europe/Berlin", "FREQ=DAILY"
    )
    night = windows.standing(nightly, at("2026-10-25T03:00+01:00")).active
    assert night == windows.Occurrence(at("2026-10-24T18:00+02:00"), at("2026-10-25T08:00+01:00"))
    assert night.ends_at - night.starts_at == dt.timedelta(hours=15)
    spring = windows.standing(nightly, at("2027-03-28T07:30+02:00")).active
    assert spring == windows.Occurrence(at("2027-03-27T18:00+01:00"), at("2027-03-28T08:00+02:00"))
    day = windows.standing(nightly, at("2026-10-25T08:00+01:00"))
    assert day.active is None  # 08:00 local: ended (exclusive)
    assert day.coming is not None
    assert day.coming.starts_at == at("2026-10-25T18:00+01:00")


def test_a_start_in_a_spring_forward_gap_moves_forward_by_the_gap_and_keeps_its_length() -> None:
    gap = Window(local("2027-03-28T02:30"), local("2027-03-28T04:00"), "Europe/Berlin")
    (found,) = list(windows.occurrences(gap, at("2027-03-27T00:00+00:00")))
    assert found.starts_at == at("2027-03-28T03:30+02:00")
    assert found.ends_at == at("2027-03-28T05:00+02:00")


def test_the_first_occurrence_is_the_span_even_when_the_rule_does_not_match_it() -> None:
    # starts on a Sunday; the rule repeats on Fridays: the Sunday counts, then each Friday
    fridays = Window(
        local("2026-11-29T00:00"), local("2026-11-29T06:00"), "UTC", "FREQ=WEEKLY;BYDAY=FR"
    )
    found = list(itertools.islice(windows.occurrences(fridays, at("2026-11-28T00:00+00:00")), 3))
    assert [o.starts_at.date().isoformat() for o in found] == [
        "2026-11-29",
        "2026-12-04",
        "2026-12-11",
    ]


@pytest.mark.parametrize(
    ("window", "field"),
    [
        (Window(local("2026-12-20T00:00"), local("2026-12-20T00:00"), "UTC"), "ends_local"),
        (Window(local("2026-01-01T00:00"), local("2027-06-01T00:00"), "UTC"), "ends_local"),
        (Window(local("2026-12-20T00:00"), local("2026-12-21T00:00"), "Mars/Olympus"), "timezone"),
        (
            Window(local("2026-12-20T00:00"), local("2026-12-21T00:00"), "UTC", "FREQ=HOURLY"),
            "rrule",
        ),
        (
            Window(
                local("2026-12-20T00:00"),
                local("2026-12-21T00:00"),
                "UTC",
                "DTSTART:20200101T000000\nRRULE:FREQ=YEARLY",
            ),
            "rrule",
        ),
        (
            Window(local("2026-12-20T00:00"), local("2026-12-21T00:00"), "UTC", "FREQ=NEVER"),
            "rrule",
        ),
    ],
    ids=["empty-span", "over-a-year", "unknown-zone", "overlapping", "dtstart", "not-a-rule"],
)
def test_a_window_that_cannot_hold_is_refused_naming_the_field(window: Window, field: str) -> None:
    with pytest.raises(InvalidInput) as refused:
        windows.check(window, at("2026-11-28T12:00+00:00"))
    assert refused.value.field == field


def test_a_valid_window_is_accepted() -> None:  # the control of the refusals above
    windows.check(YEAR_END, at("2026-11-28T12:00+00:00"))
    daily = Window(local("2026-12-20T18:00"), local("2026-12-21T08:00"), "UTC", "FREQ=DAILY")
    windows.check(daily, at("2026-11-28T12:00+00:00"))
