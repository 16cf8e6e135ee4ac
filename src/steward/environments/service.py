from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

import yaml
from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.bounds import json_size_error, load_yaml, yaml_size_error
from steward.crypto import KeyCipher
from steward.environments.models import Environment, EnvironmentSecret, SecretTarget
from steward.environments.schemas import EnvironmentCreate, EnvironmentUpdate, SecretRef
from steward.errors import InvalidInput, InvalidState
from steward.execution.ansible import config as ansible_config
from steward.keys import service as keys
from steward.keys.models import Key, KeyKind
from steward.projects import scoped
from steward.projects.models import Project
from steward.references import refuse_if_referenced

VAR_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
VAR_NAME_RULE = "must be a letter or '_' followed by letters, digits or '_'"
SECRET_KINDS = frozenset({KeyKind.SECRET, KeyKind.LOGIN_PASSWORD, KeyKind.VAULT_PASSWORD})
AUDITED_FIELDS = ("name", "description", "extra_vars", "env_vars")
# set by execution/preparation.py for every run (TMPDIR: the run's private one, for ssh-agent):
# an environment may not override them
SET_BY_STEWARD = frozenset(
    {"ANSIBLE_SSH_CONTROL_PATH_DIR", "ANSIBLE_SSH_CONTROL_PATH", "ANSIBLE_SSH_COMMON_ARGS"}
    | {"ANSIBLE_LOCAL_TEMP", "ANSIBLE_RETRY_FILES_ENABLED", "ANSIBLE_INVENTORY_ENABLED"}
    | {"TMPDIR"}
)
# make the dynamic loader, Python or a shell load code of someone's choosing
CODE_INJECTING = frozenset(
    {"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_AUDIT", "GCONV_PATH"}
    | {"PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME", "PATH", "BASH_ENV", "ENV"}
)


def _fields(env: Environment) -> dict[str, Any]:
    """Plain variables as they are; secrets as references to keys by name, never values."""
    return {
        **audit.snapshot(env, AUDITED_FIELDS),
        "secrets": sorted(f"{s.target} {s.name} <- key '{s.key.name}'" for s in env.secrets),
    }


@dataclasses.dataclass(frozen=True)
class ResolvedEnvironment:
    """An environment with its secrets decrypted, for the runner only. ``repr`` shows no secret."""

    extra_vars: dict[str, Any]
    env_vars: dict[str, str]
    secret_env: dict[str, str] = dataclasses.field(repr=False)
    secret_extra_vars: dict[str, str] = dataclasses.field(repr=False)
    secret_values: list[str] = dataclasses.field(repr=False)  # every string to mask in output


@dataclasses.dataclass
class _Draft:
    """The environment's variables as they will be after a create or update, checked together."""

    extra_vars: dict[str, Any]
    env_vars: dict[str, str]
    secrets: list[SecretRef]


def _parse_yaml(text: str) -> dict[str, Any]:
    too_large = yaml_size_error(text)  # before loading: deep nesting, alias bombs
    if too_large is not None:
        raise InvalidInput("extra_vars_yaml", too_large)
    try:
        value = load_yaml(text)
    except yaml.YAMLError as exc:
        raise InvalidInput("extra_vars_yaml", f"not valid YAML: {exc}") from exc
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidInput("extra_vars_yaml", "must be a mapping of variable names to values")
    too_large = json_size_error(value)  # before dumping: aliases can expand a small text a lot
    if too_large is not None:
        raise InvalidInput("extra_vars_yaml", too_large)
    try:
        json.dumps(value)
    except (TypeError, ValueError) as exc:
        raise InvalidInput("extra_vars_yaml", "values must be JSON types (quote dates)") from exc
    return value


def _extra_vars(extra_vars: dict[str, Any] | None, yaml_text: str | None) -> dict[str, Any] | None:
    """The new extra vars from either field; None when neither was given."""
    if extra_vars is not None and yaml_text is not None:
        raise InvalidInput("extra_vars_yaml", "give extra_vars or extra_vars_yaml, not both")
    source = "extra_vars" if yaml_text is None else "extra_vars_yaml"
    value = _parse_yaml(yaml_text) if yaml_text is not None else extra_vars
    for name in value or {}:
        if not isinstance(name, str) or not VAR_NAME.match(name):
            raise InvalidInput(f"{source}.{name}", f"a variable name {VAR_NAME_RULE}")
    return value


