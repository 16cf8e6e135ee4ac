"""``POST …/templates/{id}/survey/options``: the launch dialog's options for sourced
questions, given the answers so far."""

from __future__ import annotations

from fastapi import APIRouter

from steward.access.policy import Action
from steward.api.deps import AccessDep, SessionDep, ViewedTemplate
from steward.templates import launch
from steward.templates.options.schemas import OptionsRequest, SurveyOptions

router = APIRouter(prefix="/projects/{project_id}/templates", tags=["templates"])


@router.post("/{template_id}/survey/options")
def survey_options(
    template: ViewedTemplate, body: OptionsRequest, rights: AccessDep, session: SessionDep
) -> SurveyOptions:
    """Each sourced question's options now, or why its source gave none (read with the
    earlier answers in ``survey``; answers from a URL or a script are cached a minute).
    Asked by who may launch the template; a launch checks its answers against them again."""
    rights.require_on_template(template.id, Action.RUN_LAUNCH)
    return launch.survey_options(session, template, body)
