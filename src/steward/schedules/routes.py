from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Depends, Query, status

from steward.access.policy import Action
from steward.api.deps import (
    AccessDep,
    ActorDep,
    CipherDep,
    PageQuery,
    Previewing,
    RuntimeDep,
    SessionDep,
    TriggerTemplate,
    ViewedTemplate,
)
from steward.schedules import service
from steward.schedules.models import Schedule
from steward.schedules.schemas import (
    DraftPreview,
    PreviewParams,
    ScheduleCreate,
    SchedulePreview,
    ScheduleRead,
    ScheduleTargetCreate,
    ScheduleUpdate,
)
from steward.schemas import Page
from steward.triggers import targets
from steward.triggers.schemas import TargetFilter, TargetKind

router = APIRouter(prefix="/projects/{project_id}", tags=["schedules"])


def _viewed(schedule_id: int, rights: AccessDep, session: SessionDep) -> Schedule:
    """Seen with template:view on its template (one of a deleted template: project-wide), or
    workflow:view for a workflow's."""
    return service.get(session, rights.project, schedule_id, seen=targets.seen_by(rights))


ViewedSchedule = Annotated[Schedule, Depends(_viewed)]


def _edited(schedule: ViewedSchedule, rights: AccessDep) -> Schedule:
    """template:write on its template; workflow:write for a workflow's."""
    if schedule.target_kind == TargetKind.WORKFLOW:
        rights.require(Action.WORKFLOW_WRITE)
    else:
        rights.require_on_template(schedule.template_id, Action.TEMPLATE_WRITE)
    return schedule


EditedSchedule = Annotated[Schedule, Depends(_edited)]


def _min_interval(runtime: RuntimeDep) -> dt.timedelta:
    return dt.timedelta(seconds=runtime.settings.schedule_min_interval_seconds)


MinInterval = Annotated[dt.timedelta, Depends(_min_interval)]


def _saver(
    rights: AccessDep, actor: ActorDep, cipher: CipherDep, min_interval: MinInterval
) -> service.Saver:
    """The caller, who becomes the owner of the schedule they save."""
    return service.Saver(rights, actor, cipher, min_interval)


SaverDep = Annotated[service.Saver, Depends(_saver)]


def _read(schedule: Schedule) -> ScheduleRead:
    names = {
        "template_name": schedule.template.name if schedule.template else "",
        "workflow_name": schedule.workflow.name if schedule.workflow else "",
        "owner_name": schedule.owner.username if schedule.owner else "",
    }
    return ScheduleRead.model_validate(schedule).model_copy(update=names)


@router.get("/templates/{template_id}/schedules")
def list_template_schedules(
    template: ViewedTemplate,
    rights: AccessDep,
    session: SessionDep,
    page: PageQuery,
) -> Page[ScheduleRead]:
    rows, total = service.list_for_project(
        session, rights.project, seen=targets.EVERY, template_id=template.id, **page.model_dump()
    )
    return Page.of([_read(s) for s in rows], total, page)


@router.post("/templates/{template_id}/schedules", status_code=status.HTTP_201_CREATED)
def create_schedule(
    template: TriggerTemplate, body: ScheduleCreate, session: SessionDep, saver: SaverDep
) -> ScheduleRead:
    """Needs template:write on the template. The caller becomes the schedule's owner: it
    launches with the owner's rights, so the owner must hold run:launch on the template, now
    and at every occurrence (else Steward disables the schedule and says why). The launch
    values are checked like a manual launch."""
    created = service.create(session, saver, template, body)
    return _read(created)


@router.post("/schedules", status_code=status.HTTP_201_CREATED)
def create_targeted_schedule(
    body: ScheduleTargetCreate, session: SessionDep, saver: SaverDep
) -> ScheduleRead:
    """A schedule of a template (``template_id``, template:write on it) or of a workflow
    (``workflow_id``, workflow:write): exactly one. The caller becomes the owner and must hold
    run:launch on the template, or on every template node of the workflow, now and at every
    occurrence (else Steward disables the schedule and says why). A workflow's schedule takes
    no launch values (its nodes carry their own)."""
    target = targets.target_of(session, saver.rights, body, kind="schedule")
    created = service.create(session, saver, target, body)
    return _read(created)


@router.get("/schedules")
def list_schedules(
    rights: AccessDep,
    session: SessionDep,
    page: PageQuery,
    only: Annotated[TargetFilter, Query()],
) -> Page[ScheduleRead]:
    """The schedules of every template and workflow the caller may see, by name (those of
    one template or one workflow when asked)."""
    seen = targets.seen_by(rights)
    rows, total = service.list_for_project(
        session, rights.project, seen=seen, **only.model_dump(), **page.model_dump()
    )
    return Page.of([_read(s) for s in rows], total, page)


@router.post("/schedules/preview", dependencies=[Previewing])
def preview_draft(
    body: DraftPreview, _rights: AccessDep, min_interval: MinInterval
) -> SchedulePreview:
    """The next occurrences of a recurrence not saved yet (what the schedule form shows while
    it is typed); a 422 names the field exactly as saving it would. Reads nothing of the
    project: whoever sees the project may ask."""
    return service.preview_draft(body, min_interval=min_interval)


@router.get("/schedules/{schedule_id}")
def read_schedule(schedule: ViewedSchedule) -> ScheduleRead:
    return _read(schedule)


@router.patch("/schedules/{schedule_id}")
def update_schedule(
    schedule: EditedSchedule, body: ScheduleUpdate, session: SessionDep, saver: SaverDep
) -> ScheduleRead:
    """Only the fields sent change. The caller becomes the owner (see create)."""
    updated = service.update(session, saver, schedule, body)
    return _read(updated)


@router.delete("/schedules/{schedule_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_schedule(schedule: EditedSchedule, session: SessionDep, actor: ActorDep) -> None:
    """Refused (409) while a run it launched is queued or running (the run keeps saying
    which schedule launched it); disable it instead, then delete it."""
    service.delete(session, schedule, actor=actor)


@router.get("/schedules/{schedule_id}/preview", dependencies=[Previewing])
def preview_schedule(
    schedule: ViewedSchedule, params: Annotated[PreviewParams, Query()]
) -> SchedulePreview:
    """The next occurrences from now, each in UTC, in the schedule's zone and in the
    viewer's (``viewer_tz``)."""
    return service.preview(schedule, params)
