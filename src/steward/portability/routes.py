"""Export a project as one JSON document (no secret in it), and import one as a new project."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Request, Response, status
from fastapi.responses import JSONResponse

from steward.access import policy
from steward.api.deps import AccessDep, ActorDep, AdminActor, RuntimeDep, SessionDep
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.bounds import describe_size
from steward.execution.ansible import venvs
from steward.portability import export
from steward.portability.import_ import Context, import_project
from steward.portability.schemas import (
    DOCUMENT_MAX_BYTES,
    ExportDocument,
    ImportReport,
    ImportRequest,
)
from steward.projects.models import Project

router = APIRouter(prefix="/projects", tags=["projects"])


def _exportable(rights: AccessDep, actor: ActorDep) -> Project:
    """Instance admins (any token scope: an export is a read), and the project's owners."""
    policy.require_export(actor, rights)
    return rights.project


def _file_name(project: Project) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", project.name).strip("._") or "project"
    return f"steward-{safe[:80]}.json"


@router.get("/{project_id}/export", response_model=ExportDocument)
def export_project(
    project: Annotated[Project, Depends(_exportable)], session: SessionDep, actor: ActorDep
) -> JSONResponse:
    """The project's settings and objects as one JSON document, objects referring to each other
    by name. No secret value is in it: keys come without their secret, schedules without their
    password answers, webhooks without their hook id."""
    document = export.export_project(session, project)
    audit.record_change(session, actor, AuditAction.PROJECT_EXPORT, project, project_id=project.id)
    session.commit()
    return JSONResponse(
        document.model_dump(mode="json"),
        headers={"Content-Disposition": f'attachment; filename="{_file_name(project)}"'},
    )


async def _bounded_document(request: Request) -> None:
    """A document over ``DOCUMENT_MAX_BYTES`` is a 413 (the server's body limit may be higher)."""
    body = await request.body()
    if len(body) > DOCUMENT_MAX_BYTES:
        raise HTTPException(
            status.HTTP_413_CONTENT_TOO_LARGE,
            f"an export document is at most {describe_size(DOCUMENT_MAX_BYTES)}",
        )


@router.post(
    "/import",
    status_code=status.HTTP_201_CREATED,
    dependencies=[Depends(_bounded_document)],
)
def import_project_route(
    body: ImportRequest,
    admin: AdminActor,
    runtime: RuntimeDep,
    session: SessionDep,
    response: Response,
) -> ImportReport:
    """A new project made of an export document, all of it or nothing (those who may create
    projects; the importer becomes its owner). Keys come back without values, schedules and
    webhooks disabled: ``needs_attention`` lists them. ``dry_run`` checks everything the same
    way and makes nothing (200 instead of 201). A wrong field is a 422 naming its place in the
    document."""
    session.commit()  # the request's own session holds no transaction while the import writes
    context = Context.of(runtime, venvs.allowed(runtime.settings))
    report = import_project(runtime, admin, body, context)
    if body.dry_run:
        response.status_code = status.HTTP_200_OK
    return report
