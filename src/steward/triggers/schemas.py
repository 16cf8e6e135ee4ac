"""What a trigger's request names besides its own settings: the target it launches."""

from __future__ import annotations

from pydantic import Field

from steward.bounds import Id
from steward.schemas import RequestModel


class TargetChoice(RequestModel):
    """A template or a workflow: exactly one (``targets.target_of`` checks it)."""

    template_id: Id | None = Field(default=None, description="the template it launches")
    workflow_id: Id | None = Field(default=None, description="or the workflow it launches")
