"""How a run went, told once for every reader (the run's read model, notifications, the runs
list): the first failure with its message and log line, hosts counted by outcome (unreachable
apart from failed), who canceled it and which hosts did not finish.

Everything here is read from rows that are already masked (the recorder masks events before it
stores them) or hold no secret.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, bindparam, case, exists, func, select
from sqlalchemy.orm import Session

from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord
from steward.execution.recorder import STATS_EVENT
from steward.runs.models import RunEvent, RunHost
from steward.runs.schemas import FirstFailure, HostCounts, RunStory
from steward.runs.status import RunStatus

MESSAGE_MAX = 1000  # characters of the first failure's message
UNFINISHED_SHOWN = 50  # hosts named as not finished (their count is given)
PLAY_START = "playbook_on_play_start"  # its data lists the play's hosts


def failure_message(data: dict[str, Any]) -> str:
    """What the failed task said (its ``msg``, then the start of its stderr), bounded."""
    res = data.get("res")
    if not isinstance(res, dict):
        return ""
    parts = []
    for key in ("msg", "stderr"):
        value = res.get(key)
        if value in (None, ""):
            continue
        parts.append(value if isinstance(value, str) else json.dumps(value, default=str))
    text = "\n".join(dict.fromkeys(parts))
    return text if len(text) <= MESSAGE_MAX else text[: MESSAGE_MAX - 1] + "…"


# the first failed event of the run bound as ``run_id`` (a statement built once: reused, it is
# not built again, nor its cache key computed); ``runs.read`` joins it into a run's read
FIRST_FAILURE = (
    select(RunEvent)
    .where(RunEvent.run_id == bindparam("run_id"), RunEvent.failed.is_(True))
    .order_by(RunEvent.counter)
    .limit(1)
)


def first_failure(session: Session, run_id: int) -> FirstFailure | None:
    """The run's first failed (or unreachable) result, or the failed install of its
    requirements: task, host, message and where its output starts in the log."""
    event = session.scalar(FIRST_FAILURE, {"run_id": run_id})
    return None if event is None else failure_of(event)


def failure_of(event: Any) -> FirstFailure:
    """The first failure an event tells (a ``RunEvent``, or a row of its columns)."""
    return FirstFailure(
        task=event.task,
        host=event.host,
        message=failure_message(event.data),
        unreachable=event.event == "runner_on_unreachable",
        line=event.start_line,
        counter=event.counter,
    )


def _host_counts() -> Select[int, int, int, int, int]:
    unreachable = RunHost.unreachable > 0
    failed = (RunHost.failed > 0) & ~unreachable
    changed = (RunHost.changed > 0) & (RunHost.failed == 0) & ~unreachable
    return (
        select(
            RunHost.run_id,
            func.count().label("hosts"),
            func.sum(case((unreachable, 1), else_=0)).label("unreachable"),
            func.sum(case((failed, 1), else_=0)).label("failed"),
            func.sum(case((changed, 1), else_=0)).label("changed"),
        )
        .where(RunHost.run_id.in_(bindparam("run_ids", expanding=True)))
        .group_by(RunHost.run_id)
    )


# of the runs bound as ``run_ids``, built once as the first failure's
HOST_COUNTS = _host_counts()


def host_counts(session: Session, run_ids: Sequence[int]) -> dict[int, HostCounts]:
    """Per run, its hosts counted by their worst outcome (unreachable, failed, changed, ok),
    from the recap; runs without a recap row are left out. One grouped query."""
    if not run_ids:
        return {}
    rows = session.execute(HOST_COUNTS, {"run_ids": list(run_ids)})
    return {row[0]: counts_of(*row[1:]) for row in rows}


def counts_of(
    total: int, dark: int | None, failures: int | None, changes: int | None
) -> HostCounts:
    """A run's hosts by worst outcome from ``HOST_COUNTS``'s sums (None: no host row)."""
    dark, failures, changes = int(dark or 0), int(failures or 0), int(changes or 0)
    return HostCounts(
        hosts=total,
        ok=total - dark - failures - changes,
        changed=changes,
        failed=failures,
        unreachable=dark,
    )


def recapped(session: Session, run_id: int) -> bool:
    """Whether the playbook told its recap (``playbook_on_stats``): its hosts all finished."""
    query = exists().where(RunEvent.run_id == run_id, RunEvent.event == STATS_EVENT)
    return bool(session.scalar(select(query)))


def canceled_by(session: Session, run_id: int) -> str | None:
    """Who asked to cancel the run, as the audit trail names them (the first to ask)."""
    return session.scalar(
        select(AuditRecord.actor)
        .where(
            AuditRecord.object_type == "run",
            AuditRecord.object_id == run_id,
            AuditRecord.action == AuditAction.RUN_CANCEL,
        )
        .order_by(AuditRecord.id)
        .limit(1)
    )


def story(
    session: Session, run_id: int, status: RunStatus, failure: FirstFailure | None
) -> RunStory:
    """What the top of a finished run's page says: its first ``failure`` (of any run that has
    one: ``first_failure``), and for a run that ended before its recap (canceled, timed out,
    an error) the hosts that did not finish; who canceled it."""
    unfinished: list[str] = []
    count = 0
    if status.is_finished and status is not RunStatus.SUCCESSFUL and not recapped(session, run_id):
        hosts = set(session.scalars(select(RunHost.host).where(RunHost.run_id == run_id)))
        for data in session.scalars(
            select(RunEvent.data).where(RunEvent.run_id == run_id, RunEvent.event == PLAY_START)
        ):
            named = data.get("hosts")
            if isinstance(named, list):
                hosts.update(str(h) for h in named if h)
        count = len(hosts)
        unfinished = sorted(hosts)[:UNFINISHED_SHOWN]
    who = canceled_by(session, run_id) if status is RunStatus.CANCELED else None
    return RunStory(
        first_failure=failure if status.is_finished else None,
        canceled_by=who,
        unfinished_hosts=unfinished,
        unfinished_host_count=count,
    )
