"""Stored launch values (a schedule's, a workflow node's): checked at save exactly like a
launch (``templates.launch.resolve_launch``), sealed, and turned back into a launch body when
they fire.

Stored as the ``LaunchOverrides`` body (``Schedule.launch``, a node's ``launch``), with every
password answer replaced by ``********``; those answers are encrypted apart (a schedule's in
``Schedule.secret_launch``, a workflow's by node key in ``Workflow.secret_launch``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy.orm import Session

from steward.crypto import KeyCipher
from steward.errors import InvalidInput
from steward.masking import MASK
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
        secrets = resolve_launch(session, template, full).secrets
    except InvalidInput as exc:
        raise InvalidInput(f"launch.{exc.field}", exc.reason) from None
    shown = full.model_dump(mode="json", exclude_none=True)
    shown["survey"] = {var: MASK if var in secrets else value for var, value in survey.items()}
    sealed = cipher.encrypt({"survey": secrets}) if secrets else None
    return shown, sealed, secrets


def secret_answers(cipher: KeyCipher, sealed: bytes | None) -> dict[str, Any]:
    """A schedule's sealed answers (``Schedule.secret_launch``)."""
    if sealed is None:
        return {}
    answers: dict[str, Any] = cipher.decrypt(sealed).get("survey", {})
    return answers


def body_of(launch: Mapping[str, Any], secrets: Mapping[str, Any]) -> LaunchOverrides:
    """The launch body as saved, its secret answers put back (to launch, or to check again)."""
    survey = {**launch.get("survey", {}), **secrets}
    return LaunchOverrides.model_validate({**launch, "survey": survey})
