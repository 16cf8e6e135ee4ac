"""Which workflows run a template: a template one of them uses is not deleted (409 naming them);
and what a running workflow run holds (its workflow, the schedule that launched it)."""

from __future__ import annotations

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from steward.errors import InvalidState
from steward.projects import scoped
from steward.templates.models import Template
from steward.workflows.models import Workflow, WorkflowRun, WorkflowRunStatus, WorkflowTemplate


def using_template(session: Session, template_id: int) -> list[str]:
    """Names of the workflows with a node running the template."""
    return scoped.names_of(
        session,
        Workflow.name,
        Workflow.id.in_(
            select(WorkflowTemplate.workflow_id).where(WorkflowTemplate.template_id == template_id)
        ),
    )


def refuse_if_used(session: Session, template: Template) -> None:
    users = {"workflow": using_template(session, template.id)}
    scoped.refuse_if_used("template", template.name, users)


def refuse_while_running(session: Session, what: str, held: ColumnElement[bool]) -> None:
    """409 while a workflow run matching ``held`` runs (``what``: "workflow 'x'")."""
    running = session.scalar(
        select(WorkflowRun.id).where(held, WorkflowRun.status == WorkflowRunStatus.RUNNING)
    )
    if running is not None:
        raise InvalidState(f"{what} has a running workflow run ({running}); cancel it first")
