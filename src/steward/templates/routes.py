from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, status
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.api.deps import (
    AccessDep,
    ActorDep,
    EditedTemplate,
    PageQuery,
    ReachDep,
    RuntimeDep,
    SessionDep,
    TemplateWrite,
    ViewedTemplate,
)
from steward.bounds import TemplateLabel
from steward.execution.ansible import venvs
from steward.schemas import Page
from steward.templates import service
from steward.templates.models import Template
from steward.templates.options import inventory
from steward.templates.schemas import (
    AnsibleVenvRead,
    HostsReached,
    TemplateCreate,
    TemplateRead,
    TemplateUpdate,
)

router = APIRouter(prefix="/projects/{project_id}/templates", tags=["templates"])
venvs_router = APIRouter(prefix="/ansible-venvs", tags=["templates"])


def _venvs(rt: RuntimeDep) -> list[str]:
    """What ``ansible_venv`` may name besides the server's own (``""``)."""
    return venvs.allowed(rt.settings)


AllowedVenvs = Annotated[list[str], Depends(_venvs)]


def _read(template: Template, rights: ProjectAccess, session: Session) -> TemplateRead:
    """With the caller's permissions and host scope (and the hosts it selects now); key names
    only for those who may see the keys."""
    scope = rights.host_scope(template.id)
    shown: dict[str, object] = {
        "permissions": rights.template_permissions(template.id),
        "launch_hosts": None if scope is None else list(scope),
    }
    if scope is not None:
        names, count, unresolved = inventory.reached(session, template.inventory_id, scope)
        shown["launch_hosts_now"] = HostsReached(names=names, count=count, unresolved=unresolved)
    if not rights.sees_resources:
        shown |= {"ssh_key": None, "become_key": None, "vault_keys": []}
    return TemplateRead.model_validate(template).model_copy(update=shown)


@router.get("")
def list_templates(
    rights: AccessDep,
    session: SessionDep,
    page: PageQuery,
    label: Annotated[TemplateLabel | None, Query(description="only those carrying it")] = None,
) -> Page[TemplateRead]:
    """The templates the caller may see: all of them with a project role, else those granted."""
    rows, total = service.list_for_project(
        session,
        rights.project,
        limit=page.limit,
        offset=page.offset,
        only=rights.templates_allowing(Action.TEMPLATE_VIEW),
        label=label,
    )
    items = [_read(t, rights, session) for t in rows]
    return Page.of(items, total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_template(
    body: TemplateCreate,
    project: TemplateWrite,
    session: SessionDep,
    rights: AccessDep,
    actor: ActorDep,
    reach: ReachDep,
    allowed: AllowedVenvs,
) -> TemplateRead:
    """Every referenced object must be in this project and of the right kind; the playbook must
    be a file of the repository, which is checked out for that; ``ansible_venv`` one of
    ``GET /ansible-venvs``."""
    created = service.create(session, project, body, actor=actor, reach=reach, venvs=allowed)
    return _read(created, rights, session)


@router.get("/{template_id}")
def read_template(template: ViewedTemplate, rights: AccessDep, session: SessionDep) -> TemplateRead:
    return _read(template, rights, session)


@router.patch("/{template_id}")
def update_template(
    template: EditedTemplate,
    body: TemplateUpdate,
    rights: AccessDep,
    session: SessionDep,
    actor: ActorDep,
    reach: ReachDep,
    allowed: AllowedVenvs,
) -> TemplateRead:
    """A new playbook or repository is checked as on create."""
    updated = service.update(
        session, rights.project, template, body, actor=actor, reach=reach, venvs=allowed
    )
    return _read(updated, rights, session)


@router.delete("/{template_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_template(template: EditedTemplate, session: SessionDep, actor: ActorDep) -> None:
    """Refused (409) while the template has queued or running runs."""
    service.delete(session, template, actor=actor)


@venvs_router.get("")
def list_ansible_venvs(_actor: ActorDep, allowed: AllowedVenvs) -> list[AnsibleVenvRead]:
    """What a template's ``ansible_venv`` may be: the server's own (``""``) first, then the
    administrator's ``STEWARD_ANSIBLE_VENVS``, each with its ansible-core version, or why it
    cannot run Ansible."""
    return [AnsibleVenvRead(**venvs.describe(path)) for path in ["", *allowed]]
