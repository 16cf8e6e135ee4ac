"""``POST …/templates/{id}/survey/options``: the launch dialog's options for sourced
questions, given the answers so far."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends

from steward.access.policy import Action
from steward.api.deps import AccessDep, ActorDep, RuntimeDep, SessionDep, ViewedTemplate
from steward.errors import TooManyRequests
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
    template: LaunchableTemplate,
    body: OptionsRequest,
    session: SessionDep,
    actor: ActorDep,
    runtime: RuntimeDep,
) -> SurveyOptions:
    """Each sourced question's options now, or why its source gave none (read with the
    earlier answers in ``survey``; answers from a URL or a script are kept
    STEWARD_SURVEY_OPTIONS_CACHE_SECONDS). Asked by who may launch the template; a launch
    checks its answers against them again. Each URL fetched or script run (not a kept answer)
    counts towards the caller's STEWARD_PREVIEW_MAX_PER_MINUTE: 429 above it."""

    def charge() -> None:
        try:
            runtime.previews.take(actor.user.id)
        except TooManyRequests as exc:
            raise TooManyRequests(
                f"survey options read from a URL or a script: {exc}", exc.retry_after
            ) from None

    return launch.survey_options(session, template, body, charge)
