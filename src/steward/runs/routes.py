from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, status
from fastapi.responses import StreamingResponse

from steward.api.deps import (
    ActorDep,
    CipherDep,
    QueueDep,
    RunCancel,
    RunLaunch,
    RuntimeDep,
    RunView,
    SessionDep,
)
from steward.runs import output, service
from steward.runs.models import Run
from steward.runs.schemas import (
    EventFilters,
    EventPage,
    EventRead,
    HostRecap,
    LineFilters,
    LinePage,
    LineRead,
    RelaunchRequest,
    RunCreate,
    RunFilters,
    RunPage,
    RunRead,
    TimelineEntry,
)
from steward.runs.status import RunStatus

router = APIRouter(prefix="/projects/{project_id}/runs", tags=["runs"])
all_runs = APIRouter(prefix="/runs", tags=["runs"])


def _read(run: Run, template: str, user: str) -> RunRead:
    return RunRead.model_validate(run).model_copy(
        update={"template_name": template, "launched_by": user}
    )


@all_runs.get("")
def list_all_runs(
    session: SessionDep, actor: ActorDep, filters: Annotated[RunFilters, Query()]
) -> RunPage:
    """Runs of every project the caller may see, newest first (the dashboard)."""
    rows, next_before = service.list_runs(session, actor, filters)
    return RunPage(items=[_read(*row) for row in rows], next_before_id=next_before)


@router.get("")
def list_runs(
    project: RunView, session: SessionDep, actor: ActorDep, filters: Annotated[RunFilters, Query()]
) -> RunPage:
    rows, next_before = service.list_runs(session, actor, filters, project)
    return RunPage(items=[_read(*row) for row in rows], next_before_id=next_before)


@router.post("", status_code=status.HTTP_201_CREATED)
def launch_run(
    body: RunCreate,
    project: RunLaunch,
    session: SessionDep,
    actor: ActorDep,
    cipher: CipherDep,
    queue: QueueDep,
) -> RunRead:
    """Queue a run of a template, with the overrides and survey answers the template allows."""
    run = service.launch(session, cipher, queue, project, actor, body)
    return _read(run, *service.names(session, run))


@router.get("/{run_id}")
def read_run(run_id: int, project: RunView, session: SessionDep) -> RunRead:
    run = service.get(session, project, run_id)
    return _read(run, *service.names(session, run))


@router.post("/{run_id}/cancel", status_code=status.HTTP_202_ACCEPTED)
def cancel_run(
    run_id: int, project: RunCancel, session: SessionDep, actor: ActorDep, queue: QueueDep
) -> RunRead:
    """Graceful: SIGTERM to ansible-playbook, then the whole process tree is killed."""
    run = service.cancel(session, queue, project, actor, run_id)
    return _read(run, *service.names(session, run))


@router.post("/{run_id}/relaunch", status_code=status.HTTP_201_CREATED)
def relaunch_run(
    run_id: int,
    body: RelaunchRequest,
    project: RunLaunch,
    session: SessionDep,
    actor: ActorDep,
    queue: QueueDep,
) -> RunRead:
    run = service.relaunch(
        session, queue, project, actor, run_id, failed_only=body.hosts == "failed"
    )
    return _read(run, *service.names(session, run))


@router.get("/{run_id}/lines")
def read_lines(
    run_id: int, project: RunView, session: SessionDep, filters: Annotated[LineFilters, Query()]
) -> LinePage:
    """Output lines in order, paged by line number, optionally filtered."""
    run = service.get(session, project, run_id)
    rows = output.lines(session, run, filters)
    return LinePage(
        items=[LineRead.model_validate(r) for r in rows],
        line_count=run.line_count,
        status=RunStatus(run.status),
        next_after=rows[-1].line_no if len(rows) == filters.limit else None,
    )


@router.get("/{run_id}/events")
def read_events(
    run_id: int, project: RunView, session: SessionDep, filters: Annotated[EventFilters, Query()]
) -> EventPage:
    run = service.get(session, project, run_id)
    rows = output.events(session, run, filters)
    return EventPage(
        items=[EventRead.model_validate(e) for e in rows],
        next_after=rows[-1].counter if len(rows) == filters.limit else None,
    )


@router.get("/{run_id}/hosts")
def read_hosts(run_id: int, project: RunView, session: SessionDep) -> list[HostRecap]:
    """Per-host recap (ok/changed/failed/unreachable/…), failed hosts first."""
    run = service.get(session, project, run_id)
    return [HostRecap.model_validate(h) for h in output.hosts(session, run)]


@router.get("/{run_id}/timeline")
def read_timeline(run_id: int, project: RunView, session: SessionDep) -> list[TimelineEntry]:
    """Every task result per host with start, end and duration."""
    return output.timeline(session, service.get(session, project, run_id))


@router.get(
    "/{run_id}/output",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/plain": {}}}},
)
def download_output(
    run_id: int, project: RunView, session: SessionDep, rt: RuntimeDep, ansi: bool = False
) -> StreamingResponse:
    """The whole output as text; ANSI colour codes stripped unless ansi=true."""
    run = service.get(session, project, run_id)
    return StreamingResponse(
        output.text(rt.sessions, run.id, strip_ansi=not ansi),
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="run-{run.id}.log"'},
    )


@router.get(
    "/{run_id}/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
def stream_output(
    run_id: int,
    project: RunView,
    session: SessionDep,
    rt: RuntimeDep,
    after: Annotated[int, Query(ge=-1)] = -1,
    last_event_id: Annotated[int | None, Header()] = None,
) -> StreamingResponse:
    """Live output (Server-Sent Events) from line ``after`` (or Last-Event-ID on reconnect)."""
    run = service.get(session, project, run_id)
    start = last_event_id if last_event_id is not None else after
    return StreamingResponse(
        output.stream(rt.sessions, run.id, start),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
