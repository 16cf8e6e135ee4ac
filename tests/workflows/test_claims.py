"""Passes are claimed: the tickers of several servers passing the same marked workflow run at
the same moment make one pass, and launch each node once."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select, text, update
from support.builders import Workbench
from support.waits import wait_until
from support.workflows import Workflows, approval_node, edge, nodes, template_node

from steward.config import Settings
from steward.db import utcnow
from steward.runs.models import Run
from steward.workflows import progress
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


def test_a_pass_whose_claim_waited_while_node_runs_started_keeps_the_lock_order(
    workbench: Workbench,
) -> None:
    """A ticker read the node runs under way (none) and waited for the workflow run, while
    the approval's pass launched one and a cancel was asked; it claims the workflow run, and
    the cancel's own pass, which locked that run first, waits for the workflow run. The
    ticker must not lock the run now (PostgreSQL would fail one of the two as a deadlock: the
    cancel request's answer a 500): it gives its claim up, and both end."""
    client: TestClient = workbench.client
    runtime, queue = client.app.state.runtime, client.app.state.queue  # type: ignore[attr-defined]
    if runtime.engine.dialect.name != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite serializes writers")
    ok = workbench.template("ok.yml", name="ok")
    slow = workbench.template("slow.yml", name="slow")  # still running when it is canceled
    flows = Workflows(client, workbench.project_id)
    wf = flows.create(
        [approval_node("gate"), template_node("next", slow), template_node("last", ok)],
        [edge("gate", "next"), edge("next", "last")],
    )
    wrun = flows.launch(wf["id"])["id"]
    this_run = WorkflowRun.id == wrun
    with runtime.sessions() as session:  # approved, as `decide` writes it
        session.execute(update(WorkflowRun).where(this_run).values(needs_pass=True))
        session.execute(
            update(WorkflowNodeRun)
            .where(WorkflowNodeRun.workflow_run_id == wrun, WorkflowNodeRun.key == "gate")
            .values(status=NodeStatus.SUCCESSFUL, reason="approved")
        )
        session.commit()

    def waiting(count: int) -> None:
        def enough() -> bool:
            with runtime.engine.connect() as conn:
                return bool(conn.scalar(text(WAITERS)) == count)

        wait_until(enough, timeout=20, interval=0.02, what=f"{count} waiting for the workflow run")

    failures: list[Exception] = []

    def guarded(work: Callable[[], object], name: str = "") -> threading.Thread:
        def run() -> None:
            try:
                work()
            except Exception as exc:  # noqa: BLE001 - reported below, in the test's thread
                failures.append(exc)

        thread = threading.Thread(target=run, name=name or None)
        thread.start()
        return thread

    def a_pass() -> None:
        with runtime.sessions() as session:
            progress.run_pass(session, runtime.cipher, queue, wrun, utcnow())

    commit_cancel, claimed, go_on = threading.Event(), threading.Event(), threading.Event()

    def cancel_asked() -> None:  # as `cancel` marks the workflow run
        with runtime.sessions() as session:
            session.execute(
                update(WorkflowRun)
                .where(this_run)
                .values(cancel_requested_at=utcnow(), needs_pass=True)
            )
            commit_cancel.wait(30)
            session.commit()

    def pause_after_the_claim(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        """The ticker's transaction, just after its claim: where the cancel's pass comes in."""
        ours = threading.current_thread().name == "ticker"
        if ours and statement.startswith("UPDATE workflow_runs SET needs_pass"):
            claimed.set()
            go_on.wait(30)

    event.listen(runtime.engine, "after_cursor_execute", pause_after_the_claim)
    try:
        approving = runtime.sessions()  # the approval's pass: claimed, launching "next"
        approving.execute(update(WorkflowRun).where(this_run).values(needs_pass=False))
        progress.advance(approving, runtime.cipher, queue, wrun, utcnow())
        approving.flush()
        threads = [guarded(cancel_asked)]
        waiting(1)
        threads.append(guarded(a_pass, "ticker"))  # reads no node run under way, then waits
        waiting(2)
        approving.commit()  # "next" is launched; the cancel holds the workflow run
        approving.close()
        waiting(1)
        commit_cancel.set()  # the ticker claims the workflow run (and pauses)
        assert claimed.wait(30)
        threads.append(guarded(a_pass))  # the cancel's pass: locks "next", then waits
        waiting(1)
        go_on.set()
        for thread in threads:
            thread.join(60)
    finally:
        go_on.set()
        event.remove(runtime.engine, "after_cursor_execute", pause_after_the_claim)
    assert not failures, failures
    ticker = WorkflowTicker(runtime, queue)  # the app's ticks once at its start (settings)

    def ended() -> bool:
        ticker.tick()
        return bool(flows.read(wrun)["status"] != "running")

    wait_until(ended, timeout=60, interval=0.2, what="the workflow run's end")
    done = flows.read(wrun)
    assert done["status"] == "canceled", done
    assert {k: n["status"] for k, n in nodes(done).items()} == {
        "gate": "successful",
        "next": "canceled",
        "last": "canceled",
    }


# the connections to this test's database waiting to lock the workflow run
WAITERS = (
    "select count(*) from pg_stat_activity where datname = current_database()"
    " and wait_event_type = 'Lock' and query ilike 'update workflow_runs%'"
)
