from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Depends, status

from steward.access.policy import Action
from steward.api.deps import AccessDep, ActorDep, SessionDep, ViewedTemplate
from steward.grants import service
from steward.grants.schemas import GrantCreate, GrantRead, GrantUpdate
from steward.templates.models import Template

router = APIRouter(prefix="/projects/{project_id}/templates/{template_id}/grants", tags=["grants"])


def _template(action: Action) -> Callable[..., Template]:
    """The template, if the caller sees it (404), and may do the project-wide ``action`` (403)."""

    def load(template: ViewedTemplate, rights: AccessDep) -> Template:
        rights.require(action)
        return template

    return load


MembersViewTemplate = Annotated[Template, Depends(_template(Action.MEMBERS_VIEW))]
ManagedTemplate = Annotated[Template, Depends(_template(Action.MEMBERS_MANAGE))]


def _read(grant: service.Grant) -> GrantRead:
    row, user, team = grant
    return GrantRead(
        id=row.id,
        template_id=row.template_id,
        user_id=user.id if user else None,
        username=user.username if user else None,
        team_id=team.id if team else None,
        team_name=team.name if team else None,
        permission=row.permission,
        hosts=list(row.hosts),
        created_at=row.created_at,
    )


@router.get("")
def list_grants(template: MembersViewTemplate, session: SessionDep) -> list[GrantRead]:
    """Who holds a grant on the template, besides the project's members."""
    return [_read(g) for g in service.list_for_template(session, template)]


@router.post("", status_code=status.HTTP_201_CREATED)
def create_grant(
    body: GrantCreate, template: ManagedTemplate, session: SessionDep, actor: ActorDep
) -> GrantRead:
    """``view``: see the template and its runs; ``run``: also launch it and cancel its runs,
    on the hosts of ``hosts`` only when it names some (launches are limited to them)."""
    return _read(service.create(session, actor, template, body))


@router.patch("/{grant_id}")
def update_grant(
    grant_id: int,
    body: GrantUpdate,
    template: ManagedTemplate,
    session: SessionDep,
    actor: ActorDep,
) -> GrantRead:
    return _read(service.update(session, actor, template, grant_id, body))


@router.delete("/{grant_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_grant(
    grant_id: int, template: ManagedTemplate, session: SessionDep, actor: ActorDep
) -> None:
    service.delete(session, actor, template, grant_id)
