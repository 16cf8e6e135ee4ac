from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.auth.actor import Actor
from steward.auth.models import User
from steward.auth.policy import require_admin, visible_projects
from steward.errors import Conflict, InvalidInput, InvalidState, NotFound
from steward.projects.models import Project, ProjectMember, ProjectRole
from steward.projects.schemas import MemberSet, ProjectCreate, ProjectUpdate
from steward.runs.models import Run
from steward.runs.status import RunStatus


def _check_name_free(session: Session, name: str, *, except_id: int | None = None) -> None:
    found = session.scalar(select(Project.id).where(Project.name == name))
    if found is not None and found != except_id:
        raise Conflict(f"name: a project named '{name}' already exists")


def create(session: Session, actor: Actor, body: ProjectCreate) -> Project:
    require_admin(actor)
    _check_name_free(session, body.name)
    project = Project(**body.model_dump())
    session.add(project)
    session.flush()
    session.add(ProjectMember(project_id=project.id, user_id=actor.user.id, role=ProjectRole.OWNER))
    _audit(session, actor, "project:create", project, audit.diff({}, _fields(project)))
    session.commit()
    return project


FIELDS = ("name", "description", "max_parallel_runs")


def _fields(project: Project) -> dict[str, object]:
    return audit.snapshot(project, FIELDS)


def _audit(
    session: Session,
    actor: Actor,
    action: str,
    project: Project,
    changes: dict[str, list[object]] | None = None,
    detail: str = "",
) -> None:
    audit.record(
        session,
        actor,
        action,
        object_type="project",
        object_id=project.id,
        object_name=project.name,
        project_id=project.id,
        changes=changes,
        detail=detail,
    )


def list_visible(
    session: Session, actor: Actor, *, limit: int, offset: int
) -> tuple[list[Project], int]:
    where = visible_projects(actor)
    total = session.scalar(select(func.count()).select_from(Project).where(where)) or 0
    rows = session.scalars(
        select(Project).where(where).order_by(Project.name).limit(limit).offset(offset)
    )
    return list(rows), total


def update(session: Session, actor: Actor, project: Project, body: ProjectUpdate) -> Project:
    before = _fields(project)
    changes = body.model_dump(exclude_unset=True)
    if changes.get("name") is not None:
        _check_name_free(session, changes["name"], except_id=project.id)
    for field, value in changes.items():
        if value is None and field == "name":
            raise InvalidInput("name", "may not be null")
        setattr(project, field, value)
    _audit(session, actor, "project:update", project, audit.diff(before, _fields(project)))
    session.commit()
    return project


def delete(session: Session, actor: Actor, project: Project) -> None:
    active = session.scalar(
        select(func.count())
        .select_from(Run)
        .where(Run.project_id == project.id, Run.status.in_([RunStatus.QUEUED, RunStatus.RUNNING]))
    )
    if active:
        raise InvalidState(f"project '{project.name}' has {active} queued or running runs")
    _audit(session, actor, "project:delete", project, audit.diff(_fields(project), {}))
    session.delete(project)
    session.commit()


def list_members(session: Session, project: Project) -> list[tuple[ProjectMember, User]]:
    rows = session.execute(
        select(ProjectMember, User)
        .join(User, User.id == ProjectMember.user_id)
        .where(ProjectMember.project_id == project.id)
        .order_by(User.username)
    )
    return [(m, u) for m, u in rows]


def set_member(
    session: Session, actor: Actor, project: Project, body: MemberSet
) -> tuple[ProjectMember, User]:
    user = session.get(User, body.user_id)
    if user is None:
        raise InvalidInput("user_id", f"user {body.user_id} does not exist")
    member = session.scalar(
        select(ProjectMember).where(
            ProjectMember.project_id == project.id, ProjectMember.user_id == user.id
        )
    )
    before = member.role if member else None
    if member is None:
        member = ProjectMember(project_id=project.id, user_id=user.id, role=body.role)
        session.add(member)
    else:
        member.role = body.role
    _audit(
        session,
        actor,
        "member:set",
        project,
        {user.username: [before, body.role]},
        detail=f"{user.username} is now {body.role}",
    )
    session.commit()
    return member, user


def remove_member(session: Session, actor: Actor, project: Project, user_id: int) -> None:
    member = session.scalar(
        select(ProjectMember).where(
            ProjectMember.project_id == project.id, ProjectMember.user_id == user_id
        )
    )
    if member is None:
        raise NotFound(f"user {user_id} is not a member of project '{project.name}'")
    _audit(session, actor, "member:remove", project, {str(user_id): [member.role, None]})
    session.delete(member)
    session.commit()
