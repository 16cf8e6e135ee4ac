"""The hosts view: every host of a project's inventories and runs, and per host the runs that
reached it and the tasks that changed it.

A host is known from two sides, kept as they happen rather than aggregated per request: the
inventories list it (``InventoryHost``, as Ansible last resolved them) and runs reached it
(``ProjectHost``, kept by the recorder from each recap). The runs and changes of a host are
the runs list's own query with its host filter (``runs.service.list_runs``), so every filter
and the visibility rule of runs apply unchanged.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Row, and_, or_, select, tuple_, union
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import visible_runs
from steward.audit.export import csv_line
from steward.db import icontains, paged_rows
from steward.errors import NotFound
from steward.hosts import seen
from steward.hosts.models import Outcome, ProjectHost
from steward.hosts.schemas import (
    HostChange,
    HostChangeFilters,
    HostChangePage,
    HostDetail,
    HostFilters,
    HostInventory,
    HostRun,
    HostSummary,
)
from steward.inventories import service as inventories
from steward.inventories.models import Inventory, InventoryHost
from steward.masking import MASK
from steward.projects.models import Project
from steward.runs import service as runs
from steward.runs.models import Run, RunEvent, RunHost
from steward.runs.schemas import RunFilters
from steward.templates.models import Template

EXPORT_PAGE = 500
EXPORT_COLUMNS = (
    "run_id",
    "template",
    "status",
    "outcome",
    "launched_by",
    "launch_type",
    "schedule_id",
    "webhook_id",
    "workflow_run_id",
    "source_ip",
    "created_at",
    "started_at",
    "finished_at",
    "duration",
    "ok",
    "changed",
    "failed",
    "unreachable",
    "skipped",
    "label",
)


@dataclasses.dataclass
class _Known:
    """One host while the two sides are merged."""

    project_id: int
    name: str
    inventories: list[tuple[str, list[str], dict[str, Any]]] = dataclasses.field(
        default_factory=list
    )
    seen: ProjectHost | None = None

    def summary(self) -> HostSummary:
        groups = sorted({g for _, names, _ in self.inventories for g in names})
        return HostSummary(
            project_id=self.project_id,
            name=self.name,
            inventories=sorted(name for name, _, _ in self.inventories),
            groups=groups,
            runs=self.seen.runs if self.seen else 0,
            last_seen_at=self.seen.last_seen_at if self.seen else None,
            last_run_id=self.seen.last_run_id if self.seen else None,
            last_outcome=Outcome(self.seen.last_outcome) if self.seen else Outcome.UNKNOWN,
        )


def list_hosts(
    session: Session, filters: HostFilters, project: Project | None
) -> tuple[list[HostSummary], int]:
    """The hosts of ``project`` (None: of every project, for admins) matching ``filters``,
    by name (then project), paged; with the total.

    By name alone, the page is chosen in SQL and only its hosts are loaded; a group or a
    variable is matched on the hosts' inventory rows (JSON), read for the matching names."""
    inventories.keep_unread_hosts(session, project.id if project else None)
    listed = select(Inventory.project_id.label("project_id"), InventoryHost.name.label("name"))
    listed = listed.join(Inventory, Inventory.id == InventoryHost.inventory_id)
    ran = select(ProjectHost.project_id.label("project_id"), ProjectHost.name.label("name"))
    if project is not None:
        listed = listed.where(Inventory.project_id == project.id)
        ran = ran.where(ProjectHost.project_id == project.id)
    if filters.q:
        listed = listed.where(icontains(InventoryHost.name, filters.q))
        ran = ran.where(icontains(ProjectHost.name, filters.q))
    names = union(listed, ran).subquery()
    ordered = select(names.c.project_id, names.c.name).order_by(names.c.name, names.c.project_id)
    if not (filters.group or filters.var):
        page, total = paged_rows(session, ordered, limit=filters.limit, offset=filters.offset)
        return [host.summary() for host in _known(session, page)], total
    matching = [
        host for host in _known(session, session.execute(ordered).all()) if _matches(host, filters)
    ]
    return [
        host.summary() for host in matching[filters.offset : filters.offset + filters.limit]
    ], len(matching)


