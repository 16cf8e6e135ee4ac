"""The claim itself, raced: two schedulers (each with its own engine, as two processes have)
read the same due occurrences and fire all of them at the same moment, on real connections
with real commits. Each occurrence is launched by exactly one of them."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from support.builders import Workbench
from support.schedules import make_due, make_schedule

from steward.config import Settings
from steward.db import utcnow
from steward.runs.models import Run
from steward.runtime import Runtime
from steward.schedules import firing

# PostgreSQL too: two schedulers racing on real connections
pytestmark = pytest.mark.both_databases


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The app's own scheduler ticks at start, then not again during the test."""
    return settings.model_copy(update={"scheduler_tick_seconds": 300})


class Nowhere:
    """A run queue that delivers nowhere: the runs stay queued (only the launch is raced)."""

    def submit(self, run_id: int) -> None:
        pass

    def cancel(self, run_id: int) -> None:
        pass


def test_two_schedulers_firing_the_same_occurrences_launch_each_once(
    workbench: Workbench, settings: Settings
) -> None:
    template = workbench.template("ok.yml")
    made = [
        make_schedule(workbench.client, workbench.project_id, template, name=f"s{n}")["id"]
        for n in range(40)
    ]
    make_due(settings.database_url, *made)
    runtimes = [Runtime.build(settings) for _ in range(2)]
    now = utcnow()
    with runtimes[0].sessions() as session:  # both act on the same read of the due rows
        rows = firing.due(session, now, after_id=0, limit=100)
    assert [row.id for row in rows] == made
    plans = [firing.plan(row, now, late_after=firing.LATE_AFTER) for row in rows]
    start = threading.Barrier(2)
    launched: list[list[int]] = [[], []]

    def fire(n: int) -> None:
        """In batches, as the scheduler does: one from the first batch on, the other from the
        last (each batch in id order, as every scheduler locks them), so they meet."""
        batches = list(range(0, len(plans), 10))
        start.wait()
        for first in batches if n == 0 else batches[::-1]:
            with runtimes[n].sessions() as session:
                launched[n] += firing.fire(
                    session, runtimes[n].cipher, Nowhere(), plans[first : first + 10], now
                )

    threads = [threading.Thread(target=fire, args=(n,)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for runtime in runtimes:
        runtime.engine.dispose()

    assert len(launched[0]) + len(launched[1]) == len(made)
    assert set(launched[0]).isdisjoint(launched[1])
    client: TestClient = workbench.client
    with client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        per_schedule = dict(
            session.execute(select(Run.schedule_id, func.count()).group_by(Run.schedule_id)).all()
        )
    assert per_schedule == dict.fromkeys(made, 1)
