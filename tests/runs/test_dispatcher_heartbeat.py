"""The embedded dispatcher's heartbeat (reap expired leases, renew its presence, sweep) runs on
its timer, not on every wake: a submit or a run's end only dispatches. Each beat is a write;
on every launch it made the launch wait for the database behind it."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import event

from steward.config import Settings
from steward.dispatch.local import LocalDispatcher
from steward.runtime import Runtime

pytestmark = pytest.mark.sqlite_only  # the dispatcher's timing, not the database


def _beats_while_woken(settings: Settings, heartbeat: float) -> int:
    """How many times the dispatcher renews its presence while it is woken 20 times in 1.5 s,
    once its first beat (at start) is done."""
    runtime = Runtime.build(
        settings.model_copy(update={"heartbeat_seconds": heartbeat, "lease_seconds": 7200})
    )
    beats: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith("UPDATE WORKERS SET LAST_SEEN"):
            beats.append(statement)

    event.listen(runtime.engine, "before_cursor_execute", count)
    dispatcher = LocalDispatcher(runtime)
    dispatcher.start()
    try:
        deadline = time.monotonic() + 30
        while not beats:  # its first beat, at start
            assert time.monotonic() < deadline, "the dispatcher never beat at start"
            time.sleep(0.02)
        before = len(beats)
        for _ in range(20):
            dispatcher.submit(0)  # as a launch does
            time.sleep(0.075)
        return len(beats) - before
    finally:
        dispatcher.stop()
        runtime.engine.dispose()


def test_a_submit_does_not_beat(settings: Settings) -> None:
    assert _beats_while_woken(settings, heartbeat=3600) == 0


def test_the_timer_beats(settings: Settings) -> None:
    """The control: the same wakes with a short heartbeat do renew it."""
    assert _beats_while_woken(settings, heartbeat=0.2) >= 2
