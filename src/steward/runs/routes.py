from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query, status
from fastapi.responses import Response, StreamingResponse

from steward.access.policy import Action, require_run_label
from steward.api import bodies, conditional, deps
from steward.api.downloads import attachment
from steward.bounds import POSITION_MAX
from steward.runs import output, relaunch, schemas, service, story, waiting
from steward.runs.models import LaunchType, Run, RunKind
from steward.runs.status import RunStatus
from steward.templates.launch import LaunchOverrides

router = APIRouter(prefix="/projects/{project_id}/runs", tags=["runs"])
all_runs = APIRouter(prefix="/runs", tags=["runs"])


def _acted_on(action: Action) -> Callable[..., Awaitable[Run]]:
    """A visible run on whose template the caller may also do ``action`` (403 otherwise)."""

    async def check(run: deps.ViewedRun, rights: deps.AccessDep) -> Run:
        rights.require_on_template(run.template_id, action)
        return run

    return check


CanceledRun = Annotated[Run, Depends(_acted_on(Action.RUN_CANCEL))]


def _relaunched(run: deps.ViewedRun, rights: deps.AccessDep, session: deps.SessionDep) -> Run:
    """A visible run whose template the caller may launch (the launch gate's own check,
    ``service.launchable``), answered before the body is: 404, 403 naming the permission;
    an ad-hoc run: adhoc:run in the project (``runs.adhoc``)."""
    if run.kind == RunKind.ADHOC:
        rights.require(Action.ADHOC_RUN)
    else:
        service.relaunched_template(session, rights, run)
    return run


RelaunchedRun = Annotated[Run, Depends(_relaunched)]


async def _labelled(run: deps.ViewedRun, rights: deps.AccessDep) -> Run:
    """A visible run the caller may label (``policy.require_run_label``, which
    ``service.set_label`` asks too), answered before the body is: 404, 403."""
    require_run_label(rights, run)
    return run


LabelledRun = Annotated[Run, Depends(_labelled)]


def _read(
    run: Run,
    template: str,
    user: str,
    waiting: str | None = None,
    counts: schemas.HostCounts | None = None,
) -> schemas.RunRead:
    return schemas.RunRead.model_validate(run).model_copy(
        update={
            "template_name": template,
            "launched_by": user,
            "waiting_reason": waiting,
            "host_counts": counts,
        }
    )


def _page(
    session: deps.SessionDep,
    rt: deps.RuntimeDep,
    rows: list[dict[str, Any]],
    next_before: int | None,
) -> schemas.RunPage:
    """A page of runs as ``service.list_runs`` selected them: each validated once, columns
    and names and counts together (no ORM row, no copy)."""
    queued = [
        waiting.Queued(r["id"], r["project_id"], r["runner_group"], r["status"])
        for r in rows
        if r["status"] == RunStatus.QUEUED
    ]
    why = waiting.reasons(session, queued, rt.settings)
    counts = story.host_counts(session, [r["id"] for r in rows])
    items = [
        schemas.RunRead.model_validate(
            row | {"waiting_reason": why.get(row["id"]), "host_counts": counts.get(row["id"])}
        )
        for row in rows
    ]
    return schemas.RunPage(items=items, next_before_id=next_before)


@all_runs.get("", response_model=schemas.RunPage)
def list_all_runs(
    session: deps.SessionDep,
    actor: deps.ActorDep,
    rt: deps.RuntimeDep,
    filters: Annotated[schemas.RunFilters, Query()],
) -> Response:
    """Runs of every project the caller may see, newest first (the dashboard)."""
    rows, next_before = service.list_runs(session, actor, filters)
    return bodies.json_body(_page(session, rt, rows, next_before))


@router.get("", response_model=schemas.RunPage)
def list_runs(
    rights: deps.AccessDep,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    rt: deps.RuntimeDep,
    filters: Annotated[schemas.RunFilters, Query()],
) -> Response:
    """The runs of the project the caller may see (of every template, or of those granted)."""
    rows, next_before = service.list_runs(session, actor, filters, rights.project)
    return bodies.json_body(_page(session, rt, rows, next_before))


