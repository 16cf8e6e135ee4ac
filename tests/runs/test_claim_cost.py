"""What a claim costs behind a backlog (issue 29: every launch behind a full limit wakes a
dispatcher to find that nothing fits): the limits are counted over the running runs once,
never once per queued run, and finding nothing takes no write."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import func, select, text, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.orm import Session, aliased
from support.builders import inserted_run
from support.services import counted

from steward.config import Settings
from steward.projects.models import Project
from steward.runs import lifecycle
from steward.runs.lifecycle import Limits, WorkerId
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.runtime import Runtime

LIMITS = Limits(total=10, project_default=2)


@pytest.fixture
def runtime(settings: Settings) -> Iterator[Runtime]:
    built = Runtime.build(settings)
    yield built
    built.engine.dispose()


def _backlog(session: Session, queued: int) -> int:
    """A project whose one slot is taken, with ``queued`` runs behind it; its id."""
    project = Project(name="busy", max_parallel_runs=1)
    session.add(project)
    session.flush()
    session.add(inserted_run(project.id, None, RunStatus.RUNNING))
    for _ in range(queued):
        run = inserted_run(project.id, None, RunStatus.QUEUED)
        run.started_at = None
        session.add(run)
    session.commit()
    return project.id


def _plan(session: Session, statement: str) -> list[str]:
    return [row[3] for row in session.execute(text("EXPLAIN QUERY PLAN " + statement))]


def _sql(statement: object) -> str:
    compiled = statement.compile(  # type: ignore[attr-defined]
        dialect=sqlite.dialect(), compile_kwargs={"literal_binds": True}
    )
    return str(compiled)


@pytest.mark.sqlite_only  # the plan is SQLite's words
def test_the_limits_are_counted_once_not_per_queued_run(runtime: Runtime) -> None:
    with runtime.sessions() as session:
        _backlog(session, 3)
        candidate, params = lifecycle.claimable(LIMITS, ["default"])
        plan = _plan(session, _sql(candidate.params(params)))
        assert any("LIST SUBQUERY" in step for step in plan), plan
        assert not any("CORRELATED" in step for step in plan), plan
        # control: a limit counted per queued run (as claims did before) is told apart
        other = aliased(Run)
        per_run = (
            select(other.id)
            .where(other.status == RunStatus.QUEUED)
            .where(
                select(func.count())
                .select_from(Run)
                .where(Run.status == RunStatus.RUNNING, Run.project_id == other.project_id)
                .scalar_subquery()
                < 2
            )
        )
        assert any("CORRELATED" in step for step in _plan(session, _sql(per_run)))


@pytest.mark.both_databases
def test_a_claim_that_finds_nothing_to_start_writes_nothing(runtime: Runtime) -> None:
    with runtime.sessions() as session:
        project_id = _backlog(session, 20)
        with counted(session) as statements:
            assert lifecycle.claim_next(session, WorkerId.current(), LIMITS) is None
        assert len(statements) == 1, statements
        assert statements[0].lstrip().upper().startswith("SELECT")
        # control: with the slot free, the same claim starts the oldest queued run
        session.execute(
            update(Run)
            .where(Run.project_id == project_id, Run.status == RunStatus.RUNNING)
            .values(status=RunStatus.SUCCESSFUL)
        )
        session.commit()
        oldest = session.scalar(select(func.min(Run.id)).where(Run.status == RunStatus.QUEUED))
        assert lifecycle.claim_next(session, WorkerId.current(), LIMITS) == oldest
