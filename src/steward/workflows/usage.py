"""Which workflows run a template: a template one of them uses is not deleted (409 naming them)."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.projects import scoped
from steward.templates.models import Template
from steward.workflows.models import Workflow, WorkflowTemplate


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
