"""A run with events recorded as the recorder stores the callback plugin's, for rules computed
from recorded events (runs.story, runs.output.progress, notifications.messages) on
``db_session``."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.execution.recorder import EVENTS, HOSTS, OUTPUT, Numbering, batch_rows
from steward.masking import Masker
from steward.projects.models import Project
from steward.runs.models import LaunchType, Run
from steward.runs.status import RunStatus
from support import services

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


def event_of(kind: str, host: str, task: str, **res: Any) -> dict[str, Any]:
    data = {"play": PLAY, "task": task, "host": host, "res": res}
    return {"event": kind, "event_data": data, "stdout": f"{kind}: [{host}]"}


def _stats(**per_kind: dict[str, int]) -> dict[str, Any]:
    return {"event": "playbook_on_stats", "event_data": per_kind, "stdout": "PLAY RECAP"}


def recorded(session: Session, status: RunStatus, raw: list[dict[str, Any]]) -> Run:
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
    event_of("runner_on_ok", "db1", "ping", changed=False),
    event_of("runner_on_unreachable", "db3", "ping", msg="ssh: connect to host db3: refused"),
    event_of("runner_on_ok", "db2", "ping", changed=True),
    _task("start db"),
    event_of("runner_on_failed", "db1", "start db", msg="ORA-01034: ORACLE not available"),
    event_of("runner_on_ok", "db2", "start db"),
    _stats(
        ok={"db1": 1, "db2": 2},
        changed={"db2": 1},
        failures={"db1": 1},
        dark={"db3": 1},
    ),
]
