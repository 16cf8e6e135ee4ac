from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse
from pydantic import Field
from sqlalchemy import ColumnElement
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, projects_allowing
from steward.api.deps import ActorDep, RuntimeDep, SessionDep
from steward.audit import service
from steward.audit.schemas import AuditFilters, AuditPage, AuditRead
from steward.bounds import Id

router = APIRouter(prefix="/audit", tags=["audit"])


class AuditPageParams(AuditFilters):
    before_id: Id | None = None
    limit: int = Field(default=100, ge=1, le=1000)


def _where(session: Session, actor: Actor, filters: AuditFilters) -> list[ColumnElement[bool]]:
    return service.conditions(
        project_ids=projects_allowing(session, actor, Action.AUDIT_VIEW),
        **filters.model_dump(),
    )


@router.get("")
def list_audit(
    session: SessionDep, actor: ActorDep, params: Annotated[AuditPageParams, Query()]
) -> AuditPage:
    """Newest first. Admins see everything; project owners see their projects' records."""
    filters = AuditFilters.model_validate(params.model_dump(exclude={"before_id", "limit"}))
    rows, next_before = service.page(
        session, _where(session, actor, filters), before_id=params.before_id, limit=params.limit
    )
    return AuditPage(items=[AuditRead.model_validate(r) for r in rows], next_before_id=next_before)


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def export_audit(
    session: SessionDep,
    actor: ActorDep,
    rt: RuntimeDep,
    filters: Annotated[AuditFilters, Query()],
) -> StreamingResponse:
    """JSON lines, oldest first: one record per line, ready for a SIEM."""
    where = _where(session, actor, filters)

    def lines() -> Iterator[bytes]:
        with rt.sessions() as export_session:
            for row in service.stream(export_session, where):
                record = AuditRead.model_validate(row).model_dump(mode="json")
                yield (json.dumps(record) + "\n").encode()

    return StreamingResponse(
        lines(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": 'attachment; filename="steward-audit.jsonl"'},
    )
