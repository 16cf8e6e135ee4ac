"""Health checks of a project's hosts, where Ansible connects to them (``probe``, ``targets``):
kept as history (``HostCheck``) and as each host's latest (``HostHealth``), read per host and
counted per inventory ("2 of 40 unreachable now").

Three callers: the periodic sweep (``sweep``: every inventory, by one server per interval), a
person asking now (``check_now``: one host or one inventory), and a run's pre-flight
(``execution.preflight``). Every connection goes through the health guard (``guard``): the
outbound rules, with ``STEWARD_HEALTH_ALLOWED_NETWORKS`` allowed too.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import and_, delete, func, select, update
from sqlalchemy.orm import Session

from steward.auth.throttle import Rate
from steward.config import Settings
from steward.db import insert_of, paged_rows, utcnow
from steward.errors import NotFound
from steward.health import checks, probe
from steward.health.models import (
    FAILING,
    HealthSweep,
    HostCheck,
    HostHealth,
    RunPreflightHost,
    Status,
    Trigger,
)
from steward.health.schemas import (
    HealthCheckRead,
    HealthLatest,
    HostHealthRead,
    InstanceHealth,
    InstanceHealthFilters,
    InstanceHostHealth,
    PreflightHostRead,
)
from steward.hosts.service import require_known
from steward.inventories import service as inventories
from steward.inventories.models import Inventory, InventoryHost
from steward.projects.models import Project

HISTORY_MAX = 500  # checks a host's read carries, newest first
SWEEP = "periodic"


def check_now(
    session: Session,
    settings: Settings,
    project: Project,
    *,
    inventory: Inventory | None = None,
    host: str | None = None,
    counted: Rate | None = None,
) -> list[HealthLatest]:
    """Check one host (in every inventory of the project that lists it) or one inventory now;
    kept like any check. ``counted``: the project's checks per minute (429 past it), taken once
    the host is known. Commits."""
    if host is not None:
        require_known(session, project, host)
    if counted is not None:
        counted.take(project.id)
    inventories.keep_unread_hosts(session, project.id)
    found, projects = checks.listed_targets(
        session,
        project_id=project.id,
        inventory_id=inventory.id if inventory is not None else None,
        host=host,
    )
    if host is not None and not found:
        raise NotFound(f"host '{host}' is in no inventory of project '{project.name}'")
    at = utcnow()
    results = checks.run_checks(found, settings)
    checks.record(session, results, projects, Trigger.MANUAL, at=at)
    session.commit()
    names = _inventory_names(session, projects)
    return [_latest(names, r, at) for r in results]


def _inventory_names(session: Session, projects: dict[int, int]) -> dict[int, str]:
    if not projects:
        return {}
    rows = session.execute(select(Inventory.id, Inventory.name).where(Inventory.id.in_(projects)))
    return {inventory_id: name for inventory_id, name in rows}


def _latest(names: dict[int, str], result: probe.Result, at: dt.datetime) -> HealthLatest:
    return HealthLatest(
        inventory_id=result.key[0],
        inventory=names.get(result.key[0], ""),
        host=result.key[1],
        checked_at=at,
        status=result.status,
        unreachable=result.status in FAILING,
        tcp_ms=result.tcp_ms,
        banner_ms=result.banner_ms,
        reason=result.reason,
    )


def host_health(
    session: Session, project: Project, host: str, *, since: dt.datetime | None = None
) -> HostHealthRead:
    """A host's latest check in each inventory of the project that lists it, and its checks
    newest first (at most ``HISTORY_MAX``, since ``since``); 404 for a host the project does
    not know."""
    require_known(session, project, host)
    latest = session.execute(
        select(HostHealth, Inventory.name)
        .join(Inventory, Inventory.id == HostHealth.inventory_id)
        .join(
            InventoryHost,
            and_(
                InventoryHost.inventory_id == HostHealth.inventory_id,
                InventoryHost.name == HostHealth.host,
            ),
        )
        .where(Inventory.project_id == project.id, HostHealth.host == host)
        .order_by(Inventory.name)
    ).all()
    history = select(HostCheck, Inventory.name).join(
        Inventory, Inventory.id == HostCheck.inventory_id
    )
    history = history.where(HostCheck.project_id == project.id, HostCheck.host == host)
    if since is not None:
        history = history.where(HostCheck.checked_at >= since)
    rows = session.execute(
        history.order_by(HostCheck.checked_at.desc(), HostCheck.id.desc()).limit(HISTORY_MAX)
    ).all()
    return HostHealthRead(
        host=host,
        latest=[_shown(HealthLatest, row, name, host=host) for row, name in latest],
        history=[
            _shown(HealthCheckRead, row, name, trigger=Trigger(row.trigger)) for row, name in rows
        ],
    )


def instance_health(session: Session, filters: InstanceHealthFilters) -> InstanceHealth:
    """Every project's hosts' health, for admins: the counts across the instance ("N of M
    unreachable now": a host counts once per inventory that lists it, as each inventory
    counts it), the periodic pass, and a page of the hosts (failing ones by default)."""
    inventories.keep_unread_hosts(session, None)
    hosts = session.scalar(select(func.count()).select_from(InventoryHost)) or 0
    listed = and_(
        InventoryHost.inventory_id == HostHealth.inventory_id,
        InventoryHost.name == HostHealth.host,
    )
    failing = HostHealth.status.in_(sorted(FAILING))
    counted = session.execute(
        select(func.count(), func.count().filter(failing))
        .select_from(HostHealth)
        .join(InventoryHost, listed)
    ).one()
    latest = (
        select(HostHealth, Inventory.name, Project.id, Project.name)
        .join(Inventory, Inventory.id == HostHealth.inventory_id)
        .join(Project, Project.id == Inventory.project_id)
        .join(InventoryHost, listed)
    )
    shown = latest.where(failing) if filters.failing else latest
    rows, total = paged_rows(
        session,
        shown.order_by(Project.name, Inventory.name, HostHealth.host),
        limit=filters.limit,
        offset=filters.offset,
    )
    pass_ = session.get(HealthSweep, SWEEP)
    return InstanceHealth(
        hosts=hosts,
        checked=counted[0] or 0,
        unreachable=int(counted[1] or 0),
        sweep_started_at=pass_.started_at if pass_ else None,
        sweep_finished_at=pass_.finished_at if pass_ else None,
        sweep_hosts=pass_.hosts if pass_ else 0,
        items=[
            _shown(
                InstanceHostHealth,
                row,
                inventory,
                host=row.host,
                project_id=project_id,
                project=project,
            )
            for row, inventory, project_id, project in rows
        ],
        total=total,
        limit=filters.limit,
        offset=filters.offset,
    )


def _shown[M: (HealthLatest, HealthCheckRead, InstanceHostHealth)](
    model: type[M], row: HostHealth | HostCheck, inventory: str, **more: Any
) -> M:
    return model(
        inventory_id=row.inventory_id,
        inventory=inventory,
        checked_at=row.checked_at,
        status=Status(row.status),
        unreachable=row.status in FAILING,
        tcp_ms=row.tcp_ms,
        banner_ms=row.banner_ms,
        reason=row.reason,
        **more,
    )


def claim_sweep(session: Session, interval: float, now: dt.datetime | None = None) -> bool:
    """Whether this process runs the periodic pass now: the one whose conditional UPDATE moves
    ``next_at`` past now (several servers, one database: one of them). Commits."""
    now = now or utcnow()
    if session.get(HealthSweep, SWEEP) is None:
        session.execute(
            insert_of(session)(HealthSweep)
            .values(name=SWEEP, next_at=now, hosts=0)
            .on_conflict_do_nothing(index_elements=[HealthSweep.name])
        )
        session.commit()
    claimed = session.execute(
        update(HealthSweep)
        .where(HealthSweep.name == SWEEP, HealthSweep.next_at <= now)
        .values(next_at=now + dt.timedelta(seconds=interval), started_at=now)
        .execution_options(synchronize_session=False)
    )
    session.commit()
    return bool(getattr(claimed, "rowcount", 0) == 1)


def sweep(session: Session, settings: Settings) -> int:
    """The periodic pass, when this process claims it: every inventory's hosts (as last read)
    checked; how many (0 when another server has it or it is not due). Commits."""
    if settings.health_interval_seconds <= 0:
        return 0
    if not claim_sweep(session, settings.health_interval_seconds):
        return 0
    inventories.keep_unread_hosts(session, None)
    found, projects = checks.listed_targets(session)
    at = utcnow()
    results = checks.run_checks(found, settings)
    checks.record(session, results, projects, Trigger.PERIODIC, at=at)
    session.execute(
        update(HealthSweep)
        .where(HealthSweep.name == SWEEP)
        .values(finished_at=utcnow(), hosts=len(results))
    )
    session.commit()
    return len(results)


def prune(session: Session, days: int) -> int:
    """History older than ``days`` removed (the latest of each host stays); how many rows.
    Commits."""
    cutoff = utcnow() - dt.timedelta(days=days)
    removed = session.execute(delete(HostCheck).where(HostCheck.checked_at < cutoff))
    session.commit()
    return int(getattr(removed, "rowcount", 0) or 0)


def preflight_hosts(session: Session, run_id: int) -> list[PreflightHostRead]:
    rows = session.scalars(
        select(RunPreflightHost)
        .where(RunPreflightHost.run_id == run_id)
        .order_by(RunPreflightHost.host)
    )
    return [PreflightHostRead.model_validate(row) for row in rows]
