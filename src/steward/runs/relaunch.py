"""A relaunch: the launch values of an earlier run, changed where the caller says, launched
again through ``runs.service.launch`` (so ``templates.launch.resolve_launch`` checks them
like any launch).

What is carried from the earlier run: the fields the template lets a launch override (today's
template: a field it no longer allows gets the template's value), its extra vars override, its
survey answers, and its secret answers, which are never shown: a relaunch body leaves them out
(or sends ``********``) to keep them. ``hosts="failed"`` sets the limit to the hosts the run's
recap counts as failed or unreachable, whether the template allows a limit or not: it only
narrows what the run already targeted.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from pydantic import ValidationError
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.crypto import KeyCipher
from steward.errors import InvalidInput, InvalidState
from steward.masking import MASK
from steward.runs.models import Run, RunHost
from steward.runs.params import RunParams
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template

# carried from the earlier run's parameters when the template lets a launch override them
CARRIED = (
    "limit", "tags", "skip_tags", "check_mode", "diff_mode", "verbosity", "forks",
    "timeout_seconds", "inventory_id", "ref",
)  # fmt: skip


@dataclasses.dataclass(frozen=True)
class Previous:
    """An earlier run's launch values, as a relaunch of it starts from."""

    values: dict[str, Any]  # LaunchOverrides fields, survey excepted
    survey: dict[str, Any]  # non-secret answers
    secrets: dict[str, Any]  # secret answers (survey password questions), never shown

    def shown(self) -> LaunchOverrides:
        """The values with each secret answer as ``********``."""
        survey = {**self.survey, **dict.fromkeys(self.secrets, MASK)}
        return LaunchOverrides.model_construct(**self.values, survey=survey)


def previous(cipher: KeyCipher, run: Run, template: Template) -> Previous:
    params = RunParams.of(run.params, run.id)
    allowed = set(template.overridable)
    asked = {str(question["variable"]) for question in template.survey}
    values = {
        field: getattr(params, field)
        for field in CARRIED
        if field in allowed and getattr(params, field) is not None
    }
    extra_vars = {k: v for k, v in params.launch_vars.items() if k not in asked}
    if "extra_vars" in allowed and extra_vars:
        values["extra_vars"] = extra_vars
    survey = {k: v for k, v in params.launch_vars.items() if k in asked}
    sealed = cipher.decrypt(run.secret_params) if run.secret_params else {}
    secrets = {k: v for k, v in sealed.get("extra_vars", {}).items() if k in asked}
    return Previous(values=values, survey=survey, secrets=secrets)


def failed_hosts(session: Session, run: Run, *, limit: int | None = None) -> list[str]:
    """Hosts of the run's recap with a failure or unreachable, by name."""
    query = (
        select(RunHost.host)
        .where(RunHost.run_id == run.id, (RunHost.failed > 0) | (RunHost.unreachable > 0))
        .order_by(RunHost.host)
        .limit(limit)
    )
    return list(session.scalars(query).all())


def overrides(
    session: Session,
    cipher: KeyCipher,
    run: Run,
    template: Template,
    body: LaunchOverrides,
    *,
    failed_only: bool,
) -> tuple[LaunchOverrides, frozenset[str]]:
    """The launch body of the relaunch and the fields Steward grants it (the failed hosts'
    limit); ``body``'s fields replace the earlier run's, answer by answer for the survey."""
    before = previous(cipher, run, template)
    given = body.model_dump(exclude_none=True, exclude={"survey"})
    merged: dict[str, Any] = {**before.values, **given}
    survey = {**before.survey, **before.secrets}
    for variable, answer in body.survey.items():
        if answer == MASK and variable in before.secrets:
            continue  # "********": the kept answer
        survey[variable] = answer
    granted: frozenset[str] = frozenset()
    if failed_only:
        if "limit" in given:
            raise InvalidInput("limit", "hosts=failed sets the limit to the failed hosts; not both")
        hosts = failed_hosts(session, run)
        if not hosts:
            raise InvalidState(f"run {run.id} has no failed or unreachable hosts to relaunch")
        merged["limit"] = ",".join(hosts)
        granted = frozenset({"limit"})
    try:
        return LaunchOverrides.model_validate({**merged, "survey": survey}), granted
    except ValidationError as exc:
        error = exc.errors()[0]
        field = ".".join(str(part) for part in error["loc"]) or "body"
        raise InvalidInput(field, error["msg"]) from None
