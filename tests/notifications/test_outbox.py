"""The outbox at the status change itself (``lifecycle.transition`` on runs inserted as a
scheduler would leave them): which subscriptions it matches, what it costs in queries, and the
launcher a schedule's run is told with."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support.builders import Workbench, inserted_run
from support.notifications import HttpReceiver, subscribe, webhook_destination
from support.services import counted

from steward.auth.models import User
from steward.db import utcnow
from steward.notifications.models import Message
from steward.runs import lifecycle
from steward.runs.status import RunStatus
from steward.runtime import Runtime
from steward.schedules.models import Schedule

# PostgreSQL too: the outbox written inside the transition's transaction
pytestmark = [pytest.mark.both_databases, pytest.mark.loops("notifier")]


def runtime_of(workbench: Workbench) -> Runtime:
    runtime: Runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    return runtime


def running_run(session: Session, workbench: Workbench, template_id: int, **columns: Any) -> int:
    """A run running elsewhere (never reaped, never executed here)."""
    admin = session.scalar(select(User.id).where(User.username == "admin"))
    run = inserted_run(
        workbench.project_id,
        template_id,
        RunStatus.RUNNING,
        worker_id="elsewhere:1:1",
        heartbeat_at=utcnow().replace(year=utcnow().year + 1),
        launched_by_id=admin,
        **columns,
    )
    session.add(run)
    session.commit()
    return run.id


def schedule(session: Session, workbench: Workbench, template_id: int, name: str) -> int:
    row = Schedule(
        project_id=workbench.project_id,
        name=name,
        template_id=template_id,
        kind="cron",
        expression="0 3 * * *",
        enabled=False,
    )
    session.add(row)
    session.commit()
    return row.id


def finish(session: Session, run_id: int, status: RunStatus) -> list[str]:
    """Move the run to ``status``; the statements the outbox added to the transition."""
    with counted(session) as statements:
        assert lifecycle.transition(session, run_id, status)
    session.commit()
    return [s for s in statements if not s.lstrip().upper().startswith("UPDATE RUNS")]


def queued(session: Session, run_id: int) -> list[tuple[int, str]]:
    rows = session.execute(
        select(Message.destination_id, Message.event)
        .where(Message.run_id == run_id)
        .order_by(Message.destination_id, Message.event)
    )
    return [(d, e) for d, e in rows]


def test_schedule_subscriptions_and_the_cost_of_the_outbox(workbench: Workbench) -> None:
    client, project = workbench.client, workbench.project_id
    template = workbench.template("ok.yml", name="nightly-job")
    with HttpReceiver() as receiver:
        nightly_hook = webhook_destination(client, project, receiver.url(), "s1", name="nightly")
        other_hook = webhook_destination(client, project, receiver.url(), "s2", name="other")
        with runtime_of(workbench).sessions() as session:
            nightly = schedule(session, workbench, template, "nightly")
            weekly = schedule(session, workbench, template, "weekly")
            nobody = running_run(session, workbench, template)
            # no subscription at all: one query, nothing queued
            assert len(finish(session, nobody, RunStatus.FAILED)) == 1
            assert queued(session, nobody) == []

        events = ["succeeded", "failed", "fixed", "changed"]
        subscribe(
            client, project, destination_id=nightly_hook["id"], events=events, schedule_id=nightly
        )
        subscribe(
            client, project, destination_id=other_hook["id"], events=events, schedule_id=weekly
        )

        with runtime_of(workbench).sessions() as session:
            by_nightly = running_run(session, workbench, template, schedule_id=nightly)
            by_hand = running_run(session, workbench, template)
            # matching subscriptions, then the "fixed" and "changed" checks, one insert
            statements = finish(session, by_nightly, RunStatus.SUCCESSFUL)
            assert len(statements) == 4, statements
            # the previous run of the template failed: fixed; its recap is empty: unchanged
            assert queued(session, by_nightly) == [
                (nightly_hook["id"], "fixed"),
                (nightly_hook["id"], "succeeded"),
            ]
            # a run not launched by either schedule: theirs are not told
            assert len(finish(session, by_hand, RunStatus.FAILED)) == 1
            assert queued(session, by_hand) == []

        told = receiver.wait_for(2)
    bodies = {r.json()["event"]: r.json() for r in told}
    assert set(bodies) == {"succeeded", "fixed"}
    assert bodies["succeeded"]["run"]["launched_by"] == f"admin (via schedule {nightly})"
    assert bodies["succeeded"]["run"]["schedule_id"] == nightly
    assert "Launched by: admin (via schedule" in bodies["succeeded"]["text"]
