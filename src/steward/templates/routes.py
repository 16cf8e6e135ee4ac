from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, status

from steward.api.deps import ActorDep, SessionDep, TemplateView, TemplateWrite
from steward.api.schemas import Page, PageParams
from steward.templates import service
from steward.templates.models import Template
from steward.templates.schemas import TemplateCreate, TemplateRead, TemplateUpdate

router = APIRouter(prefix="/projects/{project_id}/templates", tags=["templates"])


def _viewed(template_id: int, project: TemplateView, session: SessionDep) -> Template:
    return service.get(session, project, template_id)


def _edited(template_id: int, project: TemplateWrite, session: SessionDep) -> Template:
    return service.get(session, project, template_id)


ViewedTemplate = Annotated[Template, Depends(_viewed)]
EditedTemplate = Annotated[Template, Depends(_edited)]


@router.get("")
def list_templates(
    project: TemplateView, session: SessionDep, page: Annotated[PageParams, Query()]
) -> Page[TemplateRead]:
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    items = [TemplateRead.model_validate(t) for t in rows]
    return Page(items=items, total=total, limit=page.limit, offset=page.offset)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_template(
    body: TemplateCreate, project: TemplateWrite, session: SessionDep, actor: ActorDep
) -> TemplateRead:
    """Every referenced object must be in this project and of the right kind."""
    return TemplateRead.model_validate(service.create(session, project, body, actor=actor))


@router.get("/{template_id}")
def read_template(template: ViewedTemplate) -> TemplateRead:
    return TemplateRead.model_validate(template)


@router.patch("/{template_id}")
def update_template(
    template: EditedTemplate,
    body: TemplateUpdate,
    project: TemplateWrite,
    session: SessionDep,
    actor: ActorDep,
) -> TemplateRead:
    return TemplateRead.model_validate(
        service.update(session, project, template, body, actor=actor)
    )


@router.delete("/{template_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_template(template: EditedTemplate, session: SessionDep, actor: ActorDep) -> None:
    """Refused (409) while the template has queued or running runs."""
    service.delete(session, template, actor=actor)
