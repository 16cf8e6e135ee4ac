"""``POST …/templates/{id}/survey/options``: the launch dialog's options for sourced
questions, given the answers so far."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from steward.access.policy import Action
from steward.api.deps import AccessDep, SessionDep, ViewedTemplate
from steward.templates import launch
from steward.templates.models import Template
from steward.templates.options.schemas import OptionsRequest, SurveyOptions

router = APIRouter(prefix="/projects/{project_id}/templates", tags=["templates"])


def _launchable(template: ViewedTemplate, rights: AccessDep) -> Template:
    """run:launch on the template, before the body is read (403 naming it)."""
    rights.require_on_template(template.id, Action.RUN_LAUNCH)
    return template


LaunchableTemplate = Annotated[Template, Depends(_launchable)]


@router.post("/{template_id}/survey/options")
def survey_options(
    template: LaunchableTemplate, body: OptionsRequest, session: SessionDep
) -> SurveyOptions:
    """Each sourced question's options now, or why its source gave none (read with the
    earlier answers in ``survey``; answers from a URL or a script are cached a minute).
    Asked by who may launch the template; a launch checks its answers against them again."""
    return launch.survey_options(session, template, body)
