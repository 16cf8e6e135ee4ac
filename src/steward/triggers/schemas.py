"""What a trigger (a schedule, a webhook) says of its target: the one a request names, the one
it is read with."""

from __future__ import annotations

import enum

from pydantic import BaseModel, Field

from steward.bounds import Id
from steward.schemas import RequestModel, ResponseModel


class TargetKind(enum.StrEnum):
    """What a schedule or a webhook launches: a template's run or a workflow run."""

    TEMPLATE = "template"
    WORKFLOW = "workflow"


class TargetChoice(RequestModel):
    """A template or a workflow: exactly one (``targets.target_of`` checks it)."""

    template_id: Id | None = Field(default=None, description="the template it launches")
    workflow_id: Id | None = Field(default=None, description="or the workflow it launches")


class TargetFilter(BaseModel):
    """A list of triggers narrowed to those of one template or one workflow (query)."""

    template_id: Id | None = None
    workflow_id: Id | None = None


class TriggerRead(ResponseModel):
    """A schedule or a webhook as read: what it launches, then its name."""

    id: int
    project_id: int
    target_kind: TargetKind = Field(description="what it launches: a template or a workflow")
    template_id: int | None = Field(
        description="a template target's; null for a workflow's (and a schedule's once its"
        " template is deleted: a webhook goes with its template)"
    )
    template_name: str = ""
    workflow_id: int | None = Field(
        default=None,
        description="a workflow target's (a schedule's is null once the workflow is deleted)",
    )
    workflow_name: str = ""
    name: str
    description: str
