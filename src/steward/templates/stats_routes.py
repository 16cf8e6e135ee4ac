"""``GET …/templates/{id}/stats``: a template's last runs, success rates and slowest tasks."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from steward.access.policy import Action
from steward.api.deps import AccessDep, SessionDep, ViewedTemplate
from steward.bounds import TEMPLATE_STATS_RUNS_MAX
from steward.templates import stats
from steward.templates.stats import TemplateStats

router = APIRouter(prefix="/projects/{project_id}/templates", tags=["templates"])


@router.get("/{template_id}/stats")
def template_stats(
    template: ViewedTemplate,
    rights: AccessDep,
    session: SessionDep,
    last: Annotated[
        int, Query(ge=1, le=TEMPLATE_STATS_RUNS_MAX, description="how many of the last runs")
    ] = 50,
) -> TemplateStats:
    """Durations of the last runs (oldest first), the success rate of those and of the last
    30 days, and the 5 slowest tasks' seconds over the most recent ended runs (at most 50).
    Seen by who may see the template's runs."""
    rights.require_on_template(template.id, Action.RUN_VIEW)
    return stats.stats(session, template, last)
