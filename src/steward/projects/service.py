from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, project_actions, visible_projects
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.db import paged
from steward.errors import InvalidInput, InvalidState, NotFound
from steward.projects.models import Held, Project, ProjectMember, ProjectRole
from steward.projects.schemas import (
    HolderRef,
    LocalRootsSet,
    MemberSet,
    ProjectCreate,
    ProjectUpdate,
)
from steward.projects.scoped import changes_of, check_name_free, refuse_while_runs_active
from steward.repositories import local
from steward.runner_groups import service as runner_groups
from steward.runs.models import Run
from steward.teams.models import Team


def create(session: Session, actor: Actor, body: ProjectCreate) -> Project:
    """``actor``: an admin (the route's ``AdminActor``), who becomes the owner."""
    check_name_free(session, Project, None, body.name, "project")
    if body.runner_group_id is not None:
        runner_groups.choose(session, actor, body.runner_group_id, "runner_group_id")
    project = Project(**body.model_dump())
    session.add(project)
    session.flush()
    session.add(ProjectMember(project_id=project.id, user_id=actor.user.id, role=ProjectRole.OWNER))
    return audit.commit_created(
        session, actor, AuditAction.PROJECT_CREATE, project, _fields, project_id=project.id
    )


FIELDS = ("name", "description", "max_parallel_runs", "runner_group_id", "local_roots")


def _fields(project: Project) -> dict[str, object]:
    return audit.snapshot(project, FIELDS)


def list_visible(
    session: Session, actor: Actor, *, limit: int, offset: int
) -> tuple[list[tuple[Project, frozenset[Action]]], int]:
    """The projects the actor may see, by name, each with the actor's actions in it."""
    where = visible_projects(actor)
    query = select(Project).where(where).order_by(Project.name)
    rows, total = paged(session, query, limit=limit, offset=offset)
    actions = project_actions(session, actor, [p.id for p in rows])
    return [(p, actions[p.id]) for p in rows], total


def update(session: Session, actor: Actor, project: Project, body: ProjectUpdate) -> Project:
    before = _fields(project)
    changes = changes_of(session, None, project, body, "project")
    if changes.get("runner_group_id", project.runner_group_id) != project.runner_group_id:
        runner_groups.choose(session, actor, changes["runner_group_id"], "runner_group_id")
    for field, value in changes.items():
        setattr(project, field, value)
    return audit.commit_updated(
        session, actor, AuditAction.PROJECT_UPDATE, project, before, _fields, project_id=project.id
    )


def set_local_roots(
    session: Session,
    admin: Actor,
    project: Project,
    body: LocalRootsSet,
    instance_roots: Sequence[Path],
) -> Project:
    """Assign the project its local directories (``admin``: the route's ``AdminActor``), each
    checked against the instance's roots (``local.check_root``). Repositories that no longer
    fit are refused at their next use, with the reason."""
    chosen: list[str] = []
    for n, value in enumerate(body.local_roots):
        try:
            local.check_root(value, instance_roots)
        except local.LocalDirectoryRefused as exc:
            raise InvalidInput(f"local_roots[{n}]", exc.message) from exc
        normalized = str(Path(value))
        if normalized in chosen:
            raise InvalidInput(f"local_roots[{n}]", f"{normalized} is given twice")
        chosen.append(normalized)
    before = _fields(project)
    project.local_roots = chosen
    detail = "local directories assigned"
    return audit.commit_updated(
        session,
        admin,
        AuditAction.PROJECT_UPDATE,
        project,
        before,
        _fields,
        detail=detail,
        project_id=project.id,
    )


def delete(session: Session, actor: Actor, project: Project) -> None:
    refuse_while_runs_active(session, f"project '{project.name}'", Run.project_id == project.id)
    audit.commit_deleted(
        session, actor, AuditAction.PROJECT_DELETE, project, _fields, project_id=project.id
    )


Member = tuple[ProjectMember, User | None, Team | None]


def list_members(session: Session, project: Project) -> list[Member]:
    """Users by name, then teams by name."""
    return list_held(session, ProjectMember, ProjectMember.project_id == project.id)


def list_held[H: Held](
    session: Session, model: type[H], where: ColumnElement[bool]
) -> list[tuple[H, User | None, Team | None]]:
    """The rows of ``model`` (roles, grants) ``where`` picks, each with its holder: those of
    users by username, then those of teams by name."""
    rows = session.execute(
        select(model, User, Team)
        .outerjoin(User, User.id == model.user_id)
        .outerjoin(Team, Team.id == model.team_id)
        .where(where)
        .order_by(model.team_id.is_not(None), User.username, Team.name)
    )
    return [(h, u, t) for h, u, t in rows]


def holder(session: Session, body: HolderRef) -> tuple[User | None, Team | None, str]:
    """The user or team a role (or a grant) is for, and how the audit trail names it."""
    if body.user_id is not None:
        user = session.get(User, body.user_id)
        if user is None:
            raise InvalidInput("user_id", f"user {body.user_id} does not exist")
        return user, None, user.username
    team = session.get(Team, body.team_id)
    if team is None:
        raise InvalidInput("team_id", f"team {body.team_id} does not exist")
    return None, team, f"team {team.name}"


def _membership(
    session: Session, project: Project, *, user_id: int | None, team_id: int | None
) -> ProjectMember | None:
    holder = (
        ProjectMember.user_id == user_id
        if user_id is not None
        else ProjectMember.team_id == team_id
    )
    return session.scalar(
        select(ProjectMember).where(ProjectMember.project_id == project.id, holder)
    )


def _keep_an_owner(session: Session, project: Project, leaving: ProjectMember) -> None:
    """A project must keep an owner (a user or a team): someone has to manage its members."""
    others = session.scalar(
        select(func.count())
        .select_from(ProjectMember)
        .where(
            ProjectMember.project_id == project.id,
            ProjectMember.role == ProjectRole.OWNER,
            ProjectMember.id != leaving.id,
        )
    )
    if not others:
        raise InvalidState(
            f"project '{project.name}' would have no owner left; make someone else owner first"
        )


def set_member(session: Session, actor: Actor, project: Project, body: MemberSet) -> Member:
    """Give a user or a team a role in the project (or change it)."""
    user, team, label = holder(session, body)
    member = _membership(session, project, user_id=body.user_id, team_id=body.team_id)
    before = member.role if member else None
    if member is None:
        member = ProjectMember(
            project_id=project.id, user_id=body.user_id, team_id=body.team_id, role=body.role
        )
        session.add(member)
    else:
        if before == ProjectRole.OWNER and body.role != ProjectRole.OWNER:
            _keep_an_owner(session, project, member)
        member.role = body.role
    audit.record_change(
        session,
        actor,
        AuditAction.MEMBER_SET,
        project,
        {label: [before, body.role]},
        object_type="project",
        project_id=project.id,
        detail=f"{label} is now {body.role}",
    )
    session.commit()
    return member, user, team


def remove_member(
    session: Session,
    actor: Actor,
    project: Project,
    *,
    user_id: int | None = None,
    team_id: int | None = None,
) -> None:
    member = _membership(session, project, user_id=user_id, team_id=team_id)
    holder = f"user {user_id}" if user_id is not None else f"team {team_id}"
    if member is None:
        raise NotFound(f"{holder} is not a member of project '{project.name}'")
    if member.role == ProjectRole.OWNER:
        _keep_an_owner(session, project, member)
    audit.record_change(
        session,
        actor,
        AuditAction.MEMBER_REMOVE,
        project,
        {holder: [member.role, None]},
        object_type="project",
        project_id=project.id,
    )
    session.delete(member)
    session.commit()
