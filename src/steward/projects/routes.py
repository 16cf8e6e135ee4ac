from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from steward.api.deps import ActorDep, MembersManage, ProjectEdit, ProjectView, SessionDep
from steward.api.schemas import Page, PageParams
from steward.projects import service
from steward.projects.schemas import (
    MemberRead,
    MemberSet,
    ProjectCreate,
    ProjectRead,
    ProjectUpdate,
)

router = APIRouter(prefix="/projects", tags=["projects"])


@router.get("")
def list_projects(
    session: SessionDep, actor: ActorDep, page: Annotated[PageParams, Query()]
) -> Page[ProjectRead]:
    rows, total = service.list_visible(session, actor, limit=page.limit, offset=page.offset)
    items = [ProjectRead.model_validate(p) for p in rows]
    return Page(items=items, total=total, limit=page.limit, offset=page.offset)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_project(body: ProjectCreate, session: SessionDep, actor: ActorDep) -> ProjectRead:
    return ProjectRead.model_validate(service.create(session, actor, body))


@router.get("/{project_id}")
def read_project(project: ProjectView) -> ProjectRead:
    return ProjectRead.model_validate(project)


@router.patch("/{project_id}")
def update_project(
    body: ProjectUpdate, project: ProjectEdit, session: SessionDep, actor: ActorDep
) -> ProjectRead:
    return ProjectRead.model_validate(service.update(session, actor, project, body))


@router.delete("/{project_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_project(project: ProjectEdit, session: SessionDep, actor: ActorDep) -> None:
    service.delete(session, actor, project)


@router.get("/{project_id}/members")
def list_members(project: ProjectView, session: SessionDep) -> list[MemberRead]:
    return [
        MemberRead(user_id=u.id, username=u.username, role=m.role)
        for m, u in service.list_members(session, project)
    ]


@router.put("/{project_id}/members")
def set_member(
    body: MemberSet, project: MembersManage, session: SessionDep, actor: ActorDep
) -> MemberRead:
    member, user = service.set_member(session, actor, project, body)
    return MemberRead(user_id=user.id, username=user.username, role=member.role)


@router.delete("/{project_id}/members/{user_id}", status_code=status.HTTP_204_NO_CONTENT)
def remove_member(
    user_id: int, project: MembersManage, session: SessionDep, actor: ActorDep
) -> None:
    service.remove_member(session, actor, project, user_id)
