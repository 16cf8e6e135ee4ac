"""The one place that answers "may this actor do this action in this project".

Roles are per project (``ProjectMember``); global admins may do everything. A token's scope caps
what its user may do. Not allowed to see a project at all -> NotFound (no existence leak);
allowed to see but not to act -> PermissionDenied naming the missing permission.
"""

from __future__ import annotations

import enum

from sqlalchemy import ColumnElement, exists, select, true
from sqlalchemy.orm import Session

from steward.auth.actor import Actor
from steward.auth.models import TokenScope
from steward.errors import NotFound, PermissionDenied
from steward.projects.models import Project, ProjectMember, ProjectRole


class Action(enum.StrEnum):
    PROJECT_VIEW = "project:view"
    PROJECT_EDIT = "project:edit"  # rename, settings, delete
    MEMBERS_MANAGE = "project:members"
    RESOURCE_VIEW = "resource:view"  # keys (metadata), repositories, inventories, environments
    RESOURCE_WRITE = "resource:write"
    TEMPLATE_VIEW = "template:view"
    TEMPLATE_WRITE = "template:write"
    RUN_VIEW = "run:view"
    RUN_LAUNCH = "run:launch"
    RUN_CANCEL = "run:cancel"
    AUDIT_VIEW = "audit:view"


_VIEW = {Action.PROJECT_VIEW, Action.RESOURCE_VIEW, Action.TEMPLATE_VIEW, Action.RUN_VIEW}
_RUN = _VIEW | {Action.RUN_LAUNCH, Action.RUN_CANCEL}
_MANAGE = _RUN | {Action.RESOURCE_WRITE, Action.TEMPLATE_WRITE}
_ALL = set(Action)

ROLE_ACTIONS: dict[ProjectRole, frozenset[Action]] = {
    ProjectRole.VIEWER: frozenset(_VIEW),
    ProjectRole.OPERATOR: frozenset(_RUN),
    ProjectRole.MANAGER: frozenset(_MANAGE),
    ProjectRole.OWNER: frozenset(_ALL),
}

SCOPE_ACTIONS: dict[TokenScope, frozenset[Action]] = {
    TokenScope.READ: frozenset(_VIEW),
    TokenScope.RUN: frozenset(_RUN),
    TokenScope.WRITE: frozenset(_ALL),
}


def project_role(session: Session, actor: Actor, project_id: int) -> ProjectRole | None:
    role = session.scalar(
        select(ProjectMember.role).where(
            ProjectMember.project_id == project_id, ProjectMember.user_id == actor.user.id
        )
    )
    return ProjectRole(role) if role is not None else None


def allowed_actions(session: Session, actor: Actor, project_id: int) -> frozenset[Action]:
    if actor.user.is_admin:
        granted = frozenset(_ALL)
    else:
        role = project_role(session, actor, project_id)
        granted = ROLE_ACTIONS[role] if role is not None else frozenset()
    return granted & SCOPE_ACTIONS[actor.scope]


def authorize(session: Session, actor: Actor, action: Action, project: Project) -> None:
    actions = allowed_actions(session, actor, project.id)
    if Action.PROJECT_VIEW not in actions:
        raise NotFound(f"project {project.id} not found")
    if action not in actions:
        raise PermissionDenied(f"permission '{action}' is required in project '{project.name}'")


def require_admin(actor: Actor, *, write: bool = True) -> None:
    if not actor.user.is_admin:
        raise PermissionDenied("only a global admin may do this")
    if write and actor.scope is not TokenScope.WRITE:
        raise PermissionDenied(f"a token with scope '{actor.scope}' may not do this")


def projects_allowing(session: Session, actor: Actor, action: Action) -> list[int] | None:
    """Ids of the projects where the actor may do ``action``; None means all (admins)."""
    if actor.user.is_admin and action in SCOPE_ACTIONS[actor.scope]:
        return None
    if action not in SCOPE_ACTIONS[actor.scope]:
        return []
    roles = [role for role, actions in ROLE_ACTIONS.items() if action in actions]
    return list(
        session.scalars(
            select(ProjectMember.project_id).where(
                ProjectMember.user_id == actor.user.id, ProjectMember.role.in_(roles)
            )
        )
    )


def visible_projects(actor: Actor) -> ColumnElement[bool]:
    """A WHERE clause on ``Project`` selecting the projects the actor may see."""
    if actor.user.is_admin:
        return true()
    return exists().where(
        ProjectMember.project_id == Project.id, ProjectMember.user_id == actor.user.id
    )
