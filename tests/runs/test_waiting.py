"""``waiting.reasons``: why each queued run of a page waits, from the claim's own conditions."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session
from support.builders import inserted_run

from steward.config import Settings
from steward.dispatch import presence
from steward.projects.models import Project
from steward.runner_groups.models import EVERY_GROUP, RunnerGroup
from steward.runs import waiting
from steward.runs.lifecycle import WorkerId
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.runtime import Runtime

# PostgreSQL too: the claim's conditions read back as queries
pytestmark = pytest.mark.both_databases


def _run(session: Session, project: Project, status: RunStatus, group: str = "default") -> Run:
    run = inserted_run(project.id, None, status)
    run.runner_group = group
    session.add(run)
    session.flush()
    return run


def test_each_queued_run_says_why_it_waits(settings: Settings) -> None:
    settings = settings.model_copy(update={"global_parallel_runs": 3})
    runtime = Runtime.build(settings)
    try:
        _check(runtime, settings)
    finally:
        runtime.engine.dispose()


def _check(runtime: Runtime, settings: Settings) -> None:
    with runtime.sessions() as session:
        full = Project(name="full", max_parallel_runs=1)
        free = Project(name="free")
        session.add_all([full, free, RunnerGroup(name="edge", max_parallel_runs=1)])
        session.flush()
        presence.register(session, WorkerId("w1", 1, "a"), ["default", "edge"], 2)
        _run(session, full, RunStatus.RUNNING)
        _run(session, free, RunStatus.RUNNING, "edge")
        no_worker = _run(session, free, RunStatus.QUEUED, "dmz")
        project_full = _run(session, full, RunStatus.QUEUED)
        group_full = _run(session, free, RunStatus.QUEUED, "edge")
        busy = _run(session, free, RunStatus.QUEUED)
        done = _run(session, free, RunStatus.SUCCESSFUL)
        runs = [no_worker, project_full, group_full, busy, done]

        why = waiting.reasons(session, runs, settings)
        assert why == {
            no_worker.id: "no worker of runner group 'dmz' is online",
            project_full.id: "project limit reached (1 of 1 runs running)",
            group_full.id: "runner group 'edge' limit reached (1 of 1 running)",
            busy.id: "waiting for a worker to claim it (older runs first)",
        }
        _run(session, free, RunStatus.RUNNING)
        assert waiting.reasons(session, [busy], settings)[busy.id] == (
            "global limit reached (3 of 3 runs running)"
        )
        # the embedded dispatcher serves every group, with its own slots
        presence.register(session, WorkerId("srv", 2, "b"), [EVERY_GROUP], 3)
        unlimited = settings.model_copy(update={"global_parallel_runs": None})
        assert waiting.reasons(session, [no_worker], unlimited)[no_worker.id] == (
            "every worker of runner group 'dmz' is busy (3 of 3 slots)"
        )