@router.post("", status_code=status.HTTP_201_CREATED, response_model=schemas.RunRead)
def launch_run(body: schemas.RunCreate, launching: deps.LaunchingDep) -> Response:
    """Queue a run of a template, with the overrides and survey answers the template allows."""
    session, trigger = launching.session, service.Trigger(LaunchType(body.launch_type))
    request = service.Launch(
        launching.rights,
        launching.actor,
        body.template_id,
        body,
        trigger,
        freeze_override_reason=body.freeze_override_reason,
    )
    run = service.launch_now(session, request, cipher=launching.cipher, queue=launching.queue)
    read = _read(run, *service.names_at_launch(run, launching.actor))
    return bodies.json_body(read, status.HTTP_201_CREATED)


@router.get("/{run_id}", response_model=schemas.RunRead, responses=conditional.NOT_MODIFIED_DOC)
async def read_run(answer: deps.ViewedRunAnswer) -> Response:
    """With ``refs``: the names of the repository, inventory, environment and keys it used
    (key names only for who may see the project's keys); queued, why it is still waiting;
    ``story``: how it went (first failure with its message and log line, who canceled it, the
    hosts that did not finish).

    Its ``ETag`` changes with the run (status, output and events, label, its plan's approval,
    names): poll with ``If-None-Match`` and an unchanged run is a 304 with no body, at a
    fraction of the cost. Renaming a repository, inventory or key shows in ``refs`` at the
    run's next change. To follow a run, ``/stream`` (or ``steward run --follow``) is better."""
    if answer.read is None:
        return conditional.not_modified(answer.tag)
    return conditional.tagged_json(answer.read, answer.tag)


@router.patch("/{run_id}")
def label_run(
    run: LabelledRun,
    body: schemas.RunLabelUpdate,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    actor: deps.ActorDep,
) -> schemas.RunRead:
    """Set the run's label ("baseline", "TDE on") and note, shown in the runs list, on its page
    and when compared: for who may launch its template (run:launch); audited."""
    run = service.set_label(session, rights, actor, run, body)
    return _read(run, *service.names(session, run))


@router.post("/{run_id}/cancel", status_code=status.HTTP_202_ACCEPTED)
def cancel_run(
    run: CanceledRun,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    queue: deps.QueueDep,
) -> schemas.RunRead:
    """Graceful: SIGTERM to ansible-playbook, then the whole process tree is killed."""
    run = service.cancel(session, queue, rights.project, actor, run.id)
    return _read(run, *service.names(session, run))


@router.get("/{run_id}/relaunch")
def read_relaunch_values(
    previous: RelaunchedRun,
    rights: deps.AccessDep,
    session: deps.SessionDep,
    cipher: deps.CipherDep,
) -> schemas.RelaunchValues:
    """The launch values a relaunch of this run starts from (to prefill its dialog), restricted
    to what the run's template lets a launch override, and the run's failed hosts."""
    template = service.relaunched_template(session, rights, previous)
    before = relaunch.previous(cipher, previous, template)
    failed = relaunch.failed_hosts(session, previous)
    return schemas.RelaunchValues(
        launch=before.shown(),
        kept_secrets=sorted(before.secrets),
        overridable=list(template.overridable),
        failed_hosts=failed[: schemas.FAILED_HOSTS_SHOWN],
        failed_host_count=len(failed),
    )


@router.post("/{run_id}/relaunch", status_code=status.HTTP_201_CREATED)
def relaunch_run(
    previous: RelaunchedRun,
    body: schemas.RelaunchRequest,
    launching: deps.LaunchingDep,
    rt: deps.RuntimeDep,
) -> schemas.RunRead:
    """Launch the run's template again with the run's launch values; the fields given replace
    them, checked like a launch. ``hosts: failed`` limits it to the failed and unreachable
    hosts (409 when there are none)."""
    overrides = LaunchOverrides.model_validate(
        body.model_dump(exclude={"hosts", "freeze_override_reason"})
    )
    run = service.relaunch(
        launching.session,
        rights=launching.rights,
        actor=launching.actor,
        previous=previous,
        overrides=overrides,
        failed_only=body.hosts == "failed",
        cipher=launching.cipher,
        queue=launching.queue,
        adhoc_modules=rt.settings.adhoc_modules,
        freeze_override_reason=body.freeze_override_reason,
    )
    return _read(run, *service.names(launching.session, run))


