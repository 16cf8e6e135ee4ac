"""What an apply must find unchanged since its plan, as hashes taken when the plan is launched
(``Plan.binding``) and again when it is applied: the template as launched (the fields that
decide what runs), its environment, the keys it uses and the launch values as they resolve. The
commit is the plan's run's (``Run.commit_hash``: the apply is pinned to it, and the branch head
is checked by ``service.apply``); the resolved inventory is hashed while the plan executes
(``execution/binding``). A key is known by its id and ``updated_at`` (its secret is never
hashed); a secret survey answer is the plan's own, carried sealed, never hashed either."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.environments.models import Environment, EnvironmentSecret
from steward.keys.models import Key
from steward.runs.params import RunParams
from steward.templates.models import Template

# the template's fields that decide what its runs execute (not its name, description, or the
# check and diff modes, which a plan and an apply set themselves)
TEMPLATE_FIELDS = (
    "playbook", "repository_id", "inventory_id", "environment_id", "ssh_key_id",
    "become_key_id", "vault_key_ids", "extra_vars", "limit", "tags", "skip_tags", "verbosity",
    "forks", "timeout_seconds", "overridable", "survey", "launch_var_exceptions",
    "install_requirements", "ansible_venv", "runner_group_id", "use_fact_cache",
)  # fmt: skip
# launch values an apply sets itself
UNBOUND_PARAMS = frozenset({"check_mode", "diff_mode", "ref"})
# what each hash is called in a refusal
NAMES = {
    "template": "the template",
    "environment": "the environment",
    "keys": "the keys",
    "values": "the launch values",
}


def _sha(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def _environment(session: Session, environment_id: int | None) -> tuple[Any, list[int]]:
    if environment_id is None:
        return None, []
    environment = session.get(Environment, environment_id)
    if environment is None:
        return "gone", []
    secrets = session.execute(
        select(EnvironmentSecret.name, EnvironmentSecret.target, EnvironmentSecret.key_id)
        .where(EnvironmentSecret.environment_id == environment_id)
        .order_by(EnvironmentSecret.name)
    ).all()
    shown = {
        "extra_vars": environment.extra_vars,
        "env_vars": environment.env_vars,
        "secrets": [list(row) for row in secrets],
    }
    return shown, [row.key_id for row in secrets]


def _keys(session: Session, key_ids: list[int]) -> list[Any]:
    rows = session.execute(
        select(Key.id, Key.kind, Key.username, Key.vault_id, Key.fingerprint, Key.updated_at)
        .where(Key.id.in_(key_ids))
        .order_by(Key.id)
    ).all()
    return [
        [value.isoformat() if hasattr(value, "isoformat") else value for value in row]
        for row in rows
    ]


def values_hash(params: RunParams) -> str:
    return _sha(params.model_dump(mode="json", exclude=set(UNBOUND_PARAMS)))


def binding(session: Session, template: Template, params: RunParams) -> dict[str, str]:
    """The hashes of what a launch of ``template`` with ``params`` runs with, now."""
    fields = {field: getattr(template, field) for field in TEMPLATE_FIELDS}
    fields["vault_key_ids"] = list(template.vault_key_ids)
    environment, secret_keys = _environment(session, params.environment_id)
    key_ids = [params.ssh_key_id, params.become_key_id, *params.vault_key_ids, *secret_keys]
    return {
        "template": _sha(fields),
        "environment": _sha(environment),
        "keys": _sha(_keys(session, [k for k in key_ids if k is not None])),
        "values": values_hash(params),
    }


def changed(planned: dict[str, Any], now: dict[str, str]) -> list[str]:
    """What differs between a plan's binding and ``now``, in words ("the template")."""
    return [said for name, said in NAMES.items() if planned.get(name) != now.get(name)]
