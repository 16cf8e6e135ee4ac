"""A schedule's launch values: checked at save exactly like a manual launch, sealed, and
turned back into a launch body when it fires.

Stored as the ``LaunchOverrides`` body in ``Schedule.launch``, with every password answer
replaced by ``********``; those answers are encrypted together in ``Schedule.secret_launch``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from steward.crypto import KeyCipher
from steward.errors import InvalidInput
from steward.masking import MASK
from steward.schedules.models import Schedule
from steward.templates.launch import LaunchOverrides, resolve_launch
from steward.templates.models import Template


def seal(
    session: Session,
    cipher: KeyCipher,
    template: Template,
    body: LaunchOverrides,
    kept: Mapping[str, Any],
) -> tuple[dict[str, Any], bytes | None, dict[str, Any]]:
    """(stored body, sealed secrets, secret answers) of ``body`` for ``template``; a 422 naming
    ``launch.<field>`` when a launch with it would be refused. An answer sent as ``********``
    keeps the answer in ``kept`` (the stored secret ones); with none kept for it, it is a 422
    (it would otherwise become the answer: AWX's ``$encrypted$`` rule)."""
    for var, value in body.survey.items():
        if value == MASK and var not in kept:  # never stored as the answer itself
            raise InvalidInput(
                f"launch.survey.{var}",
                f"'{MASK}' keeps a saved secret answer, and none is saved for this question:"
                " send the answer",
            )
    survey = {var: kept[var] if value == MASK else value for var, value in body.survey.items()}
    full = body.model_copy(update={"survey": survey})
    try:
        params = resolve_launch(session, template, full)
    except InvalidInput as exc:
        raise InvalidInput(f"launch.{exc.field}", exc.reason) from None
    secrets = dict(params.secret_extra_vars)
    shown = full.model_dump(mode="json", exclude_none=True)
    shown["survey"] = {var: MASK if var in secrets else value for var, value in survey.items()}
    sealed = cipher.encrypt({"survey": secrets}) if secrets else None
    return shown, sealed, secrets


def secret_answers(cipher: KeyCipher, schedule: Schedule) -> dict[str, Any]:
    if schedule.secret_launch is None:
        return {}
    answers: dict[str, Any] = cipher.decrypt(schedule.secret_launch).get("survey", {})
    return answers


def stored_body(cipher: KeyCipher, schedule: Schedule) -> LaunchOverrides:
    """The launch body as saved, secret answers included (to launch, or to check again)."""
    launch = dict(schedule.launch)
    survey = {**launch.get("survey", {}), **secret_answers(cipher, schedule)}
    return LaunchOverrides.model_validate({**launch, "survey": survey})
