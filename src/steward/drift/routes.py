from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from steward.access.policy import Action
from steward.api.deps import AccessDep, ProjectView, ResourceView, SessionDep, ViewedTemplate
from steward.bounds import HOST_NAME_MAX
from steward.db import utcnow
from steward.drift import read
from steward.drift.schemas import HostDrift, ProjectDrift, TemplateDriftRead
from steward.hosts import service as hosts

router = APIRouter(prefix="/projects/{project_id}", tags=["drift"])

HostName = Annotated[str, Path(min_length=1, max_length=HOST_NAME_MAX)]


@router.get("/drift")
def project_drift(_project: ProjectView, rights: AccessDep, session: SessionDep) -> ProjectDrift:
    """The project's drifted templates (those whose runs the caller may see) and their hosts:
    what a scheduled plan found changed since the template's last clean run or apply, each with
    its plan and whether the caller may apply it now ("apply to fix")."""
    return read.project_drift(session, rights, utcnow())


@router.get("/templates/{template_id}/drift")
def template_drift(
    template: ViewedTemplate, rights: AccessDep, session: SessionDep
) -> TemplateDriftRead:
    """The template's drift: its state, the hosts and the tasks with their diffs (its plan's),
    when it was found or cleared and by which run; "apply to fix". Needs run:view on it."""
    rights.require_on_template(template.id, Action.RUN_VIEW)
    return read.template_drift(session, rights, template, utcnow())


@router.get("/hosts/{host}/drift")
def host_drift(
    project: ResourceView, rights: AccessDep, session: SessionDep, host: HostName
) -> HostDrift:
    """The drifted templates that would change the host, with what they would change there (for
    who may see the project's hosts; templates whose runs they may see). 404 for a host the
    project does not know."""
    hosts.require_known(session, project, host)
    return read.host_drift(session, rights, host, utcnow())
