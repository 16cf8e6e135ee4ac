"""One run read back (``GET …/runs/{id}``), at the cost of what it answers.

Its ``ETag`` is made of the run's columns that change (``Run.WRITTEN_ONCE`` are set at
launch and never again), the names it shows, why it waits and its plan's approval: the
``head``, one query of those columns with the names joined. A poller whose tag is current is
answered from the head alone; only a full answer loads the launch values and the recap, the
story and the names behind the parameters (``full``).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import Select, bindparam, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.auth.models import User
from steward.config import Settings
from steward.errors import NotFound
from steward.runs import planned, refs, story, waiting
from steward.runs.models import Run, RunKind
from steward.runs.params import RunParams
from steward.runs.schemas import RunPlanInfo, RunRead
from steward.runs.status import RunStatus
from steward.templates.models import Template

# the name its template had at launch (a deleted template's, an ad-hoc run's), not the snapshot
RECORDED_NAME = Run.template_snapshot["name"].as_string()
# the columns a run's read returns (``RunRead``'s fields that are columns): lists select these,
# never the whole row (its template snapshot, sealed values, worker lease, …)
READ_COLUMNS = tuple(
    getattr(Run, c.key) for c in sa_inspect(Run).column_attrs if c.key in RunRead.model_fields
)
# every column that may change after the launch: what a run's tag is made of, all of them, so
# a column added later cannot be forgotten
CHANGING = tuple(
    getattr(Run, c.key) for c in sa_inspect(Run).column_attrs if c.key not in Run.WRITTEN_ONCE
)


def with_names(*columns: Any, launcher: str) -> Select[Any]:
    """``columns`` of runs with the names a run shows beside them: ``template`` (its template's
    name now, None once deleted), ``recorded_name`` and the launcher's username as ``launcher``."""
    return (
        select(
            *columns,
            Template.name.label("template"),
            User.username.label(launcher),
            RECORDED_NAME.label("recorded_name"),
        )
        .outerjoin(Template, Template.id == Run.template_id)
        .outerjoin(User, User.id == Run.launched_by_id)
    )


# built once: a statement reused is not built again, nor its cache key computed (SQLAlchemy)
_HEAD = with_names(*CHANGING, launcher="user").where(
    Run.id == bindparam("run_id"), Run.project_id == bindparam("project_id")
)


@dataclasses.dataclass(frozen=True)
class Head:
    """A run's changing columns by name, the names it shows, why it waits, its plan."""

    columns: dict[str, Any]
    template_name: str
    launched_by: str
    waiting_reason: str | None
    plan: RunPlanInfo | None

    @property
    def id(self) -> int:
        return int(self.columns["id"])

    @property
    def kind(self) -> RunKind:
        return RunKind(self.columns["kind"])

    @property
    def plan_id(self) -> int | None:
        plan_id: int | None = self.columns["plan_id"]
        return plan_id

    def tag_parts(self, sees_resources: bool) -> tuple[object, ...]:
        plan = self.plan and self.plan.model_dump()
        names = (self.template_name, self.launched_by)
        return self.columns, names, self.waiting_reason, plan, sees_resources


def head(session: Session, rights: ProjectAccess, run_id: int, settings: Settings) -> Head:
    """The run ``run_id`` of ``rights.project`` when the caller may see its output (run:view
    on its template, as ``service.get`` checks; 404 otherwise): one query, and for a queued
    run the reasons' counts, for a plan or an apply its plan."""
    where = {"run_id": run_id, "project_id": rights.project.id}
    row = session.execute(_HEAD, where).mappings().one_or_none()
    visible = rights.templates_allowing(Action.RUN_VIEW)
    if row is None or (visible is not None and row["template_id"] not in visible):
        raise NotFound(f"run {run_id} not found in project '{rights.project.name}'")
    columns = {column.key: row[column.key] for column in CHANGING}
    why = None
    if columns["status"] == RunStatus.QUEUED:
        queued = waiting.Queued(run_id, columns["project_id"], columns["runner_group"], "queued")
        why = waiting.reasons(session, [queued], settings).get(run_id)
    found = Head(
        columns, row["template"] or row["recorded_name"] or "", row["user"] or "", why, None
    )
    return dataclasses.replace(found, plan=planned.info(session, found))


def _rest() -> Select[Any]:
    """What a full read adds to the head, in one statement: the launch values (the only
    column the head does not hold), the hosts counted by outcome and the first failure."""
    counts = story.HOST_COUNTS.subquery()
    failure = story.FIRST_FAILURE.subquery()
    return (
        select(
            Run.params,
            *(counts.c[name] for name in ("hosts", "unreachable", "failed", "changed")),
            *(failure.c[name] for name in ("task", "host", "data", "event", "start_line")),
            failure.c.counter,
        )
        .outerjoin(counts, counts.c.run_id == Run.id)
        .outerjoin(failure, failure.c.run_id == Run.id)
        .where(Run.id == bindparam("run_id"))
    )


_REST = _rest()


def full(session: Session, rights: ProjectAccess, found: Head) -> RunRead:
    """The whole read of the run ``head`` found: its launch values, the names behind them,
    its hosts by outcome and its story (two queries, and the story's own for a run that
    ended before its recap)."""
    rest = session.execute(_REST, {"run_id": found.id, "run_ids": [found.id]}).one_or_none()
    if rest is None:  # deleted since its head was read
        raise NotFound(f"run {found.id} not found in project '{rights.project.name}'")
    params = RunParams.of(rest.params, found.id)
    columns = found.columns
    status = RunStatus(columns["status"])
    failure = None if rest.counter is None else story.failure_of(rest)
    return RunRead.model_validate(
        {column.key: columns[column.key] for column in READ_COLUMNS if column.key in columns}
        | {
            "params": params,
            "template_name": found.template_name,
            "launched_by": found.launched_by,
            "waiting_reason": found.waiting_reason,
            "plan": found.plan,
            "refs": refs.refs(
                session, columns["project_id"], found.id, params, sees_keys=rights.sees_resources
            ),
            "host_counts": None
            if rest.hosts is None
            else story.counts_of(rest.hosts, rest.unreachable, rest.failed, rest.changed),
            "story": story.story(session, found.id, status, failure),
        }
    )
