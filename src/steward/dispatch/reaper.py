"""What keeps runs moving when a process dies or a message is lost.

- ``recover``: at the start of a server or worker, runs this host left running are failed and
  every process of a run that must not be running any more (the orphans of a killed worker)
  is killed; leftover private directories (decrypted secrets) are removed.
- ``fail_expired``: a running run whose lease was not renewed in time lost its worker.
- ``redeliveries``: queued runs older than a threshold get a new wake-up, in case their
  message was lost (broker down, a worker killed with messages reserved). Duplicates are
  no-ops: a wake-up only claims what the database says is claimable.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Collection

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.dispatch import presence
from steward.execution import workdirs
from steward.execution.ansible import processes
from steward.runs import lifecycle
from steward.runs.lifecycle import WorkerId
from steward.runs.models import Run
from steward.runs.status import Reason, RunStatus
from steward.runtime import Runtime

log = logging.getLogger(__name__)


def recover(runtime: Runtime, me: WorkerId, reason: str) -> None:
    with runtime.sessions() as session:
        for run in lifecycle.interrupted_runs(session, me):
            processes.kill_all(run.uuid)
            if lifecycle.transition(session, run.id, RunStatus.ERROR, reason=reason):
                log.warning("run %s was interrupted: %s", run.id, reason)
        session.commit()
        for run_uuid in lifecycle.orphaned(session, me, processes.marked_runs()):
            killed = processes.kill_all(run_uuid)
            log.warning("killed %s orphaned processes of run %s", killed, run_uuid)
        workdirs.sweep(session, runtime.settings, executing=())


def fail_expired(session: Session, lease: dt.timedelta, executing: Collection[int]) -> list[int]:
    """Fail the runs whose lease expired, except ``executing`` (ours, alive: the heartbeat is
    just late); commits. The ids failed."""
    failed = []
    for run in lifecycle.expired_runs(session, lease):
        if run.id in executing:
            continue
        if lifecycle.transition(session, run.id, RunStatus.ERROR, reason=Reason.WORKER_LOST):
            failed.append(run.id)
            log.warning("run %s lost its worker %s", run.id, run.worker_id)
    session.commit()
    return failed


def redeliveries(session: Session, older_than: dt.timedelta, lease: dt.timedelta) -> list[str]:
    """One wake-up per waiting run queued before ``older_than`` ago, per group, up to the
    slots of the group's online workers (so a group without workers gets none piling up in
    the broker): the groups to wake, a group repeated for each wake-up."""
    cutoff = utcnow() - older_than
    waiting = session.execute(
        select(Run.runner_group, func.count())
        .where(Run.status == RunStatus.QUEUED, Run.created_at < cutoff)
        .group_by(Run.runner_group)
    ).all()
    if not waiting:
        return []
    capacity = presence.online_capacity(session, lease)
    wake: list[str] = []
    for group, count in sorted(waiting):
        wake += [group] * min(int(count), capacity.get(group, 0))
    return wake
