"""Hosts of running runs that have been quiet too long: the run page's rule, on the server.

The run page flags a host that is on a task and gave no sign of life for longer than a threshold
(``frontend/src/features/runs/lib/progress.ts``: ``applyProgress`` and ``quietHosts``), from the
progress events the live stream sends (``runs.output.progress``). The notifier's ``host_quiet``
event tells the same hosts, from the same stored events, by the same rule:

- the run's current task is its last task start (``TASK_HEADERS``); the current play's hosts
  (its start event's list, else every host seen) are on it from that moment, except the hosts
  out of the run: those with a failed (not ignored) or unreachable result before it;
- a host with a result (``RESULT_STATUS``) after that start is done with it;
- a loop's item of the host (``ITEM_EVENTS``) is a sign of life: the host is still on the task,
  and heard at that moment; otherwise it was last heard at the task's start;
- once the recap (``STATS_EVENT``) came, no host is on a task.

Cost: one query for the runs asked about (their current task start, found by reading the run's
events backwards on ``ix_run_events_run_id_counter`` down to it: the events of one task); only
for a run whose current task started before ``heard_before`` (only then can a host be quiet),
one more: its play's start and the results and items after the task start, plus the run's
failed and unreachable results.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Collection

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session, aliased

from steward.execution.recorder import STATS_EVENT
from steward.runs.models import Run, RunEvent
from steward.runs.output import ITEM_EVENTS, PLAY_HEADER, RESULT_STATUS, TASK_HEADERS
from steward.runs.status import RunStatus

# a result that takes the host out of the run (``_progress_status``: "failed", "unreachable")
UNREACHABLE = "runner_on_unreachable"
FAILED = "runner_on_failed"


@dataclasses.dataclass(frozen=True, slots=True)
class QuietHost:
    run_id: int
    project_id: int
    host: str
    task: str
    heard_at: dt.datetime  # its last sign of life: the task's start or a loop's item


@dataclasses.dataclass(frozen=True, slots=True)
class _Task:
    run_id: int
    project_id: int
    counter: int
    task: str
    at: dt.datetime


def _aware(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes (stored as UTC)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def quiet_hosts(
    session: Session, run_ids: Collection[int], heard_before: dt.datetime
) -> list[QuietHost]:
    """The hosts of these runs (running ones only) on a task and not heard of since
    ``heard_before``, in run and play order."""
    if not run_ids:
        return []
    last_task = (
        select(RunEvent.counter)
        .where(RunEvent.run_id == Run.id, RunEvent.event.in_(TASK_HEADERS))
        .order_by(RunEvent.counter.desc())
        .limit(1)
        .scalar_subquery()
    )
    start = aliased(RunEvent)
    rows = session.execute(
        select(Run.id, Run.project_id, start.counter, start.task, start.created_at)
        .join(start, and_(start.run_id == Run.id, start.counter == last_task))
        .where(Run.id.in_(run_ids), Run.status == RunStatus.RUNNING)
        .order_by(Run.id)
    ).all()
    tasks = [
        _Task(run_id, project_id, counter, task, _aware(at))
        for run_id, project_id, counter, task, at in rows
        if _aware(at) <= heard_before
    ]
    found: list[QuietHost] = []
    for task in tasks:
        found += _quiet_on(session, task, heard_before)
    return found


def _quiet_on(session: Session, task: _Task, heard_before: dt.datetime) -> list[QuietHost]:
    """The hosts quiet on ``task`` (a run's current task, started before ``heard_before``)."""
    after = RunEvent.counter > task.counter
    rows = session.execute(
        select(RunEvent.counter, RunEvent.event, RunEvent.host, RunEvent.created_at)
        .where(
            RunEvent.run_id == task.run_id,
            or_(
                and_(after, RunEvent.event.in_((*RESULT_STATUS, *ITEM_EVENTS, STATS_EVENT))),
                and_(
                    RunEvent.counter < task.counter,
                    or_(
                        RunEvent.event == UNREACHABLE,
                        and_(RunEvent.event == FAILED, RunEvent.failed.is_(True)),
                    ),
                ),
            ),
        )
        .order_by(RunEvent.counter)
    ).all()
    out: set[str] = set()
    done: set[str] = set()
    heard: dict[str, dt.datetime] = {}
    for counter, event, host, at in rows:
        if counter < task.counter:
            out.add(host)
        elif event == STATS_EVENT:
            return []  # the playbook has ended: every host is done
        elif event in RESULT_STATUS:
            done.add(host)
        else:  # a loop's item
            heard[host] = max(heard.get(host, task.at), _aware(at))
    hosts = _play_hosts(session, task)
    return [
        QuietHost(task.run_id, task.project_id, host, task.task, heard.get(host, task.at))
        for host in hosts
        if host not in out and host not in done and heard.get(host, task.at) <= heard_before
    ]


def _play_hosts(session: Session, task: _Task) -> list[str]:
    """The hosts of the play the task is in, as its start event lists them; every host seen in
    the run when it lists none (an old event, or a host list the callback could not read)."""
    data = session.scalar(
        select(RunEvent.data)
        .where(
            RunEvent.run_id == task.run_id,
            RunEvent.event == PLAY_HEADER,
            RunEvent.counter < task.counter,
        )
        .order_by(RunEvent.counter.desc())
        .limit(1)
    )
    hosts = data.get("hosts") if isinstance(data, dict) else None
    if isinstance(hosts, list) and hosts:
        return list(dict.fromkeys(str(h) for h in hosts))
    seen = session.scalars(
        select(RunEvent.host)
        .where(RunEvent.run_id == task.run_id, RunEvent.host != "")
        .group_by(RunEvent.host)
        .order_by(RunEvent.host)
    )
    return list(seen)
