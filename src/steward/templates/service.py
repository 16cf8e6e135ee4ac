from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import ColumnElement, String, cast
from sqlalchemy.orm import Session, joinedload

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.environments.models import Environment
from steward.errors import InvalidInput
from steward.execution.ansible.venvs import check_choice as check_venv
from steward.inventories.models import Inventory
from steward.keys.models import Key, KeyKind
from steward.projects import scoped
from steward.projects.models import Project
from steward.references import refuse_if_referenced
from steward.repositories import playbooks
from steward.repositories.checkout import Reach, require_path
from steward.repositories.models import Repository
from steward.runner_groups import service as runner_groups
from steward.runs.models import Run
from steward.templates import reserved
from steward.templates.models import Template
from steward.templates.options import resolver as option_resolver
from steward.templates.schemas import TemplateCreate, TemplateUpdate

# many-to-one references are joined; vault keys come with one "selectin" query (see the model)
WITH_REFERENCES = (
    joinedload(Template.repository),
    joinedload(Template.inventory),
    joinedload(Template.environment),
    joinedload(Template.ssh_key),
    joinedload(Template.become_key),
)
REFERENCE_FIELDS = frozenset(
    {"repository_id", "inventory_id", "environment_id", "ssh_key_id", "become_key_id"}
    | {"vault_key_ids"}
)
NOUNS: dict[type[Any], str] = {
    Repository: "repository",
    Inventory: "inventory",
    Environment: "environment",
    Key: "key",
}
SSH_KINDS = frozenset({KeyKind.SSH, KeyKind.LOGIN_PASSWORD})
BECOME_KINDS = frozenset({KeyKind.LOGIN_PASSWORD})
AUDITED_FIELDS = (
    "name", "description", "playbook", "repository_id", "inventory_id", "environment_id",
    "ssh_key_id", "become_key_id", "vault_key_ids", "extra_vars", "limit", "tags", "skip_tags",
    "check_mode", "diff_mode", "verbosity", "forks", "timeout_seconds", "overridable", "survey",
    "install_requirements", "ansible_venv", "runner_group_id", "launch_var_exceptions",
    "plans_allowed", "plan_approval", "use_fact_cache",
    "preflight", "labels",
)  # fmt: skip
# what decides which survey variables launch values may set
LAUNCH_VAR_FIELDS = frozenset({"survey", "launch_var_exceptions", "ansible_venv"})


def _fields(template: Template) -> dict[str, Any]:
    """Every setting, survey included (a password question has no default to leak)."""
    return audit.snapshot(template, AUDITED_FIELDS)


def _visible(only: Collection[int] | None) -> list[ColumnElement[bool]]:
    return [] if only is None else [Template.id.in_(list(only))]


def _labelled(label: str | None) -> list[ColumnElement[bool]]:
    """Templates carrying ``label`` (a ``TemplateLabel``: no quote or backslash, so its JSON
    string is found as written in the stored list, on SQLite and PostgreSQL alike)."""
    if label is None:
        return []
    return [cast(Template.labels, String).contains(f'"{label}"', autoescape=True)]


def list_for_project(
    session: Session,
    project: Project,
    *,
    limit: int,
    offset: int,
    only: Collection[int] | None = None,
    label: str | None = None,
) -> tuple[list[Template], int]:
    """By name; ``only``: the ids the caller may see (None: all, policy.templates_allowing);
    ``label``: only those carrying it."""
    return scoped.list_in_project(
        session,
        Template,
        project,
        *_visible(only),
        *_labelled(label),
        limit=limit,
        offset=offset,
        options=WITH_REFERENCES,
    )


def get(
    session: Session, project: Project, template_id: int, *, only: Collection[int] | None = None
) -> Template:
    return scoped.get_in_project(
        session,
        Template,
        project,
        template_id,
        "template",
        *_visible(only),
        options=WITH_REFERENCES,
    )


def create(
    session: Session,
    project: Project,
    body: TemplateCreate,
    *,
    actor: Actor,
    reach: Reach,
    venvs: Sequence[str] = (),
) -> Template:
    """``reach``: to check out the repository and find the playbook in it; ``venvs``: the
    virtual environments it may choose besides the server's own
    (``execution.ansible.venvs.allowed``)."""
    scoped.check_name_free(session, Template, project, body.name, "template")
    check_venv(body.ansible_venv, venvs)
    if body.runner_group_id is not None:
        runner_groups.choose(session, actor, body.runner_group_id, "runner_group_id")
    template = Template(project_id=project.id)
    values = body.model_dump(mode="json")
    _apply(session, project, template, values)
    _check_survey_variables(template)
    option_resolver.check_at_save(session, template, reach.guard)
    _check_playbook(session, reach, template)
    return audit.commit_created(session, actor, AuditAction.TEMPLATE_CREATE, template, _fields)


