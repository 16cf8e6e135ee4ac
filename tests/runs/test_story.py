"""How a run went, computed from its recorded events (runs.story, runs.output.progress): the
first failure with its log line, hosts by outcome with unreachable apart, who canceled and
which hosts did not finish, and the live progress the stream sends. Below HTTP, on events
recorded the way the recorder stores the callback plugin's."""

from __future__ import annotations

from sqlalchemy.orm import Session
from support import services
from support.recorded import FAILING, event_of, recorded

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.runs import output, story
from steward.runs.status import RunStatus


def test_the_first_failure_is_the_first_failed_result_with_its_message_and_line(
    db_session: Session,
) -> None:
    run = recorded(db_session, RunStatus.FAILED, FAILING)

    failure = story.first_failure(db_session, run.id)

    assert failure is not None
    assert (failure.task, failure.host, failure.unreachable) == ("ping", "db3", True)
    assert failure.message == "ssh: connect to host db3: refused"
    # the line its output starts at: after the play's (none), the task's and db1's lines
    assert failure.line == 2
    assert failure.counter == 4
    clean = recorded(db_session, RunStatus.SUCCESSFUL, FAILING[:3])
    assert story.first_failure(db_session, clean.id) is None


def test_an_unreachable_host_is_counted_apart_from_a_failed_one(db_session: Session) -> None:
    run = recorded(db_session, RunStatus.FAILED, FAILING)
    without_recap = recorded(db_session, RunStatus.RUNNING, FAILING[:2])

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
    run = recorded(db_session, RunStatus.CANCELED, FAILING[:2] + FAILING[2:3])
    audit.record(
        db_session,
        services.admin(db_session),
        AuditAction.RUN_CANCEL,
        object_type="run",
        object_id=run.id,
        project_id=run.project_id,
    )
    db_session.flush()

    told = story.story(db_session, run.id, RunStatus(run.status), None)

    assert told.canceled_by == "admin"
    assert told.unfinished_hosts == ["db1", "db2", "db3"]
    assert told.unfinished_host_count == 3
    # control: a run that reached its recap had every host finish, and none canceled it
    failed = recorded(db_session, RunStatus.FAILED, FAILING)
    first = story.first_failure(db_session, failed.id)
    finished = story.story(db_session, failed.id, RunStatus.FAILED, first)
    assert (finished.unfinished_hosts, finished.canceled_by) == ([], None)
    assert finished.first_failure is not None


def test_progress_is_play_task_and_host_results_in_order_from_a_position(
    db_session: Session,
) -> None:
    ignored = event_of("runner_on_failed", "db2", "start db", msg="ignored")
    ignored["event_data"]["ignore_errors"] = True
    run = recorded(db_session, RunStatus.RUNNING, [*FAILING[:7], ignored])

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