@router.get("/{run_id}/lines", response_model=schemas.LinePage)
def read_lines(
    run: deps.ViewedRun, session: deps.SessionDep, filters: Annotated[schemas.LineFilters, Query()]
) -> Response:
    """Output lines in order, paged by line number, optionally filtered."""
    rows = output.lines(session, run, filters)
    # serialized directly: validating 10,000 line objects twice would cost 5x the query
    page = {
        "items": [{"line_no": n, "counter": c, "text": t} for n, c, t in rows],
        "line_count": run.line_count,
        "status": run.status,
        "next_after": rows[-1][0] if len(rows) == filters.limit else None,
    }
    return Response(json.dumps(page), media_type="application/json")


@router.get("/{run_id}/events")
def read_events(
    run: deps.ViewedRun, session: deps.SessionDep, filters: Annotated[schemas.EventFilters, Query()]
) -> schemas.EventPage:
    rows = output.events(session, run, filters)
    return schemas.EventPage(
        items=[schemas.EventRead.model_validate(e) for e in rows],
        next_after=rows[-1].counter if len(rows) == filters.limit else None,
    )


@router.get("/{run_id}/hosts")
def read_hosts(
    run: deps.ViewedRun, session: deps.SessionDep, page: Annotated[schemas.HostParams, Query()]
) -> list[schemas.HostRecap]:
    """Per-host recap (ok/changed/failed/unreachable/…), failed hosts first, then by name.

    Paged by ``limit`` (default and maximum 10,000 hosts) and ``offset``: a page shorter than
    ``limit`` is the last one."""
    return output.hosts(session, run, page)


@router.get("/{run_id}/timeline")
def read_timeline(
    run: deps.ViewedRun, session: deps.SessionDep, page: Annotated[schemas.TimelineParams, Query()]
) -> list[schemas.TimelineEntry]:
    """Every task result per host with start, end and duration, in event order.

    Paged by ``limit`` (default and maximum 10,000 results) and ``after``: pass the last
    entry's ``counter`` as ``after`` for the next page; a page shorter than ``limit`` is the
    last one."""
    return output.timeline(session, run, page)


@router.get(
    "/{run_id}/output",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/plain": {}}}},
)
def download_output(
    run: deps.ViewedRun, rt: deps.RuntimeDep, ansi: bool = False
) -> StreamingResponse:
    """The whole output as text; ANSI colour codes stripped unless ansi=true."""
    return attachment(
        output.text(rt.sessions, run.id, strip_ansi=not ansi),
        "text/plain; charset=utf-8",
        f"run-{run.id}.log",
    )


@router.get(
    "/{run_id}/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
def stream_output(
    run: deps.ViewedRun,
    rt: deps.RuntimeDep,
    after: Annotated[int, Query(ge=-1, le=POSITION_MAX)] = -1,
    events_after: Annotated[
        int | None,
        Query(
            ge=-1,
            le=POSITION_MAX,
            description="also send the run's progress (``events`` messages: play and task"
            " starts, host results, the recap) after this event counter; -1: from the start",
        ),
    ] = None,
    last_event_id: Annotated[int | None, Header(ge=-1, le=POSITION_MAX)] = None,
) -> StreamingResponse:
    """Live output (Server-Sent Events) from line ``after`` (or Last-Event-ID on reconnect):
    ``lines``, ``status`` (with ``host_quiet_seconds``: when the console flags a host that has
    been on one task that long), ``end``; with ``events_after``, ``events`` too."""
    start = last_event_id if last_event_id is not None else after
    # Celery mode: the run's recorder is in a worker and rings no bell in this process
    quiet = (
        output.STREAM_INTERVAL_SECONDS if rt.settings.broker_url else output.STREAM_QUIET_SECONDS
    )
    return StreamingResponse(
        output.stream(
            rt.sessions,
            run.id,
            start,
            events_after=events_after,
            host_quiet_seconds=rt.settings.host_quiet_minutes * 60,
            quiet=quiet,
        ),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
