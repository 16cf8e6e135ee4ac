"""One run read back (``GET …/runs/{id}``), at the cost of what it answers.

Its ``ETag`` is made of the run's columns that change (``Run.WRITTEN_ONCE`` are set at
launch and never again), the names it shows, why it waits and its plan's approval: the
head, read with the project in one query (``located``, ``head_of``). A poller whose tag is
current is answered from the head alone; a full answer also has the launch values, the recap,
the story and the names behind the parameters (``full``): in the same query when no tag was
sent, in one more when a sent tag is stale.
"""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

from sqlalchemy import RowMapping, Select, bindparam, select
from sqlalchemy import inspect as sa_inspect
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.auth.models import User
from steward.config import Settings
from steward.errors import NotFound
from steward.projects.models import Project
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


def head_of(
    session: Session,
    rights: ProjectAccess,
    run_id: int,
    row: RowMapping | None,
    settings: Settings,
) -> Head:
    """The head of run ``run_id`` of ``rights.project`` from ``row``, a row of ``located``
    (None: no such project), when the caller may see its output (run:view on its template, as
    ``service.get`` checks; 404 otherwise); for a queued run the reasons' counts, for a plan or
    an apply its plan."""
    visible = rights.templates_allowing(Action.RUN_VIEW)
    if (
        row is None
        or row["id"] is None
        or (visible is not None and row["template_id"] not in visible)
    ):
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


# what a full read adds to the head: the launch values (the only column the head does not
# hold), the hosts counted by outcome, the first failure and the names behind the parameters
_COUNTED = ("hosts", "unreachable", "failed", "changed")
_FAILURE = ("task", "host", "data", "event", "start_line", "counter")


def _with_rest(query: Select[Any]) -> Select[Any]:
    """``query`` (of the run bound as ``run_id``, and ``run_ids`` the same) with what a full
    read adds to its head, joined: one statement."""
    counts = story.HOST_COUNTS.subquery()
    failure = story.FIRST_FAILURE.subquery()
    query = (
        query.add_columns(
            Run.params,
            *(counts.c[name].label(f"count_{name}") for name in _COUNTED),
            *(failure.c[name].label(f"failure_{name}") for name in _FAILURE),
        )
        .outerjoin(counts, counts.c.run_id == Run.id)
        .outerjoin(failure, failure.c.run_id == Run.id)
    )
    return refs.joined(query)


_REST = _with_rest(select(Run.project_id).where(Run.id == bindparam("run_id")))


def _located(rest: bool) -> Select[Any]:
    """The project bound as ``project_id`` and, outer joined, the head of its run bound as
    ``run_id`` (and with ``rest``, the rest of its read): NULLs when the project has no such
    run, no row when there is no such project. The names as scalar subqueries, not
    ``with_names``' joins: PostgreSQL took longer to plan those joins than to run the read."""
    template = select(Template.name).where(Template.id == Run.template_id).scalar_subquery()
    user = select(User.username).where(User.id == Run.launched_by_id).scalar_subquery()
    query = (
        select(
            *CHANGING,
            template.label("template"),
            user.label("user"),
            RECORDED_NAME.label("recorded_name"),
            Project,
        )
        .select_from(Project)
        .outerjoin(Run, (Run.id == bindparam("run_id")) & (Run.project_id == Project.id))
        .where(Project.id == bindparam("project_id"))
    )
    return _with_rest(query) if rest else query


_LOCATED = _located(rest=False)
_LOCATED_WHOLE = _located(rest=True)


def located(
    session: Session, project_id: int, run_id: int, *, whole: bool
) -> tuple[Project, RowMapping] | None:
    """Project ``project_id`` and the row of its run ``run_id`` in one query (its head's
    columns, None when the project has no such run: ``head_of``), and with ``whole`` what
    ``full`` reads too, for a reader who will want it all; None for no such project. Nothing
    here is checked: the caller's rights in the project decide what may be answered."""
    where = {"project_id": project_id, "run_id": run_id, "run_ids": [run_id]}
    row = session.execute(_LOCATED_WHOLE if whole else _LOCATED, where).mappings().one_or_none()
    return None if row is None else (row["Project"], row)


def full(
    session: Session, rights: ProjectAccess, found: Head, rest: RowMapping | None = None
) -> RunRead:
    """The whole read of the run ``head_of`` found: its launch values, the names behind them,
    its hosts by outcome and its story (one query, or none when ``rest``, a row of
    ``located`` with ``whole``, holds it; the story's own for a run that ended before its
    recap, ``refs``'s own for vault keys shown)."""
    if rest is None:
        where = {"run_id": found.id, "run_ids": [found.id]}
        rest = session.execute(_REST, where).mappings().one_or_none()
    if rest is None:  # deleted since its head was read
        raise NotFound(f"run {found.id} not found in project '{rights.project.name}'")
    params = RunParams.of(rest["params"], found.id)
    columns = found.columns
    status = RunStatus(columns["status"])
    failure = None
    if rest["failure_counter"] is not None:
        failure = story.failure_of(
            SimpleNamespace(**{name: rest[f"failure_{name}"] for name in _FAILURE})
        )
    hosts = rest["count_hosts"]
    counts = None if hosts is None else story.counts_of(*(rest[f"count_{n}"] for n in _COUNTED))
    return RunRead.model_validate(
        {column.key: columns[column.key] for column in READ_COLUMNS if column.key in columns}
        | {
            "params": params,
            "template_name": found.template_name,
            "launched_by": found.launched_by,
            "waiting_reason": found.waiting_reason,
            "plan": found.plan,
            "refs": refs.from_joined(
                session, rest, found.id, params, sees_keys=rights.sees_resources
            ),
            "host_counts": counts,
            "story": story.story(session, found.id, status, failure),
        }
    )