def update(
    session: Session,
    project: Project,
    template: Template,
    body: TemplateUpdate,
    *,
    actor: Actor,
    reach: Reach,
    venvs: Sequence[str] = (),
) -> Template:
    """The playbook is looked for again only when it or the repository changes."""
    before = _fields(template)
    changes = body.changes(mode="json")
    if "ansible_venv" in changes:
        check_venv(changes["ansible_venv"], venvs)
    if changes.get("runner_group_id", template.runner_group_id) != template.runner_group_id:
        runner_groups.choose(session, actor, changes["runner_group_id"], "runner_group_id")
    scoped.check_rename(session, project, template, changes, "template")
    _apply(session, project, template, changes)
    if LAUNCH_VAR_FIELDS & changes.keys():
        _check_survey_variables(template)
    if "survey" in changes:
        option_resolver.check_at_save(session, template, reach.guard)
    if {"playbook", "repository_id"} & changes.keys():
        _check_playbook(session, reach, template)
    return audit.commit_updated(
        session, actor, AuditAction.TEMPLATE_UPDATE, template, before, _fields
    )


def delete(session: Session, template: Template, *, actor: Actor) -> None:
    refuse_if_referenced(session, template)
    scoped.refuse_while_runs_active(
        session, f"template '{template.name}'", Run.template_id == template.id
    )
    audit.commit_deleted(session, actor, AuditAction.TEMPLATE_DELETE, template, _fields)


def _check_survey_variables(template: Template) -> None:
    """A survey answer is a launch value: its variable may not be one Ansible reads as a
    setting (``templates.reserved``) unless the template excepts it."""
    for i, question in enumerate(template.survey):
        cause = reserved.refusal(
            str(question["variable"]),
            venv=template.ansible_venv,
            exceptions=template.launch_var_exceptions,
        )
        if cause is not None:
            raise InvalidInput(f"survey.{i}.variable", f"'{question['variable']}' {cause}")


def _check_playbook(session: Session, reach: Reach, template: Template) -> None:
    """The playbook must be a regular file in a checkout of the repository that stays inside
    itself (no symlink or ``ansible.cfg`` path leading out), and a list of plays."""
    require_path(
        session,
        reach,
        template.repository,
        template.playbook,
        field="playbook",
        regular_file=True,
        problem=playbooks.problem,
    )


def _apply(session: Session, project: Project, template: Template, changes: dict[str, Any]) -> None:
    """Set ``changes`` on ``template``; every reference is checked (project, kind) first."""
    if "repository_id" in changes:
        template.repository = _in_project(
            session, Repository, project, changes["repository_id"], "repository_id"
        )
    if "inventory_id" in changes:
        template.inventory = _in_project(
            session, Inventory, project, changes["inventory_id"], "inventory_id"
        )
    if "environment_id" in changes:
        template.environment = _optional(
            session, Environment, project, changes["environment_id"], "environment_id"
        )
    if "ssh_key_id" in changes:
        template.ssh_key = checked_key(
            session, project, changes["ssh_key_id"], "ssh_key_id", SSH_KINDS
        )
    if "become_key_id" in changes:
        template.become_key = checked_key(
            session, project, changes["become_key_id"], "become_key_id", BECOME_KINDS
        )
    if "vault_key_ids" in changes:
        template.vault_keys = _vault_keys(session, project, changes["vault_key_ids"])
    for field, value in changes.items():
        if field not in REFERENCE_FIELDS:
            setattr(template, field, value)


def _in_project[M: (Repository, Inventory, Environment, Key)](
    session: Session, model: type[M], project: Project, object_id: int, field: str
) -> M:
    found = session.get(model, object_id)
    if found is None or found.project_id != project.id:
        raise InvalidInput(field, f"{NOUNS[model]} {object_id} does not exist in this project")
    return found


def _optional[M: (Repository, Inventory, Environment, Key)](
    session: Session, model: type[M], project: Project, object_id: int | None, field: str
) -> M | None:
    return None if object_id is None else _in_project(session, model, project, object_id, field)


def checked_key(
    session: Session, project: Project, key_id: int | None, field: str, kinds: frozenset[KeyKind]
) -> Key | None:
    """The key ``key_id`` of ``project`` for ``field`` (a template's, an ad-hoc command's),
    which must be of one of ``kinds`` (422 naming ``field``)."""
    key = _optional(session, Key, project, key_id, field)
    if key is not None and key.kind not in kinds:
        wanted = " or ".join(sorted(kinds))
        article = "an" if wanted[0] in "aeiou" else "a"
        raise InvalidInput(
            field, f"key {key.id} is a {key.kind} key; {article} {wanted} key is required"
        )
    return key


def _vault_keys(session: Session, project: Project, key_ids: list[int]) -> list[Key]:
    keys = [_in_project(session, Key, project, key_id, "vault_key_ids") for key_id in key_ids]
    by_vault_id: dict[str, int] = {}
    for key in keys:
        if key.kind != KeyKind.VAULT_PASSWORD:
            raise InvalidInput(
                "vault_key_ids",
                f"key {key.id} is a {key.kind} key; only vault_password keys are allowed",
            )
        vault_id = key.vault_id or "default"
        if vault_id in by_vault_id:
            raise InvalidInput(
                "vault_key_ids",
                f"keys {by_vault_id[vault_id]} and {key.id} both have vault id '{vault_id}'",
            )
        by_vault_id[vault_id] = key.id
    return keys
