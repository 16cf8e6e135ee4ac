"""How a run went, computed from its recorded events (runs.story, runs.output.progress): the
first failure with its log line, hosts by outcome with unreachable apart, who canceled and
which hosts did not finish, and the live progress the stream sends. Below HTTP, on events
recorded the way the recorder stores the callback plugin's."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session
from support import services

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.execution.recorder import EVENTS, HOSTS, OUTPUT, Numbering, batch_rows
from steward.masking import Masker
from steward.projects.models import Project
from steward.runs import output, story
from steward.runs.models import LaunchType, Run
from steward.runs.status import RunStatus

PLAY = "patch"


def _play(hosts: list[str], tasks: int) -> dict[str, Any]:
    data = {"play": PLAY, "name": PLAY, "hosts": hosts, "host_count": len(hosts)}
    return {"event": "playbook_on_play_start", "event_data": {**data, "task_count": tasks}}


def _task(name: str) -> dict[str, Any]:
    return {
        "event": "playbook_on_task_start",
        "event_data": {"play": PLAY, "task": name},
        "stdout": f"TASK [{name}] ***",
    }


def _result(kind: str, host: str, task: str, **res: Any) -> dict[str, Any]:
    data = {"play": PLAY, "task": task, "host": host, "res": res}
    return {"event": kind, "event_data": data, "stdout": f"{kind}: [{host}]"}


def _stats(**per_kind: dict[str, int]) -> dict[str, Any]:
    return {"event": "playbook_on_stats", "event_data": per_kind, "stdout": "PLAY RECAP"}


def _recorded(session: Session, status: RunStatus, raw: list[dict[str, Any]]) -> Run:
    """A run of a fresh project with ``raw`` events stored as the recorder stores them."""
    project = session.scalar(select(Project).where(Project.name == "p"))
    project = project or services.project(session)
    run = Run(project_id=project.id, launch_type=LaunchType.API, status=status)
    session.add(run)
    session.flush()
    numbered = [dict(event, counter=i) for i, event in enumerate(raw, start=1)]
    rows = batch_rows(run.id, numbered, Masker([]), Numbering(), set())
    session.execute(EVENTS.insert(), rows.events)
    if rows.chunks:
        session.execute(OUTPUT.insert(), rows.chunks)
    if rows.new_hosts:
        session.execute(HOSTS.insert(), rows.new_hosts)
    for counts in rows.recap:
        session.execute(
            HOSTS.update()
            .where(HOSTS.c.run_id == run.id, HOSTS.c.host == counts["host"])
            .values({k: v for k, v in counts.items() if k != "host"})
        )
    session.flush()
    return run


FAILING = [
    _play(["db1", "db2", "db3"], tasks=3),
    _task("ping"),
    _result("runner_on_ok", "db1", "ping", changed=False),
    _result("runner_on_unreachable", "db3", "ping", msg="ssh: connect to host db3: refused"),
    _result("runner_on_ok", "db2", "ping", changed=True),
    _task("start db"),
    _result("runner_on_failed", "db1", "start db", msg="ORA-01034: ORACLE not available"),
    _result("runner_on_ok", "db2", "start db"),
    _stats(
        ok={"db1": 1, "db2": 2},
        changed={"db2": 1},
        failures={"db1": 1},
        dark={"db3": 1},
    ),
]


def test_the_first_failure_is_the_first_failed_result_with_its_message_and_line(
    db_session: Session,
) -> None:
    run = _recorded(db_session, RunStatus.FAILED, FAILING)

    failure = story.first_failure(db_session, run.id)

    assert failure is not None
    assert (failure.task, failure.host, failure.unreachable) == ("ping", "db3", True)
    assert failure.message == "ssh: connect to host db3: refused"
    # the line its output starts at: after the play's (none), the task's and db1's lines
    assert failure.line == 2
    assert failure.counter == 4
    clean = _recorded(db_session, RunStatus.SUCCESSFUL, FAILING[:3])
    assert story.first_failure(db_session, clean.id) is None


def test_an_unreachable_host_is_counted_apart_from_a_failed_one(db_session: Session) -> None:
    run = _recorded(db_session, RunStatus.FAILED, FAILING)
    without_recap = _recorded(db_session, RunStatus.RUNNING, FAILING[:2])

    counts = story.host_counts(db_session, [run.id, without_recap.id])

    assert counts[run.id].model_dump() == {
        "hosts": 3,
        "ok": 0,
        "changed": 1,
        "failed": 1,
        "unreachable": 1,
    }
    assert without_recap.id not in counts  # no host has reported


def test_a_canceled_run_tells_who_canceled_it_and_which_hosts_did_not_finish(
    db_session: Session,
) -> None:
    # canceled during "start db": no recap; db3 never reported a result
    run = _recorded(db_session, RunStatus.CANCELED, FAILING[:2] + FAILING[2:3])
    audit.record(
        db_session,
        services.admin(db_session),
        AuditAction.RUN_CANCEL,
        object_type="run",
        object_id=run.id,
        project_id=run.project_id,
    )
    db_session.flush()

    told = story.story(db_session, run)

    assert told.canceled_by == "admin"
    assert told.unfinished_hosts == ["db1", "db2", "db3"]
    assert told.unfinished_host_count == 3
    # control: a run that reached its recap had every host finish, and none canceled it
    finished = story.story(db_session, _recorded(db_session, RunStatus.FAILED, FAILING))
    assert (finished.unfinished_hosts, finished.canceled_by) == ([], None)
    assert finished.first_failure is not None


def test_progress_is_play_task_and_host_results_in_order_from_a_position(
    db_session: Session,
) -> None:
    ignored = _result("runner_on_failed", "db2", "start db", msg="ignored")
    ignored["event_data"]["ignore_errors"] = True
    run = _recorded(db_session, RunStatus.RUNNING, [*FAILING[:7], ignored])

    events = output.progress(db_session, run.id, -1, 100)

    assert [(e["kind"], e["host"], e["status"]) for e in events] == [
        ("play", "", None),
        ("task", "", None),
        ("result", "db1", "ok"),
        ("result", "db3", "unreachable"),
        ("result", "db2", "changed"),
        ("task", "", None),
        ("result", "db1", "failed"),
        ("result", "db2", "ignored"),
    ]
    play = events[0]
    assert (play["hosts"], play["host_count"], play["task_count"]) == (["db1", "db2", "db3"], 3, 3)
    assert events[5]["task"] == "start db"
    later = output.progress(db_session, run.id, int(str(events[4]["counter"])), 100)
    assert [e["counter"] for e in later] == [e["counter"] for e in events[5:]]
    assert output.progress(db_session, run.id, -1, 2) == events[:2]
