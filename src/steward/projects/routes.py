from __future__ import annotations

from fastapi import APIRouter, status

from steward.access.policy import Action
from steward.api.deps import (
    AccessDep,
    ActorDep,
    AdminActor,
    MembersManage,
    MembersView,
    PageQuery,
    ProjectEdit,
    RootsDep,
    SessionDep,
)
from steward.projects import service
from steward.projects.models import Project
from steward.projects.schemas import (
    LocalRootsSet,
    MemberRead,
    MemberSet,
    ProjectCreate,
    ProjectRead,
    ProjectUpdate,
)
from steward.schemas import Page

router = APIRouter(prefix="/projects", tags=["projects"])


def _read(project: Project, actions: frozenset[Action]) -> ProjectRead:
    return ProjectRead.model_validate(project).model_copy(update={"permissions": sorted(actions)})


def _member(member: service.Member) -> MemberRead:
    role, user, team = member
    return MemberRead(
        user_id=user.id if user else None,
        username=user.username if user else None,
        team_id=team.id if team else None,
        team_name=team.name if team else None,
        role=role.role,
    )


@router.get("")
def list_projects(session: SessionDep, actor: ActorDep, page: PageQuery) -> Page[ProjectRead]:
    rows, total = service.list_visible(session, actor, limit=page.limit, offset=page.offset)
    items = [_read(p, actions) for p, actions in rows]
    return Page.of(items, total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_project(body: ProjectCreate, session: SessionDep, admin: AdminActor) -> ProjectRead:
    """Admins only; the creator becomes its owner."""
    return ProjectRead.model_validate(service.create(session, admin, body))


@router.get("/{project_id}")
def read_project(rights: AccessDep) -> ProjectRead:
    """Visible to members (directly or through a team) and to holders of a template grant."""
    return _read(rights.project, rights.actions)


@router.patch("/{project_id}")
def update_project(
    body: ProjectUpdate,
    project: ProjectEdit,
    session: SessionDep,
    actor: ActorDep,
    rights: AccessDep,
) -> ProjectRead:
    return _read(service.update(session, actor, project, body), rights.actions)


@router.put("/{project_id}/local-roots")
def set_local_roots(
    body: LocalRootsSet,
    rights: AccessDep,
    admin: AdminActor,
    session: SessionDep,
    roots: RootsDep,
) -> ProjectRead:
    """Admins only: the directories (each strictly inside STEWARD_LOCAL_REPOSITORY_ROOTS) where
    the project's local repositories and git ``file://`` URLs may be; audited."""
    project = service.set_local_roots(session, admin, rights.project, body, roots)
    return _read(project, rights.actions)


@router.delete("/{project_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_project(project: ProjectEdit, session: SessionDep, actor: ActorDep) -> None:
    service.delete(session, actor, project)


@router.get("/{project_id}/members")
def list_members(project: MembersView, session: SessionDep) -> list[MemberRead]:
    return [_member(m) for m in service.list_members(session, project)]


@router.put("/{project_id}/members")
def set_member(
    body: MemberSet, project: MembersManage, session: SessionDep, actor: ActorDep
) -> MemberRead:
    """Give a role to a user (``user_id``) or to a team (``team_id``), or change it."""
    return _member(service.set_member(session, actor, project, body))


@router.delete("/{project_id}/members/{user_id}", status_code=status.HTTP_204_NO_CONTENT)
def remove_member(
    user_id: int, project: MembersManage, session: SessionDep, actor: ActorDep
) -> None:
    service.remove_member(session, actor, project, user_id=user_id)


@router.delete("/{project_id}/members/teams/{team_id}", status_code=status.HTTP_204_NO_CONTENT)
def remove_team(team_id: int, project: MembersManage, session: SessionDep, actor: ActorDep) -> None:
    service.remove_member(session, actor, project, team_id=team_id)
