"""Hosts of running runs that have been quiet too long: the run page's rule, on the server.

The run page flags a host that is on a task and gave no sign of life for longer than a threshold
(``frontend/src/features/runs/lib/progress.ts``: ``applyProgress`` and ``quietHosts``), from the
progress events the live stream sends (``runs.output.progress``). The notifier's ``host_quiet``
event tells the same hosts, from the same stored events, by the same rule (both are held to the
cases of ``frontend/src/features/runs/lib/quiet-cases.json``: tests/runs/test_quiet_conformance.py
and the console's quiet-conformance.test.ts):

- the run's current task is its last task start (``TASK_HEADERS``); the current play's hosts
  (its start event's list, else every host seen) are on it from that moment, except the hosts
  out of the run: those with a failed (not ignored) or unreachable result before it;
- a host with a result (``RESULT_STATUS``) after that start is done with it;
- a loop's item of the host (``ITEM_EVENTS``) is a sign of life: the host is still on the task,
  and heard at that moment; otherwise it was last heard at the task's start;
- once the recap (``STATS_EVENT``) came, no host is on a task.

Cost: one query a pass for the runs asked about: each one's current task start, found by reading
the run's events backwards on ``ix_run_events_run_id_counter`` down to it (the events of one
task), and its ``event_count``. Only for a run whose current task started before
``heard_before`` (only then can a host be quiet) more is read, and a caller that keeps a
``Memo`` between passes reads it again only when the run has stored events since: the results
and items after the task start (an index range); once per task, the play's hosts and the hosts
out of the run (the run's failed and unreachable results before the task).
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
    event_count: int


@dataclasses.dataclass(slots=True)
class _Known:
    """What a pass read of a run's current task."""

    counter: int  # the task start
    hosts: list[str]  # on the task from its start: the play's, less those out of the run
    event_count: int = -1  # the run's when ``busy`` was read
    busy: list[QuietHost] = dataclasses.field(default_factory=list)  # no result yet


# run id -> what a pass read of it, kept by the caller between passes (one notifier's)
Memo = dict[int, _Known]


def _aware(value: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes (stored as UTC)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def quiet_hosts(
    session: Session,
    run_ids: Collection[int],
    heard_before: dt.datetime,
    memo: Memo | None = None,
) -> list[QuietHost]:
    """The hosts of these runs (running ones only) on a task and not heard of since
    ``heard_before``, in run and play order. ``memo``: what earlier passes read (updated; the
    runs not asked about any more are forgotten)."""
    memo = memo if memo is not None else {}
    for gone in set(memo) - set(run_ids):
        del memo[gone]
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
        select(Run.id, Run.project_id, start.counter, start.task, start.created_at, Run.event_count)
        .join(start, and_(start.run_id == Run.id, start.counter == last_task))
        .where(Run.id.in_(run_ids), Run.status == RunStatus.RUNNING)
        .order_by(Run.id)
    ).all()
    found: list[QuietHost] = []
    for run_id, project_id, counter, name, at, event_count in rows:
        task = _Task(run_id, project_id, counter, name, _aware(at), event_count)
        if task.at > heard_before:
            continue  # the task began since: no host on it can be quiet yet
        known = memo.get(run_id)
        if known is None or known.counter != task.counter:
            known = memo[run_id] = _Known(task.counter, _on_task(session, task))
        if known.event_count != task.event_count:
            known.busy, known.event_count = _busy(session, task, known.hosts), task.event_count
        found += [h for h in known.busy if h.heard_at <= heard_before]
    return found


def _on_task(session: Session, task: _Task) -> list[str]:
    """The hosts on ``task`` from its start: the play's, less those out of the run."""
    out = set(
        session.scalars(
            select(RunEvent.host).where(
                RunEvent.run_id == task.run_id,
                RunEvent.counter < task.counter,
                or_(
                    RunEvent.event == UNREACHABLE,
                    and_(RunEvent.event == FAILED, RunEvent.failed.is_(True)),
                ),
            )
        )
    )
    return [h for h in _play_hosts(session, task) if h not in out]


def _busy(session: Session, task: _Task, hosts: list[str]) -> list[QuietHost]:
    """Of ``hosts``, those with no result after the task's start, each with its last sign of
    life; none once the recap came."""
    rows = session.execute(
        select(RunEvent.event, RunEvent.host, RunEvent.created_at).where(
            RunEvent.run_id == task.run_id,
            RunEvent.counter > task.counter,
            RunEvent.event.in_((*RESULT_STATUS, *ITEM_EVENTS, STATS_EVENT)),
        )
    ).all()
    done: set[str] = set()
    heard: dict[str, dt.datetime] = {}
    for event, host, at in rows:
        if event == STATS_EVENT:
            return []  # the playbook has ended: every host is done
        if event in RESULT_STATUS:
            done.add(host)
        else:  # a loop's item
            heard[host] = max(heard.get(host, task.at), _aware(at))
    return [
        QuietHost(task.run_id, task.project_id, host, task.task, heard.get(host, task.at))
        for host in hosts
        if host not in done
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
