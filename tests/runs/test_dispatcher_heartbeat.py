"""The embedded dispatcher's heartbeat (reap expired leases, renew its presence, sweep) runs on
its timer, not on every wake: a submit or a run's end only dispatches. Each beat is a write;
on every launch it made the launch wait for the database behind it."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from sqlalchemy import select

from steward.config import Settings
from steward.dispatch.local import LocalDispatcher
from steward.runner_groups.models import Worker
from steward.runtime import Runtime

pytestmark = pytest.mark.sqlite_only  # the dispatcher's timing, not the database


def _last_seen(runtime: Runtime, dispatcher: LocalDispatcher) -> dt.datetime:
    with runtime.sessions() as session:
        seen = session.scalar(select(Worker.last_seen).where(Worker.id == str(dispatcher.worker)))
    assert seen is not None
    return seen


def _beats_while_woken(settings: Settings, heartbeat: float) -> bool:
    """Whether the dispatcher's presence is renewed while it is woken 20 times in 1.5 s."""
    runtime = Runtime.build(settings.model_copy(update={"heartbeat_seconds": heartbeat}))
    dispatcher = LocalDispatcher(runtime)
    dispatcher.start()
    try:
        time.sleep(0.3)  # its first beat, at start, is done
        before = _last_seen(runtime, dispatcher)
        for _ in range(20):
            dispatcher.submit(0)  # as a launch does
            time.sleep(0.075)
        return _last_seen(runtime, dispatcher) > before
    finally:
        dispatcher.stop()
        runtime.engine.dispose()


def test_a_submit_does_not_beat(settings: Settings) -> None:
    assert not _beats_while_woken(settings, heartbeat=3600)


def test_the_timer_beats(settings: Settings) -> None:
    """The control: the same wakes with a short heartbeat do renew it."""
    assert _beats_while_woken(settings, heartbeat=0.2)
