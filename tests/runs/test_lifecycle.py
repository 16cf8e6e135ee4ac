"""``lifecycle.transition`` is a compare-and-set: of two racing writers exactly one wins."""

from __future__ import annotations

import pytest
from sqlalchemy import update
from support.builders import Workbench, inserted_run

from steward.projects.models import Project
from steward.runs import lifecycle
from steward.runs.lifecycle import WorkerId
from steward.runs.models import Run
from steward.runs.status import Reason, RunStatus

# PostgreSQL too: transitions are compare-and-set statements racing on connections
pytestmark = pytest.mark.both_databases


def test_claims_cancels_and_finishes_race_safely(workbench: Workbench) -> None:
    limited = workbench.client.patch(
        f"/api/v1/projects/{workbench.project_id}", json={"max_parallel_runs": 1}
    )
    assert limited.status_code == 200
    blocker = workbench.launch(workbench.template("slow.yml"))
    queued = workbench.launch(workbench.template("ok.yml"))["id"]
    workbench.wait(blocker["id"], until=lambda r: r["status"] == "running", timeout=30)
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    one, other = WorkerId("host-a", 1, "x"), WorkerId("host-b", 2, "y")
    unlimited = lifecycle.Limits(total=None, project_default=4)
    with runtime.sessions() as session:
        session.execute(update(Project).values(max_parallel_runs=None))
        assert lifecycle.claim_next(session, one, unlimited) == queued
        assert lifecycle.claim_next(session, other, unlimited) is None  # a duplicate delivery
        # a cancel that lost the race to the claim changes nothing
        queued_status = RunStatus.QUEUED
        assert not lifecycle.transition(session, queued, RunStatus.CANCELED, current=queued_status)
        assert lifecycle.transition(session, queued, RunStatus.FAILED, reason="first", rc=2)
        assert not lifecycle.transition(session, queued, RunStatus.ERROR, reason=Reason.INTERRUPTED)
        session.commit()
        run = session.get_one(Run, queued)
        assert (run.status, run.status_reason, run.rc) == ("failed", "first", 2)
        assert run.worker_id == str(one)
        with pytest.raises(ValueError, match="cannot go from successful to running"):
            lifecycle.transition(session, queued, RunStatus.RUNNING, current=RunStatus.SUCCESSFUL)
        assert run.started_at is not None
        assert run.finished_at is not None
    workbench.client.post(workbench.url(f"runs/{blocker['id']}/cancel"))
    assert workbench.wait(blocker["id"])["status"] == "canceled"


def test_the_id_of_a_removed_run_is_never_given_to_a_new_one(workbench: Workbench) -> None:
    """SQLite reuses the highest rowid once its row is gone unless the table is AUTOINCREMENT:
    a link, a message or an audit record naming run N would then show another run."""
    template = workbench.template("ok.yml")
    sessions = workbench.client.app.state.runtime.sessions  # type: ignore[attr-defined]
    with sessions() as session:
        newest = inserted_run(workbench.project_id, template, RunStatus.SUCCESSFUL)
        session.add(newest)
        session.commit()
        removed = newest.id
        session.delete(newest)
        session.commit()
        after = inserted_run(workbench.project_id, template, RunStatus.SUCCESSFUL)
        session.add(after)
        session.commit()
        assert after.id > removed
