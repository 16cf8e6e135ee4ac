"""What a running workflow run holds: its workflow and the schedule that launched it are not
deleted while it runs (409 naming it). Which workflows use a template is the foreign key's
answer (``references.refuse_if_referenced``)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from steward.errors import InvalidState
from steward.workflows.models import WorkflowRun, WorkflowRunStatus


def refuse_while_running(session: Session, what: str, held: ColumnElement[bool]) -> None:
    """409 while a workflow run matching ``held`` runs (``what``: "workflow 'x'")."""
    running = session.scalar(
        select(WorkflowRun.id).where(held, WorkflowRun.status == WorkflowRunStatus.RUNNING)
    )
    if running is not None:
        raise InvalidState(f"{what} has a running workflow run ({running}); cancel it first")