def env_var_problem(name: str, value: str | None, *, secret: bool = False) -> str | None:
    """Why a run may not get the environment variable ``name`` (``value``: None for a secret
    being saved, whose value is only known at run time), or None. The reason quotes the value
    unless it is a ``secret``.

    Refused: what Steward sets or controls itself, what makes a program load other code, and a
    path setting of Ansible (ansible-core's own definitions) that is not a relative path staying
    inside the repository: Ansible would read server files with it (``ANSIBLE_VAULT_PASSWORD_FILE
    =/srv/steward/data/secret.key``). Relative paths start at the run's working directory, the
    checkout.
    """
    upper = name.upper()
    if upper == "ANSIBLE_CONFIG":
        return "Steward runs Ansible with the repository's own ansible.cfg; it may not be replaced"
    if upper.startswith("STEWARD_"):
        return "STEWARD_* variables are reserved for Steward"
    if upper in SET_BY_STEWARD:
        return "Steward sets this variable for every run; it may not be overridden"
    if upper in CODE_INJECTING:
        return "it makes programs of the run load other code; it may not be set"
    setting = ansible_config.env_path_vars().get(name)
    if setting is None or value is None:
        return None
    for path in ansible_config.split(value, setting.type):
        if problem := ansible_config.escapes(path):
            shown = "the secret's value" if secret else f"'{path}'"
            return f"Ansible reads it as a path ({setting.name}): {shown} {problem}"
    return None


def _check_env_names(env_vars: dict[str, str]) -> None:
    for name, value in env_vars.items():
        if not VAR_NAME.match(name):
            raise InvalidInput(f"env_vars.{name}", f"an environment variable name {VAR_NAME_RULE}")
        if problem := env_var_problem(name, str(value)):
            raise InvalidInput(f"env_vars.{name}", problem)


def _check_secret_names(draft: _Draft) -> None:
    plain = {SecretTarget.ENV: draft.env_vars, SecretTarget.EXTRA_VAR: draft.extra_vars}
    seen: set[tuple[SecretTarget, str]] = set()
    for i, ref in enumerate(draft.secrets):
        field = f"secrets[{i}].name"
        if not VAR_NAME.match(ref.name):
            raise InvalidInput(field, f"'{ref.name}' {VAR_NAME_RULE}")
        if (ref.target, ref.name) in seen:
            raise InvalidInput(field, f"'{ref.name}' is given twice for target '{ref.target}'")
        if ref.name in plain[ref.target]:
            where = "env_vars" if ref.target == SecretTarget.ENV else "extra_vars"
            raise InvalidInput(field, f"'{ref.name}' is also set in {where}")
        if ref.target == SecretTarget.ENV and (problem := env_var_problem(ref.name, None)):
            raise InvalidInput(field, f"'{ref.name}': {problem}")
        seen.add((ref.target, ref.name))


def _secret_keys(session: Session, project: Project, refs: list[SecretRef]) -> list[Key]:
    """The key of each reference, in order: in the project, and of a kind with one value."""
    wanted = {ref.key_id for ref in refs}
    found = {
        k.id: k
        for k in session.scalars(
            select(Key).where(Key.project_id == project.id, Key.id.in_(wanted))
        )
    }
    for i, ref in enumerate(refs):
        key = found.get(ref.key_id)
        if key is None:
            raise InvalidInput(
                f"secrets[{i}].key_id", f"key {ref.key_id} is not in project '{project.name}'"
            )
        if key.kind not in SECRET_KINDS:
            raise InvalidInput(
                f"secrets[{i}].key_id",
                f"key '{key.name}' is of kind '{key.kind}'; "
                "use a secret, login_password or vault_password key",
            )
    return [found[ref.key_id] for ref in refs]


