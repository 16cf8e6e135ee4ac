"""``host_quiet``: a host of a running run quiet on a task longer than a threshold is told, once
per run, host and destination. The rule (``runs.quiet``, the run page's) and the notifier's
timed pass below HTTP on recorded events; the message's wording; the unique constraint."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from support.recorded import PLAY, event_of, recorded
from support.services import counted

from steward.db import utcnow
from steward.notifications import posts
from steward.notifications.models import (
    Destination,
    DestinationKind,
    Message,
    RunEventKind,
    Subscription,
)
from steward.notifications.notifier import queue_host_quiet
from steward.runs import quiet
from steward.runs.models import Run, RunEvent
from steward.runs.status import RunStatus

# the query and the unique constraint are the point: PostgreSQL too
pytestmark = pytest.mark.both_databases

BASE_URL = "https://steward.example"
NOW = utcnow()
T0 = NOW - dt.timedelta(minutes=10)  # the current task started 10 minutes ago


def at(when: dt.datetime, event: dict[str, Any]) -> dict[str, Any]:
    return {**event, "created": when.isoformat()}


def play(hosts: list[str]) -> dict[str, Any]:
    data = {"play": PLAY, "name": PLAY, "hosts": hosts, "host_count": len(hosts)}
    return {"event": "playbook_on_play_start", "event_data": data}


def task(name: str) -> dict[str, Any]:
    return {"event": "playbook_on_task_start", "event_data": {"play": PLAY, "task": name}}


def item(host: str, name: str) -> dict[str, Any]:
    return event_of("runner_item_on_ok", host, name, item="x")


# db1 answered the task; db2 prints a loop's items (its last 30 s ago); db3 said nothing for 10
# minutes; db4 failed an earlier task, so it is out of the run (not on the task)
PATCHING = [
    at(T0 - dt.timedelta(minutes=2), play(["db1", "db2", "db3", "db4"])),
    at(T0 - dt.timedelta(minutes=2), task("stop listener")),
    *(
        at(T0 - dt.timedelta(minutes=1), event_of("runner_on_ok", h, "stop listener"))
        for h in ("db1", "db2", "db3")
    ),
    at(T0 - dt.timedelta(minutes=1), event_of("runner_on_failed", "db4", "stop listener")),
    at(T0, task("apply patch")),
    at(T0 + dt.timedelta(minutes=1), event_of("runner_on_ok", "db1", "apply patch")),
    at(NOW - dt.timedelta(minutes=5), item("db2", "apply patch")),
    at(NOW - dt.timedelta(seconds=30), item("db2", "apply patch")),
]


def found(session: Session, run: Run, quiet_for: dt.timedelta) -> list[tuple[str, str, str]]:
    hosts = quiet.quiet_hosts(session, [run.id], NOW - quiet_for)
    return [(h.host, h.task, h.heard_at.isoformat()) for h in hosts]


def test_a_host_silent_on_its_task_is_quiet_and_one_that_printed_recently_is_not(
    db_session: Session,
) -> None:
    run = recorded(db_session, RunStatus.RUNNING, PATCHING)
    # quiet for 5 minutes: db3 only (db1 answered, db2's loop printed 30 s ago, db4 is out)
    assert found(db_session, run, dt.timedelta(minutes=5)) == [
        ("db3", "apply patch", T0.isoformat())
    ]
    # control: with a threshold shorter than db2's silence, db2 is quiet too, heard at its item
    assert found(db_session, run, dt.timedelta(seconds=10)) == [
        ("db2", "apply patch", (NOW - dt.timedelta(seconds=30)).isoformat()),
        ("db3", "apply patch", T0.isoformat()),
    ]
    # a threshold longer than the task has run: nobody
    assert found(db_session, run, dt.timedelta(minutes=11)) == []


def test_no_quiet_host_in_a_finished_run_or_after_the_recap(db_session: Session) -> None:
    finished = recorded(db_session, RunStatus.FAILED, PATCHING)
    assert found(db_session, finished, dt.timedelta(minutes=5)) == []
    recap = at(NOW, {"event": "playbook_on_stats", "event_data": {}})
    ending = recorded(db_session, RunStatus.RUNNING, [*PATCHING, recap])
    assert found(db_session, ending, dt.timedelta(minutes=5)) == []
    # control: the same events without the recap, on a running run
    running = recorded(db_session, RunStatus.RUNNING, PATCHING)
    assert [h for h, _, _ in found(db_session, running, dt.timedelta(minutes=5))] == ["db3"]


def test_without_the_plays_host_list_every_host_seen_is_on_the_task(db_session: Session) -> None:
    no_list = [at(T0, play([])), *PATCHING[1:]]
    run = recorded(db_session, RunStatus.RUNNING, no_list)
    assert [h for h, _, _ in found(db_session, run, dt.timedelta(minutes=5))] == ["db3"]


def test_a_pass_that_remembers_reads_one_query_until_the_run_stores_events(
    db_session: Session,
) -> None:
    run = recorded(db_session, RunStatus.RUNNING, PATCHING)
    run.event_count = len(PATCHING)  # as the recorder counts what it stored
    db_session.flush()
    memo: quiet.Memo = {}
    first = quiet.quiet_hosts(db_session, [run.id], NOW - dt.timedelta(minutes=5), memo)
    assert [h.host for h in first] == ["db3"]
    with counted(db_session) as statements:
        again = quiet.quiet_hosts(db_session, [run.id], NOW - dt.timedelta(minutes=5), memo)
    assert again == first
    assert len(statements) == 1, statements  # the current task of each run, nothing more
    # db3 answers: stored as the recorder stores it, with the run's count of events
    db_session.add(
        RunEvent(
            run_id=run.id,
            counter=len(PATCHING) + 1,
            event="runner_on_ok",
            host="db3",
            task="apply patch",
            created_at=NOW,
        )
    )
    run.event_count = len(PATCHING) + 1
    db_session.flush()
    assert quiet.quiet_hosts(db_session, [run.id], NOW - dt.timedelta(minutes=5), memo) == []
    # control: without the memo the same answer, from the events
    assert quiet.quiet_hosts(db_session, [run.id], NOW - dt.timedelta(minutes=5)) == []
    assert quiet.quiet_hosts(db_session, [], NOW, memo) == []
    assert memo == {}  # a run not asked about any more is forgotten


def destination(session: Session, project_id: int, name: str) -> int:
    row = Destination(
        project_id=project_id,
        name=name,
        kind=DestinationKind.WEBHOOK,
        config={"url": "https://hooks.example/x", "headers": {}},
    )
    session.add(row)
    session.flush()
    return row.id


def subscribe(
    session: Session, project_id: int, destination_id: int, events: list[str], **fields: Any
) -> None:
    session.add(
        Subscription(project_id=project_id, destination_id=destination_id, events=events, **fields)
    )
    session.flush()


def told(session: Session) -> list[tuple[int, int, str]]:
    rows = session.execute(
        select(Message.run_id, Message.destination_id, Message.host).where(
            Message.event == RunEventKind.HOST_QUIET
        )
    )
    return sorted((run_id or 0, destination_id, host) for run_id, destination_id, host in rows)


def queue(session: Session, default_minutes: float = 5.0) -> int:
    return queue_host_quiet(session, NOW, base_url=BASE_URL, default_minutes=default_minutes)


def test_the_notifier_tells_each_quiet_host_once_per_destination(db_session: Session) -> None:
    run = recorded(db_session, RunStatus.RUNNING, PATCHING)
    project = run.project_id
    ops = destination(db_session, project, "ops")
    dba = destination(db_session, project, "dba")
    late = destination(db_session, project, "late")
    other = destination(db_session, project, "other")
    subscribe(db_session, project, ops, ["host_quiet"])  # the instance's 5 minutes
    subscribe(db_session, project, dba, ["failed", "host_quiet"], host_quiet_minutes=1)
    subscribe(db_session, project, late, ["host_quiet"], host_quiet_minutes=15)
    subscribe(db_session, project, other, ["long_running"], long_running_minutes=60)

    assert queue(db_session) == 2
    assert told(db_session) == sorted([(run.id, ops, "db3"), (run.id, dba, "db3")])
    assert queue(db_session) == 0  # the next pass: already told
    assert len(told(db_session)) == 2
    # the instance's threshold when the subscription gives none: 20 minutes, nothing for ops
    again = recorded(db_session, RunStatus.RUNNING, PATCHING)
    assert queue(db_session, default_minutes=20) == 1
    assert told(db_session)[-1] == (again.id, dba, "db3")

    message = db_session.scalars(
        select(Message).where(Message.run_id == run.id, Message.destination_id == ops)
    ).one()
    content = message.content
    assert content["event"] == "host_quiet"
    assert content["quiet_host"]["host"] == "db3"
    assert content["quiet_host"]["task"] == "apply patch"
    assert content["quiet_host"]["quiet_seconds"] == 600
    assert content["title"] == (
        f"[p] a deleted template #{run.id} has a quiet host: db3, nothing from it for"
        " 10m 0s on task 'apply patch'"
    )
    assert content["url"] == f"{BASE_URL}/projects/{project}/runs/{run.id}"
    line = "Quiet host: db3, on task 'apply patch', no result or loop item for 10m 0s"
    assert line in content["text"]
    # every destination kind says it: Slack and Teams from the text, email its text as is
    assert "db3" in posts.slack_body(content).decode()
    assert "apply patch" in posts.teams_body(content).decode()


def test_a_quiet_host_is_stored_once_per_run_host_and_destination(db_session: Session) -> None:
    run = recorded(db_session, RunStatus.RUNNING, PATCHING)
    ops = destination(db_session, run.project_id, "ops")

    def add(host: str, event: RunEventKind = RunEventKind.HOST_QUIET) -> None:
        db_session.add(
            Message(
                project_id=run.project_id, destination_id=ops, run_id=run.id, event=event, host=host
            )
        )
        db_session.commit()

    add("db3")
    add("db2")  # control: another host of the same run and destination
    add("", RunEventKind.LONG_RUNNING)  # and the run's long_running
    with pytest.raises(IntegrityError):
        add("db3")  # a second notifier, or a restart that did not see the first
    db_session.rollback()
