from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, status

from steward.api import deps
from steward.environments import service
from steward.environments.models import Environment
from steward.environments.schemas import EnvironmentCreate, EnvironmentRead, EnvironmentUpdate
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/environments", tags=["environments"])


ViewedEnvironment = Annotated[Environment, deps.viewed_object(Environment, "environment")]
EditedEnvironment = Annotated[Environment, deps.edited_object(Environment, "environment")]


@router.get("")
def list_environments(
    project: deps.ResourceView, session: deps.SessionDep, page: deps.PageQuery
) -> Page[EnvironmentRead]:
    """Environments of the project, by name; secrets appear as references, never values."""
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    return Page.of([EnvironmentRead.model_validate(e) for e in rows], total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_environment(
    body: EnvironmentCreate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
) -> EnvironmentRead:
    return EnvironmentRead.model_validate(service.create(session, project, body, actor=actor))


@router.get("/{environment_id}")
def read_environment(environment: ViewedEnvironment) -> EnvironmentRead:
    return EnvironmentRead.model_validate(environment)


@router.patch("/{environment_id}")
def update_environment(
    environment: EditedEnvironment,
    body: EnvironmentUpdate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
) -> EnvironmentRead:
    """Change fields; ``extra_vars``, ``env_vars`` and ``secrets`` replace the whole set."""
    updated = service.update(session, project, environment, body, actor=actor)
    return EnvironmentRead.model_validate(updated)


@router.delete("/{environment_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_environment(
    environment: EditedEnvironment, session: deps.SessionDep, actor: deps.ActorDep
) -> None:
    """Delete an environment no template uses (409 names the templates)."""
    service.delete(session, environment, actor=actor)