def _known(session: Session, keys: Sequence[Row[Any, Any]]) -> list[_Known]:
    """The hosts of ``keys`` ((project id, name), in order) with their inventory rows and
    what runs saw, in two queries."""
    known = {(key.project_id, key.name): _Known(key.project_id, key.name) for key in keys}
    if not known:
        return []
    wanted = tuple_(Inventory.project_id, InventoryHost.name).in_(list(known))
    listed = session.execute(
        select(
            Inventory.project_id,
            InventoryHost.name,
            Inventory.name,
            InventoryHost.groups,
            InventoryHost.vars,
        )
        .join(Inventory, Inventory.id == InventoryHost.inventory_id)
        .where(wanted)
    )
    for project_id, name, inventory, groups, variables in listed:
        known[(project_id, name)].inventories.append((inventory, list(groups), dict(variables)))
    ran = tuple_(ProjectHost.project_id, ProjectHost.name).in_(list(known))
    for row in session.scalars(select(ProjectHost).where(ran)):
        known[(row.project_id, row.name)].seen = row
    return list(known.values())


def _matches(host: _Known, filters: HostFilters) -> bool:
    if filters.group and not any(filters.group in groups for _, groups, _ in host.inventories):
        return False
    if filters.var:
        name, sep, value = filters.var.partition("=")
        values = [variables[name] for _, _, variables in host.inventories if name in variables]
        if not values:
            return False
        if sep and not any(_text(v) == value and v != MASK for v in values):
            return False
    return True


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def require_known(session: Session, project: Project, name: str) -> None:
    """404 unless an inventory of the project lists host ``name`` or a run of it reached it."""
    inventories.keep_unread_hosts(session, project.id)
    listed = select(InventoryHost.name).join(Inventory, Inventory.id == InventoryHost.inventory_id)
    listed = listed.where(Inventory.project_id == project.id, InventoryHost.name == name)
    if session.get(ProjectHost, (project.id, name)) is None and session.scalar(listed) is None:
        raise NotFound(
            f"host '{name}' is in no inventory of project '{project.name}'"
            " and no run of it reached it"
        )


def read_host(session: Session, project: Project, name: str) -> HostDetail:
    """A host of the project: where its inventories list it, and what its runs saw; 404 when
    neither knows it."""
    inventories.keep_unread_hosts(session, project.id)
    listed = session.execute(
        select(InventoryHost, Inventory.name, Inventory.hosts_read_at)
        .join(Inventory, Inventory.id == InventoryHost.inventory_id)
        .where(Inventory.project_id == project.id, InventoryHost.name == name)
        .order_by(Inventory.name)
    ).all()
    ran = session.get(ProjectHost, (project.id, name))
    if not listed and ran is None:
        require_known(session, project, name)  # says why: 404
    return HostDetail(
        project_id=project.id,
        name=name,
        inventories=[
            HostInventory(
                inventory_id=row.inventory_id,
                inventory=inventory,
                groups=list(row.groups),
                vars=dict(row.vars),
                read_at=read_at,
            )
            for row, inventory, read_at in listed
        ],
        runs=ran.runs if ran else 0,
        first_seen_at=ran.first_seen_at if ran else None,
        last_seen_at=ran.last_seen_at if ran else None,
        last_run_id=ran.last_run_id if ran else None,
        last_outcome=Outcome(ran.last_outcome) if ran else Outcome.UNKNOWN,
    )


