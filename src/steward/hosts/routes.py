from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import StreamingResponse

from steward.access.actor import Actor
from steward.access.policy import require_admin
from steward.api.deps import ActorDep, ResourceView, RuntimeDep, SessionDep
from steward.api.downloads import attachment
from steward.bounds import HOST_NAME_MAX, Id
from steward.hosts import factread, hostmetrics, schemas, service
from steward.runs.schemas import RunFilters
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/hosts", tags=["hosts"])
instance = APIRouter(prefix="/hosts", tags=["hosts"])

HostName = Annotated[str, Path(min_length=1, max_length=HOST_NAME_MAX)]


def _admin_reader(actor: ActorDep) -> Actor:
    require_admin(actor, write=False)
    return actor


@instance.get("")
def list_all_hosts(
    session: SessionDep,
    _actor: Annotated[Actor, Depends(_admin_reader)],
    filters: Annotated[schemas.HostFilters, Query()],
) -> Page[schemas.HostSummary]:
    """The hosts of every project (admins): by name, then project."""
    items, total = service.list_hosts(session, filters, None)
    return Page.of(items, total, filters)


@router.get("")
def list_hosts(
    project: ResourceView, session: SessionDep, filters: Annotated[schemas.HostFilters, Query()]
) -> Page[schemas.HostSummary]:
    """Every host of the project's inventories (as last read) and of its runs, by name;
    searchable by name, group and inventory variable. For who may see the project's
    inventories."""
    items, total = service.list_hosts(session, filters, project)
    return Page.of(items, total, filters)


@router.get("/{host}")
def read_host(project: ResourceView, session: SessionDep, host: HostName) -> schemas.HostDetail:
    """Where the project's inventories list the host (groups, variables masked) and what its
    runs saw (first and last run, the last outcome)."""
    return service.read_host(session, project, host)


@router.get("/{host}/runs")
def host_runs(
    project: ResourceView,
    session: SessionDep,
    actor: ActorDep,
    host: HostName,
    filters: Annotated[RunFilters, Query()],
) -> schemas.HostRunPage:
    """The runs that reached the host, newest first, with how each went on it: the runs list's
    filters (dates, template, launcher, status, answers; ``host`` is the path's)."""
    items, next_before = service.host_runs(session, actor, project, host, filters)
    return schemas.HostRunPage(items=items, next_before_id=next_before)


@router.get(
    "/{host}/runs.csv",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}}}},
)
def export_host_runs(
    project: ResourceView,
    session: SessionDep,
    actor: ActorDep,
    rt: RuntimeDep,
    host: HostName,
    filters: Annotated[RunFilters, Query()],
) -> StreamingResponse:
    """``/runs`` as CSV, every page: "what ran on this host between two dates, by whom"."""
    # its first row now: an unknown host (404) or a filter refused (422) before the download
    service.host_runs(session, actor, project, host, filters.model_copy(update={"limit": 1}))

    def body() -> Iterator[bytes]:
        with rt.sessions() as session:
            for line in service.export_runs(session, actor, project, host, filters):
                yield line.encode()

    return attachment(body(), "text/csv", "steward-host-runs.csv")


@router.get("/{host}/changes")
def host_changes(
    project: ResourceView,
    session: SessionDep,
    actor: ActorDep,
    host: HostName,
    filters: Annotated[schemas.HostChangeFilters, Query()],
) -> schemas.HostChangePage:
    """The tasks that changed the host, newest first, in the runs the caller may see."""
    return service.host_changes(session, actor, project, host, filters)


@router.get("/{host}/facts")
def host_facts(
    project: ResourceView,
    session: SessionDep,
    host: HostName,
    query: Annotated[schemas.FactsQuery, Query()],
) -> schemas.FactsRead:
    """The facts runs gathered on the host, merged as Ansible's fact cache merges them, masked
    and bounded; ``point``: as they were at a point of their history."""
    return factread.current(session, project, host, query.point)


@router.get("/{host}/facts/history")
def host_facts_history(
    project: ResourceView,
    session: SessionDep,
    host: HostName,
    filters: Annotated[schemas.FactsHistoryFilters, Query()],
) -> schemas.FactPointPage:
    """The points where the host's facts changed, newest first, with the run that gathered
    them and what changed since the point before."""
    return factread.history(session, project, host, filters)


@router.get("/{host}/facts/diff")
def host_facts_diff(
    project: ResourceView,
    session: SessionDep,
    host: HostName,
    from_id: Annotated[Id, Query(alias="from", description="a point of the host's facts")],
    to_id: Annotated[Id, Query(alias="to", description="another point")],
) -> schemas.FactDiff:
    """What changed between two points of the host's facts: added, removed and changed facts
    by dotted path, and a one-line summary."""
    return factread.compare(session, project, host, from_id, to_id)


@router.get("/{host}/metrics")
def host_metrics(
    project: ResourceView,
    session: SessionDep,
    actor: ActorDep,
    host: HostName,
    query: Annotated[schemas.HostMetricsQuery, Query()],
) -> schemas.HostMetrics:
    """The host's metrics per run, oldest first: for each of the newest ``limit`` runs (created
    between ``since`` and ``until``) that sampled it and the caller may see, its CPU mean and
    peak, memory peak, disk and network mean rates, and time without samples."""
    return hostmetrics.host_metrics(session, actor, project, host, query)
