"""Passes are claimed: the tickers of several servers passing the same marked workflow run at
the same moment make one pass, and launch each node once."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from support.builders import Workbench
from support.waits import wait_until
from support.workflows import Workflows, approval_node, edge, nodes, template_node

from steward.config import Settings
from steward.runs.models import Run
from steward.workflows.models import NodeStatus, WorkflowNodeRun, WorkflowRun
from steward.workflows.ticker import WorkflowTicker

# PostgreSQL too: passes claimed by racing tickers
pytestmark = pytest.mark.both_databases


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """The app's own ticker ticks once at its start, then not during the test: the test's
    tickers are the only ones."""
    return settings.model_copy(update={"workflow_tick_seconds": 300})


def test_tickers_of_several_servers_launch_a_node_once(workbench: Workbench) -> None:
    client: TestClient = workbench.client
    app = client.app
    runtime, queue = app.state.runtime, app.state.queue  # type: ignore[attr-defined]
    ok = workbench.template("ok.yml", name="ok")
    flows = Workflows(client, workbench.project_id)
    wf = flows.create(
        [approval_node("gate"), template_node("a", ok), template_node("b", ok)],
        [edge("gate", "a"), edge("gate", "b")],
    )
    tickers = [WorkflowTicker(runtime, queue) for _ in range(4)]
    wrun = flows.launch(wf["id"])["id"]
    # a decision written as another server writes it, with its mark, and no pass yet
    with runtime.sessions() as session:
        session.execute(update(WorkflowRun).where(WorkflowRun.id == wrun).values(needs_pass=True))
        session.execute(
            update(WorkflowNodeRun)
            .where(WorkflowNodeRun.workflow_run_id == wrun, WorkflowNodeRun.key == "gate")
            .values(status=NodeStatus.SUCCESSFUL, reason="approved elsewhere")
        )
        session.commit()
    barrier = threading.Barrier(len(tickers))
    passed: list[int] = []

    def tick(ticker: WorkflowTicker) -> None:
        barrier.wait()
        passed.append(ticker.tick())

    threads = [threading.Thread(target=tick, args=(t,)) for t in tickers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(passed) == [0, 0, 0, 1]  # one claimed the pass, the others found none
    read = flows.read(wrun)
    assert {nodes(read)[k]["status"] for k in "ab"} == {"running"}

    # the node runs' ends mark the workflow run; the next ticks end it
    def ended() -> bool:
        for ticker in tickers:
            ticker.tick()
        return bool(flows.read(wrun)["status"] != "running")

    wait_until(ended, timeout=60, interval=0.2, what="the workflow run's end")
    done = flows.read(wrun)
    assert done["status"] == "successful", done
    with runtime.sessions() as session:
        launched = session.scalar(
            select(func.count()).select_from(Run).where(Run.workflow_run_id == wrun)
        )
    assert launched == 2