def _sync_secrets(env: Environment, refs: list[SecretRef], keys_in_order: list[Key]) -> None:
    # reuse rows by (target, name): replacing them would insert before deleting and trip the
    # unique constraint
    existing = {(s.target, s.name): s for s in env.secrets}
    rows = []
    for ref, key in zip(refs, keys_in_order, strict=True):
        row = existing.pop((ref.target, ref.name), None) or EnvironmentSecret(
            name=ref.name, target=ref.target
        )
        row.key = key
        rows.append(row)
    env.secrets = rows


def _apply(session: Session, project: Project, env: Environment, draft: _Draft) -> None:
    _check_env_names(draft.env_vars)
    _check_secret_names(draft)
    keys_in_order = _secret_keys(session, project, draft.secrets)
    env.extra_vars = draft.extra_vars
    env.env_vars = draft.env_vars
    _sync_secrets(env, draft.secrets, keys_in_order)


def list_for_project(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[Environment], int]:
    return scoped.list_in_project(session, Environment, project, limit=limit, offset=offset)


def create(
    session: Session, project: Project, body: EnvironmentCreate, *, actor: Actor
) -> Environment:
    scoped.check_name_free(session, Environment, project, body.name, "environment")
    extra_vars = _extra_vars(body.extra_vars, body.extra_vars_yaml) or {}
    env = Environment(project_id=project.id, name=body.name, description=body.description)
    _apply(session, project, env, _Draft(extra_vars, body.env_vars, body.secrets))
    return audit.commit_created(session, actor, AuditAction.ENVIRONMENT_CREATE, env, _fields)


def update(
    session: Session, project: Project, env: Environment, body: EnvironmentUpdate, *, actor: Actor
) -> Environment:
    before = _fields(env)
    changes = scoped.changes_of(session, project, env, body, "environment")
    if "name" in changes:
        env.name = changes["name"]
    if "description" in changes:
        env.description = changes["description"]
    current = [SecretRef(name=s.name, target=s.target, key_id=s.key_id) for s in env.secrets]
    extra_vars = _extra_vars(body.extra_vars, body.extra_vars_yaml)
    draft = _Draft(
        extra_vars=extra_vars if extra_vars is not None else dict(env.extra_vars),
        env_vars=body.env_vars if body.env_vars is not None else dict(env.env_vars),
        secrets=body.secrets if body.secrets is not None else current,
    )
    _apply(session, project, env, draft)
    return audit.commit_updated(
        session, actor, AuditAction.ENVIRONMENT_UPDATE, env, before, _fields
    )


def delete(session: Session, env: Environment, *, actor: Actor) -> None:
    refuse_if_referenced(session, env)
    audit.commit_deleted(session, actor, AuditAction.ENVIRONMENT_DELETE, env, _fields)


def resolve(session: Session, cipher: KeyCipher, env: Environment) -> ResolvedEnvironment:
    """The environment's variables with every secret decrypted, ready for a run.

    The environment variables are checked again (``env_var_problem``): a row saved before a rule
    existed fails the run with the reason instead of running with it.
    """
    targets: dict[SecretTarget, dict[str, str]] = {t: {} for t in SecretTarget}
    masks: list[str] = []
    for ref in env.secrets:
        material = keys.reveal(session, cipher, ref.key_id, env.project_id)
        targets[SecretTarget(ref.target)][ref.name] = material.secret
        masks += material.secret_values()
    env_vars = {k: str(v) for k, v in env.env_vars.items()}
    _refuse_env(env, "env_vars", env_vars)
    _refuse_env(env, "secrets", targets[SecretTarget.ENV], secret=True)
    return ResolvedEnvironment(
        extra_vars=dict(env.extra_vars),
        env_vars=env_vars,
        secret_env=targets[SecretTarget.ENV],
        secret_extra_vars=targets[SecretTarget.EXTRA_VAR],
        secret_values=list(dict.fromkeys(masks)),
    )


def _refuse_env(
    env: Environment, where: str, variables: dict[str, str], *, secret: bool = False
) -> None:
    for name, value in variables.items():
        if problem := env_var_problem(name, value, secret=secret):
            raise InvalidState(f"environment '{env.name}': {where}.{name}: {problem}")
