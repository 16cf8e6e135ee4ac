"""An off schedule shows no next runs: it launches nothing until it is turned on again,
whether a person turned it off or Steward did (with the reason). The preview is a function of
the schedule's row alone, so the rows here are never stored."""

from __future__ import annotations

import datetime as dt

from steward.schedules import service
from steward.schedules.models import Schedule
from steward.schedules.schemas import PreviewParams


def _schedule(*, enabled: bool, disabled_reason: str = "") -> Schedule:
    return Schedule(
        name="nightly",
        kind="cron",
        expression="15 2 * * *",
        timezone="Europe/Berlin",
        enabled=enabled,
        disabled_reason=disabled_reason,
        created_at=dt.datetime(2026, 1, 1, tzinfo=dt.UTC),
    )


def test_an_off_schedule_lists_no_next_runs() -> None:
    params = PreviewParams(count=5, viewer_tz="UTC")
    on = service.preview(_schedule(enabled=True), params)
    # the control: the same recurrence, on, has its next runs
    assert on.enabled is True
    assert len(on.items) == 5

    for off in (
        _schedule(enabled=False),
        _schedule(enabled=False, disabled_reason="its template was deleted"),
    ):
        answer = service.preview(off, params)
        assert answer.enabled is False
        assert answer.items == []
        assert answer.timezone == "Europe/Berlin"  # still says which zone it would run in