def host_runs(
    session: Session, actor: Actor, project: Project, name: str, filters: RunFilters
) -> tuple[list[HostRun], int | None]:
    """The runs that reached host ``name``, newest first, as the runs list filters them, each
    with how it went on this host; 404 for a host the project does not know."""
    require_known(session, project, name)
    rows, next_before = runs.list_runs(
        session, actor, filters.model_copy(update={"host": name}), project
    )
    counts = {
        row.run_id: row
        for row in session.scalars(
            select(RunHost).where(
                RunHost.run_id.in_([run["id"] for run in rows]), RunHost.host == name
            )
        )
    }
    return [_host_run(run, counts[run["id"]]) for run in rows], next_before


def _host_run(run: dict[str, Any], counts: RunHost) -> HostRun:
    """``run``: as the runs list selects it (``runs.service.list_runs``)."""
    duration = None
    started, finished = run["started_at"], run["finished_at"]
    if started is not None and finished is not None:
        duration = round((finished - started).total_seconds(), 3)
    # the fields of the run and of its recap on this host, by their names
    named = {name: run[name] for name in HostRun.model_fields if name in run}
    named |= {
        name: getattr(counts, name) for name in HostRun.model_fields if hasattr(RunHost, name)
    }
    return HostRun(
        **named
        | {
            "template": run["template"] or run["recorded_name"],
            "duration": duration,
            "outcome": seen.outcome(
                {
                    "failed": counts.failed,
                    "unreachable": counts.unreachable,
                    "changed": counts.changed,
                }
            ),
        }
    )


def export_runs(
    session: Session, actor: Actor, project: Project, name: str, filters: RunFilters
) -> Iterator[str]:
    """``host_runs`` as CSV lines (the header first), every page, newest first."""
    yield csv_line(EXPORT_COLUMNS)
    page = filters.model_copy(update={"limit": EXPORT_PAGE})
    while True:
        items, next_before = host_runs(session, actor, project, name, page)
        for item in items:
            yield csv_line([getattr(item, column) for column in EXPORT_COLUMNS])
        if next_before is None:
            return
        page = page.model_copy(update={"before_id": next_before})


def host_changes(
    session: Session, actor: Actor, project: Project, name: str, filters: HostChangeFilters
) -> HostChangePage:
    """The task results that changed host ``name``, newest first (a loop's result once), in
    the runs the actor may see; 404 for a host the project does not know."""
    require_known(session, project, name)
    conditions: list[ColumnElement[bool]] = [
        RunHost.host == name,
        RunHost.changed > 0,
        Run.project_id == project.id,
        visible_runs(actor),
        RunEvent.changed.is_(True),
        RunEvent.event == "runner_on_ok",
    ]
    if filters.before_run_id is not None:
        before = filters.before_run_id
        counter = filters.before_counter
        conditions.append(
            RunEvent.run_id < before
            if counter is None
            else or_(
                RunEvent.run_id < before,
                and_(RunEvent.run_id == before, RunEvent.counter < counter),
            )
        )
    rows = session.execute(
        select(RunEvent, Template.name, Run.template_snapshot)
        .select_from(RunHost)
        .join(Run, Run.id == RunHost.run_id)
        .join(RunEvent, and_(RunEvent.run_id == RunHost.run_id, RunEvent.host == RunHost.host))
        .outerjoin(Template, Template.id == Run.template_id)
        .where(*conditions)
        .order_by(RunEvent.run_id.desc(), RunEvent.counter.desc())
        .limit(filters.limit + 1)
    ).all()
    items = [
        HostChange(
            run_id=event.run_id,
            counter=event.counter,
            template=template or str(snapshot.get("name", "")),
            play=event.play,
            task=event.task,
            task_action=event.task_action,
            role=event.role,
            ended_at=event.ended_at,
            duration=event.duration,
        )
        for event, template, snapshot in rows[: filters.limit]
    ]
    more = len(rows) > filters.limit
    return HostChangePage(
        items=items,
        next_before_run_id=items[-1].run_id if more else None,
        next_before_counter=items[-1].counter if more else None,
    )
