"""Why a queued run is still waiting: the first of the claim's conditions it does not meet.

The same conditions as ``lifecycle.claimable``, counted once for a whole page of runs (five
small grouped queries, none per run), so a list of runs can say it for each queued one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Sequence
from typing import NamedTuple, Protocol

from sqlalchemy import func, select
from sqlalchemy.orm import InstrumentedAttribute, Session

from steward.config import Settings
from steward.db import lookup
from steward.dispatch import presence
from steward.projects.models import Project
from steward.runner_groups.models import EVERY_GROUP, RunnerGroup
from steward.runs.lifecycle import Limits
from steward.runs.models import Run
from steward.runs.status import RunStatus


class Waiting(Protocol):
    """What the reason is made of: a ``Run``, or ``Queued`` made of a run's columns."""

    @property
    def id(self) -> int: ...
    @property
    def project_id(self) -> int: ...
    @property
    def runner_group(self) -> str: ...
    @property
    def status(self) -> str: ...


class Queued(NamedTuple):
    """A run's columns that say why it waits (a list selects columns, not ``Run`` rows)."""

    id: int
    project_id: int
    runner_group: str
    status: str


def reasons(session: Session, runs: Sequence[Waiting], settings: Settings) -> dict[int, str]:
    """The reason of each queued run of ``runs``, by id (other runs have none)."""
    queued = [run for run in runs if run.status == RunStatus.QUEUED]
    if not queued:
        return {}
    limits = Limits.of(settings)
    projects = {run.project_id for run in queued}
    groups = {run.runner_group for run in queued}
    running = RunStatus.RUNNING
    total = session.scalar(select(func.count()).where(Run.status == running)) or 0
    per_project = _running_by(session, Run.project_id, projects)
    per_group = _running_by(session, Run.runner_group, groups)
    project_limits = lookup(session, Project.id, Project.max_parallel_runs, projects)
    group_limits = lookup(session, RunnerGroup.name, RunnerGroup.max_parallel_runs, groups)
    capacity = presence.online_capacity(session, dt.timedelta(seconds=settings.lease_seconds))

    def why(run: Waiting) -> str:
        group = run.runner_group
        slots = presence.serves(capacity, group)
        if slots == 0:
            return f"no worker of runner group '{group}' is online"
        if limits.total is not None and total >= limits.total:
            return f"global limit reached ({total} of {limits.total} runs running)"
        project_limit = project_limits.get(run.project_id) or limits.project_default
        in_project = per_project.get(run.project_id, 0)
        if in_project >= project_limit:
            return f"project limit reached ({in_project} of {project_limit} runs running)"
        group_limit = group_limits.get(group)
        in_group = per_group.get(group, 0)
        if group_limit is not None and in_group >= group_limit:
            return f"runner group '{group}' limit reached ({in_group} of {group_limit} running)"
        busy = total if capacity.get(EVERY_GROUP) else in_group
        if busy >= slots:
            return f"every worker of runner group '{group}' is busy ({busy} of {slots} slots)"
        return "waiting for a worker to claim it (older runs first)"

    return {run.id: why(run) for run in queued}


def _running_by[K](
    session: Session, column: InstrumentedAttribute[K], values: Collection[K]
) -> dict[K, int]:
    """How many runs are running, by their ``column`` (a project, a runner group) among
    ``values``."""
    counted = session.execute(
        select(column, func.count())
        .where(Run.status == RunStatus.RUNNING, column.in_(values))
        .group_by(column)
    )
    return {value: count for value, count in counted.all()}
