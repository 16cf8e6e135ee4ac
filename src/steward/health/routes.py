from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Path, Query

from steward.access.policy import require_admin
from steward.api.deps import (
    ActorDep,
    ResourceView,
    RuntimeDep,
    SessionDep,
    ViewedRun,
    viewed_object,
)
from steward.bounds import HOST_NAME_MAX
from steward.db import utcnow
from steward.health import service
from steward.health.schemas import (
    HealthCheckAnswer,
    HealthLatest,
    HealthQuery,
    HostHealthRead,
    InstanceHealth,
    InstanceHealthFilters,
    PreflightHostRead,
)
from steward.inventories.models import Inventory

router = APIRouter(prefix="/projects/{project_id}", tags=["health"])

HostName = Annotated[str, Path(min_length=1, max_length=HOST_NAME_MAX)]
ViewedInventory = Annotated[Inventory, viewed_object(Inventory, "inventory")]


@router.get("/hosts/{host}/health")
def host_health(
    project: ResourceView,
    session: SessionDep,
    host: HostName,
    query: Annotated[HealthQuery, Query()],
) -> HostHealthRead:
    """The host's latest check on the port Ansible uses (per inventory that lists it) and its
    checks of the last ``days``, newest first. For who may see the project's inventories."""
    since = utcnow() - dt.timedelta(days=query.days)
    return service.host_health(session, project, host, since=since)


def _answer(items: list[HealthLatest]) -> HealthCheckAnswer:
    return HealthCheckAnswer(
        checked=len(items), unreachable=sum(i.unreachable for i in items), items=items
    )


@router.post("/hosts/{host}/health")
def check_host(
    project: ResourceView, session: SessionDep, runtime: RuntimeDep, host: HostName
) -> HealthCheckAnswer:
    """Check the host now, in every inventory of the project that lists it (kept in its
    history). At most ``STEWARD_HEALTH_CHECKS_PER_MINUTE`` checks per project (429)."""
    checked = service.check_now(
        session, runtime.settings, project, host=host, counted=runtime.health_checks
    )
    return _answer(checked)


@router.post("/inventories/{inventory_id}/health")
def check_inventory(
    project: ResourceView,
    inventory: ViewedInventory,
    session: SessionDep,
    runtime: RuntimeDep,
) -> HealthCheckAnswer:
    """Check every host of the inventory now (as last read), ``STEWARD_HEALTH_CONCURRENCY`` at
    once. Counted like a host's check (429)."""
    checked = service.check_now(
        session, runtime.settings, project, inventory=inventory, counted=runtime.health_checks
    )
    return _answer(checked)


@router.get("/runs/{run_id}/preflight")
def run_preflight(run: ViewedRun, session: SessionDep) -> list[PreflightHostRead]:
    """The hosts the run's pre-flight (the template's ``preflight``) found failing, why, and
    whether the run left them out; for who may see the run."""
    return service.preflight_hosts(session, run.id)


instance = APIRouter(prefix="/hosts", tags=["health"])


@instance.get("/health")
def instance_health(
    session: SessionDep, actor: ActorDep, filters: Annotated[InstanceHealthFilters, Query()]
) -> InstanceHealth:
    """Every project's hosts' health (admins): "N of M unreachable now" across the instance,
    the periodic pass's last run, and the hosts whose latest check failed (``failing=false``:
    every checked host), by project, inventory and name. A read-scoped token is enough."""
    require_admin(actor, write=False)
    return service.instance_health(session, filters)
