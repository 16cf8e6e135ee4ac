"""``lifecycle.claim_next``: limits are counted in the claiming statement, so claims racing on
several connections never start more runs than a limit allows (SQLite and PostgreSQL)."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select, update
from support.builders import inserted_run

from steward.config import Settings
from steward.projects.models import Project
from steward.runner_groups.models import RunnerGroup
from steward.runs import lifecycle
from steward.runs.lifecycle import Limits, WorkerId
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.runtime import Runtime

# PostgreSQL too: claims counted in the claiming statement, SKIP LOCKED on PostgreSQL
pytestmark = pytest.mark.both_databases

CLAIMERS = 8


@pytest.fixture
def runtime(settings: Settings) -> Iterator[Runtime]:
    built = Runtime.build(settings)
    yield built
    built.engine.dispose()


def _world(runtime: Runtime) -> tuple[int, int]:
    """Two projects (limits 2 and 3), 12 queued runs each, half of them in group 'dmz' (limit
    1 for runs of both projects)."""
    with runtime.sessions() as session:
        first = Project(name="first", max_parallel_runs=2)
        second = Project(name="second", max_parallel_runs=3)
        session.add_all([first, second, RunnerGroup(name="dmz", max_parallel_runs=1)])
        session.flush()
        for i in range(24):
            project = first if i % 2 else second
            run = inserted_run(project.id, None, RunStatus.QUEUED)
            run.started_at = None
            run.runner_group = "dmz" if i % 4 < 2 else "default"
            session.add(run)
        session.commit()
        return first.id, second.id


def _race(runtime: Runtime, limits: Limits, queues: list[str] | None) -> list[int]:
    """Every claimer claims until nothing fits, all starting at once; the ids claimed."""
    start = threading.Barrier(CLAIMERS)
    claimed: list[int] = []
    lock = threading.Lock()

    def claimer(n: int) -> None:
        me = WorkerId("host", 1000 + n, "boot")
        start.wait()
        while True:
            with runtime.sessions() as session:
                run_id = lifecycle.claim_next(session, me, limits, queues)
            if run_id is None:
                return
            with lock:
                claimed.append(run_id)

    threads = [threading.Thread(target=claimer, args=(n,)) for n in range(CLAIMERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return claimed


def _running(runtime: Runtime) -> Counter[tuple[int, str]]:
    with runtime.sessions() as session:
        rows = session.execute(
            select(Run.project_id, Run.runner_group, func.count())
            .where(Run.status == RunStatus.RUNNING)
            .group_by(Run.project_id, Run.runner_group)
        ).all()
    return Counter({(p, g): n for p, g, n in rows})


def test_racing_claims_respect_project_and_group_limits(runtime: Runtime) -> None:
    first, second = _world(runtime)
    claimed = _race(runtime, Limits(total=None, project_default=4), None)

    running = _running(runtime)
    assert len(claimed) == len(set(claimed)) == sum(running.values())
    assert running[(first, "default")] + running[(first, "dmz")] == 2
    assert running[(second, "default")] + running[(second, "dmz")] == 3
    assert running[(first, "dmz")] + running[(second, "dmz")] == 1
    # the oldest fitting runs were taken first
    with runtime.sessions() as session:
        oldest = session.scalar(select(func.min(Run.id)))
    assert oldest in claimed


def test_racing_claims_respect_the_global_limit_and_the_worker_queues(runtime: Runtime) -> None:
    _world(runtime)
    with runtime.sessions() as session:
        session.execute(update(Project).values(max_parallel_runs=None))
        session.commit()
    claimed = _race(runtime, Limits(total=3, project_default=100), ["default"])

    running = _running(runtime)
    assert len(claimed) == 3 == sum(running.values())
    assert {group for _, group in running} == {"default"}
    # a duplicate delivery once everything that fits runs: nothing more is claimed
    with runtime.sessions() as session:
        again = lifecycle.claim_next(session, WorkerId("h", 1, "b"), Limits(3, 100), ["default"])
    assert again is None


def test_a_cancel_that_wins_the_race_is_never_claimed(runtime: Runtime) -> None:
    _world(runtime)
    with runtime.sessions() as session:
        everything = list(session.scalars(select(Run.id).order_by(Run.id)))
        for run_id in everything:
            assert lifecycle.transition(session, run_id, RunStatus.CANCELED)
        session.commit()
        limits = Limits(total=None, project_default=100)
        assert lifecycle.claim_next(session, WorkerId("h", 1, "b"), limits) is None
        statuses = set(session.scalars(select(Run.status)))
    assert statuses == {RunStatus.CANCELED}
