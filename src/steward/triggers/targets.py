"""The target a trigger's body names (``template_id`` xor ``workflow_id``), checked for the
caller's right to save a trigger of it; they become its owner (``launch.require_launch``).

One answer for every trigger: a 422 naming the field when both or neither are given, or when
the caller cannot see the one named (the same answer as for one not in the project); 403
naming the permission to edit it (template:write, workflow:write) or to launch it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import ClassVar, Protocol

from sqlalchemy import ColumnElement, or_
from sqlalchemy.orm import Mapped, Session

from steward.access.policy import Action, ProjectAccess
from steward.errors import InvalidInput, NotFound
from steward.templates import service as templates
from steward.templates.models import Template
from steward.triggers.launch import Target, require_launch
from steward.triggers.schemas import TargetChoice
from steward.workflows import service as workflows


def target_of(
    session: Session, rights: ProjectAccess, chosen: TargetChoice, *, kind: str
) -> Target:
    """``kind``: what is saved ("schedule", "webhook"), for the refusals."""
    template_id, workflow_id = chosen.template_id, chosen.workflow_id
    if template_id is not None and workflow_id is not None:
        raise InvalidInput(
            "workflow_id", f"a {kind} has one target: give template_id or workflow_id, not both"
        )
    if workflow_id is not None:
        missing = f"workflow {workflow_id} not found in project '{rights.project.name}'"
        if Action.WORKFLOW_VIEW not in rights.actions:
            raise InvalidInput("workflow_id", missing)
        try:
            workflow = workflows.get(session, rights.project, workflow_id)
        except NotFound:
            raise InvalidInput("workflow_id", missing) from None
        rights.require(Action.WORKFLOW_WRITE)
        require_launch(session, rights, workflow)
        return workflow
    if template_id is None:
        raise InvalidInput(
            "template_id",
            f"a {kind} launches a template or a workflow: give template_id or workflow_id",
        )
    visible = rights.templates_allowing(Action.TEMPLATE_VIEW)
    try:
        template = templates.get(session, rights.project, template_id, only=visible)
    except NotFound as exc:
        raise InvalidInput("template_id", exc.message) from None
    return edited_template(session, rights, template)


def edited_template(session: Session, rights: ProjectAccess, template: Template) -> Template:
    """A template whose trigger the caller saves: template:write, and run:launch."""
    rights.require_on_template(template.id, Action.TEMPLATE_WRITE)
    require_launch(session, rights, template)
    return template


class TriggerModel(Protocol):
    """A schedule or a webhook: what it launches is a template or a workflow."""

    template_id: ClassVar[Mapped[int | None]]
    workflow_id: ClassVar[Mapped[int | None]]


@dataclasses.dataclass(frozen=True)
class Seen:
    """Which triggers (schedules, webhooks) a caller sees, by their target: those of the
    templates ``templates`` (None: of every template, and those a deleted template left), and
    those of the workflows when ``workflows``."""

    templates: Collection[int] | None = None
    workflows: bool = True


EVERY = Seen()  # a template's own triggers, once the template is seen


def seen_by(rights: ProjectAccess) -> Seen:
    """template:view on their template; workflow:view for a workflow's."""
    return Seen(
        rights.templates_allowing(Action.TEMPLATE_VIEW), Action.WORKFLOW_VIEW in rights.actions
    )


def visible(
    model: type[TriggerModel],
    seen: Seen,
    *,
    template_id: int | None = None,
    workflow_id: int | None = None,
) -> list[ColumnElement[bool]]:
    """Which triggers (``model``: schedules or webhooks) ``seen`` shows, and of one template
    or one workflow when asked."""
    templates, workflows = seen.templates, seen.workflows
    where: list[ColumnElement[bool]] = []
    if templates is not None or not workflows:
        of_templates = (
            model.workflow_id.is_(None) if templates is None else model.template_id.in_(templates)
        )
        where.append(
            or_(of_templates, model.workflow_id.is_not(None)) if workflows else of_templates
        )
    if template_id is not None:
        where.append(model.template_id == template_id)
    if workflow_id is not None:
        where.append(model.workflow_id == workflow_id)
    return where
