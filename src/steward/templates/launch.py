"""The effective parameters of one run: template defaults, allowed overrides, survey answers.

The launch values take four shapes: the request (``LaunchOverrides``), resolved here into what
the run stores (``runs.params.RunParams``, with the secret answers apart), and the argv that
``execution`` builds from the stored parameters. Called by the runs service when a run is
launched, and by every save of launch values (schedules,
workflow nodes, webhooks' dry runs); it raises ``InvalidInput`` naming the field. Launch values
may not set a variable Ansible reads as a setting (``templates.reserved``); an answer to a
question whose options come from a source must be among its options now
(``templates.options``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from pydantic import Field
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.bounds import SURVEY_QUESTIONS_MAX, JsonObject
from steward.errors import InvalidInput
from steward.inventories.models import Inventory
from steward.masking import MASK
from steward.repositories.schemas import Ref
from steward.runs.params import RunParams
from steward.templates import reserved
from steward.templates.models import Template
from steward.templates.options import resolver
from steward.templates.options.schemas import OptionsRequest, QuestionOptions, SurveyOptions
from steward.templates.options.sources import depends_on
from steward.templates.schemas import RunOptionChanges
from steward.templates.survey import Question, SurveyResult, validate_answers


class LaunchOverrides(RunOptionChanges):
    """The body of a launch besides ``template_id``; each field needs the template's permission."""

    ref: Ref | None = None
    survey: JsonObject = Field(  # answers, by variable
        default_factory=dict, max_length=SURVEY_QUESTIONS_MAX
    )


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A launch's values once checked: what the run stores (``RunParams``, every secret answer
    shown as ``********``) and the secret answers apart (sealed in ``Run.secret_params``)."""

    params: RunParams
    secrets: dict[str, Any]  # survey password answers: untrusted, never stored in clear


def resolve_launch(
    session: Session,
    template: Template,
    body: LaunchOverrides,
    *,
    granted: frozenset[str] = frozenset(),
) -> Resolved:
    """``granted``: fields Steward itself sets whatever the template allows (the limit of a
    relaunch on the failed hosts); they are checked like any other value."""
    _check_allowed(template, body, granted)
    reserved.check_for(template, body.extra_vars or {}, field="extra_vars")
    inventory_id = _inventory_id(session, template, body.inventory_id)
    # a sourced question's answer must be among its options now (templates.options)
    questions = resolver.current(
        session,
        template,
        [Question.model_validate(q) for q in template.survey],
        body.survey,
        inventory_id=inventory_id,
    )
    answers = validate_answers(questions, body.survey)
    reserved.check_for(template, [*answers.values, *answers.secret_values], field="survey")
    params = RunParams(
        playbook=template.playbook,
        repository_id=template.repository_id,
        inventory_id=inventory_id,
        environment_id=template.environment_id,
        ssh_key_id=template.ssh_key_id,
        become_key_id=template.become_key_id,
        vault_key_ids=[k.id for k in template.vault_keys],
        ref=body.ref or None,
        limit=_pick(body.limit, template.limit),
        tags=_pick(body.tags, template.tags),
        skip_tags=_pick(body.skip_tags, template.skip_tags),
        check_mode=_pick(body.check_mode, template.check_mode),
        diff_mode=_pick(body.diff_mode, template.diff_mode),
        verbosity=_pick(body.verbosity, template.verbosity),
        forks=_pick(body.forks, template.forks),
        timeout_seconds=_pick(body.timeout_seconds, template.timeout_seconds),
        extra_vars=dict(template.extra_vars),
        launch_vars=_launch_vars(body.extra_vars or {}, questions, answers),
        secret_extra_vars=dict.fromkeys(answers.secret_values, MASK),
        install_requirements=template.install_requirements,
        ansible_venv=template.ansible_venv,
        use_fact_cache=template.use_fact_cache,
    )
    return Resolved(params, dict(answers.secret_values))


def _check_allowed(template: Template, body: LaunchOverrides, granted: frozenset[str]) -> None:
    """An override needs the template's permission; ``null`` means "the template's value"."""
    for field in LaunchOverrides.model_fields:
        if field == "survey" or getattr(body, field) is None:
            continue
        if field not in template.overridable and field not in granted:
            raise InvalidInput(field, f"this template does not allow overriding {field}")


def _pick[T](override: T | None, default: T) -> T:
    return default if override is None else override


def _inventory_id(session: Session, template: Template, override: int | None) -> int:
    if override is None:
        return template.inventory_id
    found = session.scalar(
        select(Inventory.id).where(
            Inventory.id == override, Inventory.project_id == template.project_id
        )
    )
    if found is None:
        raise InvalidInput("inventory_id", f"inventory {override} does not exist in this project")
    return found


def _launch_vars(
    override: dict[str, Any], questions: list[Question], answers: SurveyResult
) -> dict[str, Any]:
    """What the launcher typed: reaches Ansible marked unsafe (``runner.extravars``), so it
    overrides the template's variables as data, never as a template."""
    # a survey question constrains its variable: extra vars may not go around it
    asked = sorted(set(override) & {q.variable for q in questions})
    if asked:
        raise InvalidInput(
            f"extra_vars.{asked[0]}", "is a survey question; give its answer under survey"
        )
    merged = {**override, **answers.values}
    for secret in answers.secret_values:
        merged.pop(secret, None)
    return merged


def survey_options(
    session: Session,
    template: Template,
    body: OptionsRequest,
    charge: Callable[[], None] | None = None,
) -> SurveyOptions:
    """The launch dialog's options: each sourced question's, given the answers so far;
    ``charge`` counts each read of a URL or a script the cache does not answer."""
    inventory_id = _inventory_id(session, template, body.inventory_id)
    questions = [Question.model_validate(q) for q in template.survey]
    given = resolver.effective(questions, body.survey)
    found = []
    for question in questions:
        if question.source is None:
            continue
        options = resolver.question_options(
            session, template, question, given, inventory_id=inventory_id, charge=charge
        )
        found.append(
            QuestionOptions(
                variable=question.variable,
                choices=options.choices,
                error=options.error,
                depends_on=depends_on(question.source),
            )
        )
    return SurveyOptions(questions=found)
