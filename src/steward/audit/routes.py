from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse
from pydantic import Field
from sqlalchemy import ColumnElement
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import Action, projects_allowing, require_admin
from steward.api.deps import ActorDep, RuntimeDep, SessionDep
from steward.api.downloads import attachment
from steward.audit import export, service, sinks, stream
from steward.audit.schemas import AuditFilters, AuditPage, AuditRead, StreamStatus
from steward.bounds import Id
from steward.db import utcnow

router = APIRouter(prefix="/audit", tags=["audit"])


class AuditPageParams(AuditFilters):
    before_id: Id | None = None
    limit: int = Field(default=100, ge=1, le=1000)


def _where(session: Session, actor: Actor, filters: AuditFilters) -> list[ColumnElement[bool]]:
    if filters.instance:  # the instance's own records: admins only, a read
        require_admin(actor, write=False)
    return service.conditions(
        project_ids=projects_allowing(session, actor, Action.AUDIT_VIEW),
        **filters.model_dump(),
    )


def _exported(
    session: SessionDep, actor: ActorDep, filters: Annotated[AuditFilters, Query()]
) -> list[ColumnElement[bool]]:
    return _where(session, actor, filters)


Exported = Annotated[list[ColumnElement[bool]], Depends(_exported)]  # what an export streams


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


def _download(
    rt: RuntimeDep,
    where: list[ColumnElement[bool]],
    lines: Callable[[Iterator[AuditRead]], Iterator[str]],
    media_type: str,
    filename: str,
) -> StreamingResponse:
    """The matching records, oldest first, streamed in batches through ``lines``."""

    def body() -> Iterator[bytes]:
        with rt.sessions() as export_session:
            records = (AuditRead.model_validate(r) for r in service.stream(export_session, where))
            for line in lines(records):
                yield line.encode()

    return attachment(body(), media_type, filename)


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def export_audit(where: Exported, rt: RuntimeDep) -> StreamingResponse:
    """JSON lines, oldest first: one record per line, ready for a SIEM."""

    def lines(records: Iterator[AuditRead]) -> Iterator[str]:
        return (export.jsonl_line(r) for r in records)

    return _download(rt, where, lines, "application/x-ndjson", "steward-audit.jsonl")


@router.get(
    "/export.csv",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}}}},
)
def export_audit_csv(where: Exported, rt: RuntimeDep) -> StreamingResponse:
    """CSV with a header line, oldest first, the same records and filters as the JSON lines;
    a cell a spreadsheet would read as a formula (= + - @) starts with a quote."""
    return _download(rt, where, export.csv_lines, "text/csv; charset=utf-8", "steward-audit.csv")


@router.get("/stream")
def audit_stream_status(actor: ActorDep, session: SessionDep, rt: RuntimeDep) -> StreamStatus:
    """The audit stream's sinks (admins, a read): backlog, oldest waiting record, last success,
    last error."""
    require_admin(actor, write=False)
    configured = [(s.name, s.kind, s.target) for s in sinks.configured(rt.settings)]
    return StreamStatus(sinks=stream.status(session, configured, utcnow()))
