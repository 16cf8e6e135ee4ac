"""Template grants: ``view`` or ``run`` on one template, for a user or a team."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.errors import Conflict, NotFound
from steward.grants.models import TemplateGrant
from steward.grants.schemas import GrantCreate, GrantUpdate
from steward.projects import service as projects
from steward.teams.models import Team
from steward.templates.models import Template

Grant = tuple[TemplateGrant, User | None, Team | None]


def _audit(
    session: Session,
    actor: Actor,
    action: AuditAction,
    template: Template,
    holder: str,
    change: list[object],
    hosts: list[object] | None = None,
) -> None:
    """``hosts``: the host scope before and after, when it changes."""
    changes: dict[str, list[object]] = {holder: change}
    detail = f"{holder}: {change[0] or 'no grant'} -> {change[1] or 'no grant'}"
    if hosts is not None:
        changes[f"{holder}.hosts"] = hosts
        detail += f", hosts: {_hosts_label(hosts[0])} -> {_hosts_label(hosts[1])}"
    audit.record_change(
        session, actor, action, template, changes, object_type="template", detail=detail
    )


def _hosts_label(hosts: object) -> str:
    return ", ".join(str(h) for h in hosts) if isinstance(hosts, list) and hosts else "every host"


def _label(user: User | None, team: Team | None) -> str:
    return user.username if user else f"team {team.name}" if team else ""


def list_for_template(session: Session, template: Template) -> list[Grant]:
    """Users by name, then teams by name."""
    return projects.list_held(session, TemplateGrant, TemplateGrant.template_id == template.id)


def get(session: Session, template: Template, grant_id: int) -> Grant:
    row = session.execute(
        select(TemplateGrant, User, Team)
        .outerjoin(User, User.id == TemplateGrant.user_id)
        .outerjoin(Team, Team.id == TemplateGrant.team_id)
        .where(TemplateGrant.id == grant_id, TemplateGrant.template_id == template.id)
    ).first()
    if row is None:
        raise NotFound(f"grant {grant_id} not found on template '{template.name}'")
    grant, user, team = row
    return grant, user, team


def create(session: Session, actor: Actor, template: Template, body: GrantCreate) -> Grant:
    user, team, label = projects.holder(session, body)
    holder = (
        TemplateGrant.user_id == body.user_id
        if body.user_id is not None
        else TemplateGrant.team_id == body.team_id
    )
    existing = session.scalar(
        select(TemplateGrant.id).where(TemplateGrant.template_id == template.id, holder)
    )
    if existing is not None:
        raise Conflict(f"{label} already has grant {existing} on template '{template.name}'")
    grant = TemplateGrant(
        template_id=template.id,
        user_id=body.user_id,
        team_id=body.team_id,
        permission=body.permission,
        hosts=list(body.hosts),
    )
    session.add(grant)
    session.flush()
    hosts: list[object] | None = [None, list(body.hosts)] if body.hosts else None
    _audit(
        session, actor, AuditAction.GRANT_CREATE, template, label, [None, body.permission], hosts
    )
    session.commit()
    return grant, user, team


def update(
    session: Session, actor: Actor, template: Template, grant_id: int, body: GrantUpdate
) -> Grant:
    """The permission and the host scope, those sent."""
    grant, user, team = get(session, template, grant_id)
    changes = body.changes()
    before, before_hosts = grant.permission, list(grant.hosts)
    grant.permission = changes.get("permission", grant.permission)
    if "hosts" in changes:
        grant.hosts = list(changes["hosts"])
    hosts: list[object] | None = (
        [before_hosts, list(grant.hosts)] if before_hosts != grant.hosts else None
    )
    _audit(
        session,
        actor,
        AuditAction.GRANT_UPDATE,
        template,
        _label(user, team),
        [before, grant.permission],
        hosts,
    )
    session.commit()
    return grant, user, team


def delete(session: Session, actor: Actor, template: Template, grant_id: int) -> None:
    grant, user, team = get(session, template, grant_id)
    _audit(
        session,
        actor,
        AuditAction.GRANT_DELETE,
        template,
        _label(user, team),
        [grant.permission, None],
    )
    session.delete(grant)
    session.commit()
