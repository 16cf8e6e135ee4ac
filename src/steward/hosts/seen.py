"""Keep ``project_hosts`` as runs end: the recorder calls ``record`` with a run's recap, in the
transaction that stores it. One statement per recap (an upsert of its hosts), so what a run
costs does not grow with the project's history."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import case, select
from sqlalchemy.orm import Session

from steward.db import upsert
from steward.hosts.models import Outcome, ProjectHost
from steward.runs.models import Run


def outcome(counts: Mapping[str, Any]) -> Outcome:
    """The worst that happened to a host in a run, from its recap counts."""
    for result in (Outcome.FAILED, Outcome.UNREACHABLE, Outcome.CHANGED):
        if counts.get(result.value, 0):
            return result
    return Outcome.OK


def record(
    session: Session, run_id: int, recap: Sequence[Mapping[str, Any]], *, at: dt.datetime
) -> None:
    """Note that run ``run_id`` reached the hosts of ``recap`` (``recorder.recap_rows``).

    A recap given twice for one run (a second ``playbook_on_stats``) counts the run once."""
    if not recap:
        return
    project_id = session.scalar(select(Run.project_id).where(Run.id == run_id))
    if project_id is None:
        return
    rows = [
        {
            "project_id": project_id,
            "name": str(counts["host"]),
            "first_seen_at": at,
            "last_seen_at": at,
            "last_run_id": run_id,
            "last_outcome": outcome(counts),
            "runs": 1,
        }
        for counts in recap
    ]
    upsert(
        session,
        ProjectHost,
        rows,
        [ProjectHost.project_id, ProjectHost.name],
        lambda new: {
            "last_seen_at": new.last_seen_at,
            "last_run_id": new.last_run_id,
            "last_outcome": new.last_outcome,
            "runs": ProjectHost.runs
            + case((ProjectHost.last_run_id == new.last_run_id, 0), else_=1),
        },
    )
