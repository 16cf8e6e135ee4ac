"""The one place that answers "may this actor do this action on this object".

Rights come from three sources, and are their union: a project role held by the user, the
roles of the user's teams, and template grants (to the user or to a team). Global admins may do
everything. A token's scope then caps the result: a token never has more rights than its user.

Not allowed to see an object -> NotFound (no existence leak); allowed to see it but not to act
-> PermissionDenied naming the missing permission. Requests build a ``ProjectAccess`` once per
project (two queries); lists filter in SQL with the ``visible_*`` clauses below.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping

from sqlalchemy import ColumnElement, Select, exists, false, or_, select, true
from sqlalchemy.orm import InstrumentedAttribute, Session

from steward.access.actor import Actor
from steward.auth.models import TokenScope
from steward.errors import NotFound, PermissionDenied
from steward.grants.models import GrantPermission, TemplateGrant
from steward.projects.models import Project, ProjectMember, ProjectRole
from steward.runs.models import Run
from steward.teams.models import TeamMember
from steward.templates.models import Template


class Action(enum.StrEnum):
    PROJECT_VIEW = "project:view"
    PROJECT_EDIT = "project:edit"  # rename, settings, delete
    MEMBERS_VIEW = "project:members:view"  # members, and who holds grants on a template
    MEMBERS_MANAGE = "project:members"  # roles and template grants
    RESOURCE_VIEW = "resource:view"  # keys (metadata), repositories, inventories, environments
    RESOURCE_WRITE = "resource:write"
    TEMPLATE_VIEW = "template:view"
    TEMPLATE_WRITE = "template:write"
    RUN_VIEW = "run:view"
    RUN_LAUNCH = "run:launch"
    RUN_CANCEL = "run:cancel"
    AUDIT_VIEW = "audit:view"
    WORKFLOW_VIEW = "workflow:view"
    WORKFLOW_WRITE = "workflow:write"  # create, edit, delete workflows (launching: run:launch)
    WORKFLOW_APPROVE = "workflow:approve"  # approve or deny a workflow run's approval nodes
    PLAN_APPROVE = "plan:approve"  # approve or reject another person's plan (``plans``)
    # run one module on an inventory's hosts (``runs.adhoc``): any command, so only the roles
    # that may already write what runs (managers, owners), never an operator's curated launches
    ADHOC_RUN = "adhoc:run"
    FREEZE_OVERRIDE = "freeze:override"  # launch during a freeze window, with a reason


_VIEW = {
    Action.PROJECT_VIEW,
    Action.MEMBERS_VIEW,
    Action.RESOURCE_VIEW,
    Action.TEMPLATE_VIEW,
    Action.RUN_VIEW,
    Action.WORKFLOW_VIEW,
}
_RUN = _VIEW | {Action.RUN_LAUNCH, Action.RUN_CANCEL, Action.WORKFLOW_APPROVE, Action.PLAN_APPROVE}
_MANAGE = _RUN | {
    Action.RESOURCE_WRITE,
    Action.TEMPLATE_WRITE,
    Action.WORKFLOW_WRITE,
    Action.ADHOC_RUN,
}
_ALL = frozenset(Action)

ROLE_ACTIONS: dict[ProjectRole, frozenset[Action]] = {
    ProjectRole.VIEWER: frozenset(_VIEW),
    ProjectRole.OPERATOR: frozenset(_RUN),
    ProjectRole.MANAGER: frozenset(_MANAGE),
    ProjectRole.OWNER: _ALL,
}

# what a grant allows on its template; holding any grant also lets one see the project itself
_TEMPLATE_VIEW = {Action.TEMPLATE_VIEW, Action.RUN_VIEW}
GRANT_ACTIONS: dict[GrantPermission, frozenset[Action]] = {
    GrantPermission.VIEW: frozenset(_TEMPLATE_VIEW),
    GrantPermission.RUN: frozenset(_TEMPLATE_VIEW | {Action.RUN_LAUNCH, Action.RUN_CANCEL}),
}
_GRANT_PROJECT_ACTIONS = frozenset({Action.PROJECT_VIEW})

SCOPE_ACTIONS: dict[TokenScope, frozenset[Action]] = {
    TokenScope.READ: frozenset(_VIEW),
    TokenScope.RUN: frozenset(_RUN | {Action.ADHOC_RUN}),
    TokenScope.WRITE: _ALL,
}

# Refusing an action is a 404, not a 403, when the actor cannot even see what it acts on.
_SEEN_THROUGH: dict[Action, Action] = {
    Action.RESOURCE_VIEW: Action.RESOURCE_VIEW,
    Action.RESOURCE_WRITE: Action.RESOURCE_VIEW,
}
_RUN_ACTIONS = frozenset({Action.RUN_VIEW, Action.RUN_LAUNCH, Action.RUN_CANCEL})

# the words the console shows on a template, from the actions they stand for
TEMPLATE_PERMISSIONS: dict[str, Action] = {
    "view": Action.TEMPLATE_VIEW,
    "run": Action.RUN_LAUNCH,
    "write": Action.TEMPLATE_WRITE,
}


@dataclasses.dataclass(frozen=True)
class ProjectAccess:
    """What one actor may do in one project: project-wide, and per template through grants."""

    project: Project
    actions: frozenset[Action]
    granted: Mapping[int, frozenset[Action]]  # template id -> actions from grants
    # template id -> the host patterns its ``run`` grants limit launches to (absent: none)
    host_scopes: Mapping[int, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    @property
    def visible(self) -> bool:
        return Action.PROJECT_VIEW in self.actions

    @property
    def sees_resources(self) -> bool:
        """Keys, repositories, inventories, environments: their names too (a template's refs)."""
        return Action.RESOURCE_VIEW in self.actions

    def template_actions(self, template_id: int | None) -> frozenset[Action]:
        extra = self.granted.get(template_id, frozenset()) if template_id else frozenset()
        return self.actions | extra

    def templates_allowing(self, action: Action) -> frozenset[int] | None:
        """Ids of the templates on which the actor may do ``action``; None means all of them."""
        if action in self.actions:
            return None
        return frozenset(t for t, actions in self.granted.items() if action in actions)

    def host_scope(self, template_id: int) -> tuple[str, ...] | None:
        """The host patterns the actor's launches of the template are limited to (their union,
        over the actor's grants and their teams'), or None: every host. A role that launches
        on the whole project, or one ``run`` grant without hosts, limits nothing."""
        if Action.RUN_LAUNCH in self.actions:
            return None
        return self.host_scopes.get(template_id)

    def template_permissions(self, template_id: int) -> list[str]:
        actions = self.template_actions(template_id)
        return [word for word, action in TEMPLATE_PERMISSIONS.items() if action in actions]

    def require(self, action: Action) -> None:
        """A project-wide action (a collection, a resource, the project's settings)."""
        if _SEEN_THROUGH.get(action, Action.PROJECT_VIEW) not in self.actions:
            raise NotFound(f"not found in project {self.project.id}")
        if action not in self.actions:
            raise PermissionDenied(
                f"permission '{action}' is required in project '{self.project.name}'"
            )

    def require_on_template(self, template_id: int | None, action: Action) -> None:
        """An action on a template, or on a run of it (``template_id`` None: a deleted one)."""
        actions = self.template_actions(template_id)
        seen_through = Action.RUN_VIEW if action in _RUN_ACTIONS else Action.TEMPLATE_VIEW
        if seen_through not in actions:
            raise NotFound(f"template {template_id} not found in project '{self.project.name}'")
        if action not in actions:
            raise PermissionDenied(
                f"permission '{action}' is required on template {template_id}"
                f" in project '{self.project.name}'"
            )


def access(session: Session, actor: Actor, project: Project) -> ProjectAccess:
    """The actor's rights in ``project``: no query for an admin, two otherwise."""
    scope = SCOPE_ACTIONS[actor.scope]
    if actor.user.is_admin:
        return ProjectAccess(project, _ALL & scope, {})
    granted: dict[int, frozenset[Action]] = {}
    grants = _grants(session, actor, [project.id])
    for _project_id, template_id, permission, _hosts in grants:
        granted[template_id] = granted.get(template_id, frozenset()) | GRANT_ACTIONS[permission]
    actions = _role_actions(session, actor, [project.id]).get(project.id, frozenset())
    if granted:
        actions |= _GRANT_PROJECT_ACTIONS
    return ProjectAccess(
        project,
        actions & scope,
        {t: a & scope for t, a in granted.items() if a & scope},
        _host_scopes(grants),
    )


def _host_scopes(grants: list[_GrantRow]) -> dict[int, tuple[str, ...]]:
    """Per template, the union of the hosts of the ``run`` grants; a template where one ``run``
    grant names no host is not limited (left out)."""
    scopes: dict[int, list[str]] = {}
    unlimited: set[int] = set()
    for _project_id, template_id, permission, hosts in grants:
        if Action.RUN_LAUNCH not in GRANT_ACTIONS[permission]:
            continue
        if not hosts:
            unlimited.add(template_id)
        found = scopes.setdefault(template_id, [])
        found.extend(h for h in hosts if h not in found)
    return {t: tuple(h) for t, h in scopes.items() if t not in unlimited}


def project_actions(
    session: Session, actor: Actor, project_ids: Iterable[int]
) -> dict[int, frozenset[Action]]:
    """Project-wide actions of the actor in each project (for a list: two queries in all)."""
    ids = list(project_ids)
    scope = SCOPE_ACTIONS[actor.scope]
    if actor.user.is_admin:
        return dict.fromkeys(ids, _ALL & scope)
    actions = _role_actions(session, actor, ids)
    for project_id, _template_id, _permission, _hosts in _grants(session, actor, ids):
        actions[project_id] = actions.get(project_id, frozenset()) | _GRANT_PROJECT_ACTIONS
    return {project_id: actions.get(project_id, frozenset()) & scope for project_id in ids}


def require_admin(actor: Actor, *, write: bool = True) -> None:
    if not actor.user.is_admin:
        raise PermissionDenied("only a global admin may do this")
    if write and actor.scope is not TokenScope.WRITE:
        raise PermissionDenied(f"a token with scope '{actor.scope}' may not do this")


def require_runner_group_choice(actor: Actor, field: str) -> None:
    """Setting a project's or template's runner group (``field``): admins only, as a group's
    workers may reach networks others cannot."""
    if not actor.user.is_admin:
        raise PermissionDenied(f"{field}: only an admin chooses where runs execute")


def require_export(actor: Actor, rights: ProjectAccess) -> None:
    """Exporting a project: instance admins (any token scope: an export is a read) and those
    who may edit the project (its owners)."""
    if not actor.user.is_admin and Action.PROJECT_EDIT not in rights.actions:
        raise PermissionDenied(
            f"permission '{Action.PROJECT_EDIT}' is required in project"
            f" '{rights.project.name}' to export it"
        )


def require_run_label(rights: ProjectAccess, run: Run) -> None:
    """Labelling a run ("baseline", "TDE on") or writing its note: whoever may launch its
    template (a run of a deleted template: who may launch in the project); 404 for who
    cannot see the run, 403 naming run:launch for who only sees it."""
    rights.require_on_template(run.template_id, Action.RUN_LAUNCH)


def sees_emails(actor: Actor) -> bool:
    """Whether the people listed to the actor come with their e-mail addresses: admins only
    (project owners picking members see names)."""
    return actor.user.is_admin


def scope_covers(held: TokenScope, wanted: TokenScope) -> bool:
    """Whether every action of scope ``wanted`` is one of ``held``'s (read < run < write)."""
    return SCOPE_ACTIONS[wanted] <= SCOPE_ACTIONS[held]


def require_token_scope(actor: Actor, wanted: TokenScope) -> None:
    """Creating a token of scope ``wanted``: a session may create any; a token only one whose
    scope its own covers, so no token ever mints more than itself."""
    if not scope_covers(actor.scope, wanted):
        raise PermissionDenied(
            f"scope: a token with scope '{actor.scope}' may not create a token with scope"
            f" '{wanted}'; that permission needs a console session or a token whose scope"
            " covers it"
        )


def require_account_write(actor: Actor, change: str) -> None:
    """Changing one's own account (password, second factor, profile, browser sessions, other
    tokens): a console session, or a token of scope ``write``; a read or run token reads only.
    ``change``: what the request does, for the refusal ("change the password")."""
    if actor.scope is not TokenScope.WRITE:
        raise PermissionDenied(
            f"a token with scope '{actor.scope}' may not {change}; that permission needs a"
            f" console session or a token with scope '{TokenScope.WRITE}'"
        )


def require_directory(session: Session, actor: Actor) -> None:
    """Listing users and teams: admins, and project owners choosing whom to give a role."""
    if actor.user.is_admin:
        return
    managing = _projects_with_role(actor, _roles_allowing(Action.MEMBERS_MANAGE))
    if not session.scalar(select(exists(managing))):
        raise PermissionDenied(
            f"permission '{Action.MEMBERS_MANAGE}' in some project is required to list people"
        )


def projects_allowing(session: Session, actor: Actor, action: Action) -> list[int] | None:
    """Ids of the projects where the actor may do ``action``; None means all (admins)."""
    if action not in SCOPE_ACTIONS[actor.scope]:
        return []
    if actor.user.is_admin:
        return None
    return list(session.scalars(_projects_with_role(actor, _roles_allowing(action))))


def in_projects_allowing(
    session: Session, actor: Actor, action: Action, project_id: InstrumentedAttribute[int]
) -> ColumnElement[bool]:
    """A WHERE clause: ``project_id`` is of a project where the actor may do ``action``
    (``projects_allowing``; always true for an admin)."""
    projects = projects_allowing(session, actor, action)
    return true() if projects is None else project_id.in_(projects)


def visible_projects(actor: Actor) -> ColumnElement[bool]:
    """A WHERE clause on ``Project``: a role in it (own or a team's), or a grant in it."""
    if actor.user.is_admin:
        return true()
    return or_(
        Project.id.in_(_projects_with_role(actor, list(ProjectRole))),
        Project.id.in_(
            select(Template.project_id)
            .join(TemplateGrant, TemplateGrant.template_id == Template.id)
            .where(_holds_grant(actor))
        ),
    )


def visible_runs(actor: Actor) -> ColumnElement[bool]:
    """A WHERE clause on ``Run``: runs of projects where the actor may see every run, and runs
    of the templates granted to the actor."""
    if Action.RUN_VIEW not in SCOPE_ACTIONS[actor.scope]:
        return false()
    if actor.user.is_admin:
        return true()
    permissions = [p for p, actions in GRANT_ACTIONS.items() if Action.RUN_VIEW in actions]
    return or_(
        Run.project_id.in_(_projects_with_role(actor, _roles_allowing(Action.RUN_VIEW))),
        Run.template_id.in_(
            select(TemplateGrant.template_id).where(
                _holds_grant(actor), TemplateGrant.permission.in_(permissions)
            )
        ),
    )


def _roles_allowing(action: Action) -> list[ProjectRole]:
    return [role for role, actions in ROLE_ACTIONS.items() if action in actions]


def _teams_of(actor: Actor) -> Select[int]:
    return select(TeamMember.team_id).where(TeamMember.user_id == actor.user.id)


def _holds_role(actor: Actor) -> ColumnElement[bool]:
    """On ``ProjectMember``: the role is the actor's own, or one of the actor's teams'."""
    return or_(ProjectMember.user_id == actor.user.id, ProjectMember.team_id.in_(_teams_of(actor)))


def _holds_grant(actor: Actor) -> ColumnElement[bool]:
    return or_(TemplateGrant.user_id == actor.user.id, TemplateGrant.team_id.in_(_teams_of(actor)))


def _projects_with_role(actor: Actor, roles: list[ProjectRole]) -> Select[int]:
    return select(ProjectMember.project_id).where(_holds_role(actor), ProjectMember.role.in_(roles))


def _role_actions(
    session: Session, actor: Actor, project_ids: list[int]
) -> dict[int, frozenset[Action]]:
    rows = session.execute(
        select(ProjectMember.project_id, ProjectMember.role).where(
            ProjectMember.project_id.in_(project_ids), _holds_role(actor)
        )
    )
    actions: dict[int, frozenset[Action]] = {}
    for project_id, role in rows:
        actions[project_id] = actions.get(project_id, frozenset()) | ROLE_ACTIONS[role]
    return actions


_GrantRow = tuple[int, int, GrantPermission, list[str]]


def _grants(session: Session, actor: Actor, project_ids: list[int]) -> list[_GrantRow]:
    """(project id, template id, permission, host scope) of every grant the actor holds in the
    projects."""
    rows = session.execute(
        select(
            Template.project_id,
            TemplateGrant.template_id,
            TemplateGrant.permission,
            TemplateGrant.hosts,
        )
        .join(Template, Template.id == TemplateGrant.template_id)
        .where(Template.project_id.in_(project_ids), _holds_grant(actor))
    )
    return [
        (p, t, GrantPermission(permission), [str(h) for h in hosts or []])
        for p, t, permission, hosts in rows
    ]
