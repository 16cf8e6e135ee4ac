"""Freeze windows: the instance's (everyone signed in reads them, admins keep them), a
project's (who sees the project reads them, who may edit it keeps them), what a template's
launch meets now, and what the dashboard shows."""

from __future__ import annotations

from fastapi import APIRouter, status
from sqlalchemy.orm import Session

from steward.access.policy import Action
from steward.api import deps
from steward.db import utcnow
from steward.freezes import service
from steward.freezes.schemas import (
    ActiveFreezes,
    FreezeStanding,
    FreezeWindowCreate,
    FreezeWindowRead,
    FreezeWindowUpdate,
)
from steward.projects.models import Project
from steward.schemas import Page, PageParams

router = APIRouter(prefix="/freezes", tags=["freezes"], dependencies=[deps.StoredPathIds])
project_router = APIRouter(prefix="/projects/{project_id}", tags=["freezes"])


@router.get("")
def list_instance_freezes(
    _actor: deps.ActorDep, session: deps.SessionDep, page: deps.PageQuery
) -> Page[FreezeWindowRead]:
    """The instance's freeze windows (every project's launches meet them)."""
    return _page(session, None, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_instance_freeze(
    body: FreezeWindowCreate, admin: deps.AdminActor, session: deps.SessionDep
) -> FreezeWindowRead:
    now = utcnow()
    return service.read(service.create(session, admin, None, body, now), now)


@router.get("/now")
def freezes_now(actor: deps.ActorDep, session: deps.SessionDep) -> list[FreezeStanding]:
    """The dashboard's: windows of the instance and of the projects the caller sees that
    hold now or start within 14 days."""
    return service.visible_now(session, actor, utcnow())


@router.patch("/{window_id}")
def update_instance_freeze(
    window_id: int, body: FreezeWindowUpdate, admin: deps.AdminActor, session: deps.SessionDep
) -> FreezeWindowRead:
    now = utcnow()
    window = service.get(session, window_id, None)
    return service.read(service.update(session, admin, window, body, now), now)


@router.delete("/{window_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_instance_freeze(
    window_id: int, admin: deps.AdminActor, session: deps.SessionDep
) -> None:
    service.delete(session, admin, service.get(session, window_id, None))


@project_router.get("/freezes")
def list_project_freezes(
    project: deps.ProjectView, session: deps.SessionDep, page: deps.PageQuery
) -> Page[FreezeWindowRead]:
    """The project's own freeze windows (the instance's: ``/freezes``)."""
    return _page(session, project, page)


@project_router.post("/freezes", status_code=status.HTTP_201_CREATED)
def create_project_freeze(
    body: FreezeWindowCreate,
    project: deps.ProjectEdit,
    actor: deps.ActorDep,
    session: deps.SessionDep,
) -> FreezeWindowRead:
    now = utcnow()
    return service.read(service.create(session, actor, project, body, now), now)


@project_router.patch("/freezes/{window_id}")
def update_project_freeze(
    window_id: int,
    body: FreezeWindowUpdate,
    project: deps.ProjectEdit,
    actor: deps.ActorDep,
    session: deps.SessionDep,
) -> FreezeWindowRead:
    now = utcnow()
    window = service.get(session, window_id, project)
    return service.read(service.update(session, actor, window, body, now), now)


@project_router.delete("/freezes/{window_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_project_freeze(
    window_id: int, project: deps.ProjectEdit, actor: deps.ActorDep, session: deps.SessionDep
) -> None:
    service.delete(session, actor, service.get(session, window_id, project))


@project_router.get("/templates/{template_id}/freezes")
def template_freezes(
    template: deps.ViewedTemplate, rights: deps.AccessDep, session: deps.SessionDep
) -> ActiveFreezes:
    """What a launch of the template meets now (windows without labels, and those naming one
    of the template's labels): the freeze holding (a launch needs freeze:override and a
    reason) and the next one to start within 14 days."""
    found = service.now_for(
        service.meeting(session, template.project_id, template.labels), utcnow()
    )
    return ActiveFreezes(
        active=found.active.standing(active=True) if found.active else None,
        coming=found.coming.standing(active=False) if found.coming else None,
        can_override=Action.FREEZE_OVERRIDE in rights.actions,
    )


def _page(session: Session, project: Project | None, page: PageParams) -> Page[FreezeWindowRead]:
    rows, total = service.list_windows(session, project, limit=page.limit, offset=page.offset)
    now = utcnow()
    return Page.of([service.read(w, now) for w in rows], total, page)
