"""What a run's message says, built from its recorded events (notifications.messages over the
run domain's story): hosts counted with unreachable apart from failed, and the first failure
the run page shows too. Below HTTP, on ``db_session``."""

from __future__ import annotations

from sqlalchemy.orm import Session
from support.recorded import FAILING, recorded

from steward.db import utcnow
from steward.notifications import messages
from steward.notifications.models import Message, RunEventKind
from steward.runs import story
from steward.runs.status import RunStatus


def test_a_failed_runs_message_counts_unreachable_hosts_apart_from_failed(
    db_session: Session,
) -> None:
    run = recorded(db_session, RunStatus.FAILED, FAILING)
    message = Message(run_id=run.id, event=RunEventKind.FAILED)

    content = messages.for_run(db_session, message, "https://steward.example", utcnow())

    counts = {"hosts": 3, "ok": 0, "changed": 1, "failed": 1, "unreachable": 1}
    assert content["host_counts"] == counts
    assert "Hosts: 3 (0 ok, 1 changed, 1 failed, 1 unreachable)" in content["text"]
    # the same first failure as the run's page (runs.story)
    page = story.first_failure(db_session, run.id)
    assert page is not None
    assert content["first_failure"] == {
        "task": page.task,
        "host": page.host,
        "message": page.message,
    }
    assert "First failure: task 'ping' on db3: ssh: connect to host db3: refused" in content["text"]
    # control: a message about the start tells no recap
    started = Message(run_id=run.id, event=RunEventKind.STARTED)
    assert messages.for_run(db_session, started, "https://x", utcnow())["host_counts"] is None
