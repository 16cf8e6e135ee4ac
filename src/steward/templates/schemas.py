from __future__ import annotations

import datetime as dt
import enum
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError

from steward.bounds import (
    PATH_MAX,
    Description,
    Forks,
    Id,
    Name,
    PathText,
    TemplateLabels,
    TimeoutSeconds,
    Verbosity,
)
from steward.inventories.paths import normalize
from steward.schemas import NamedUpdate, RequestModel, ResponseModel, ScopedRead
from steward.templates.models import Preflight
from steward.templates.patterns import HostPattern, TagList
from steward.templates.reserved import EXCEPTIONS_MAX
from steward.templates.survey import Question, Survey
from steward.templates.variables import ExtraVars, VariableName


class OverridableField(enum.StrEnum):
    """Launch fields a template may let a launch override (``LaunchOverrides``)."""

    LIMIT = "limit"
    TAGS = "tags"
    SKIP_TAGS = "skip_tags"
    CHECK_MODE = "check_mode"
    DIFF_MODE = "diff_mode"
    VERBOSITY = "verbosity"
    FORKS = "forks"
    TIMEOUT_SECONDS = "timeout_seconds"
    EXTRA_VARS = "extra_vars"
    INVENTORY_ID = "inventory_id"
    REF = "ref"  # the repository's branch, tag or commit (a webhook's pushed commit)


def _playbook(path: str) -> str:
    if not path.endswith((".yml", ".yaml")):
        raise PydanticCustomError("playbook", "a playbook is a .yml or .yaml file")
    return path


def _distinct[T](values: list[T]) -> list[T]:
    if len(set(values)) != len(values):
        raise PydanticCustomError("distinct", "lists the same value twice")
    return values


PlaybookPath = Annotated[PathText, AfterValidator(normalize), AfterValidator(_playbook)]
Overridable = Annotated[
    list[OverridableField], Field(max_length=len(OverridableField)), AfterValidator(_distinct)
]
AnsibleVenv = Annotated[str, Field(max_length=PATH_MAX)]
VaultKeyIds = Annotated[list[Id], Field(max_length=20), AfterValidator(_distinct)]
LaunchVarExceptions = Annotated[
    list[VariableName], Field(max_length=EXCEPTIONS_MAX), AfterValidator(_distinct)
]
EXCEPTIONS_DOC = (
    "variables Ansible reads as settings (ansible_*, connection, become, shell… plugin"
    " variables, magic variables) that launch values (extra vars, survey answers, schedules,"
    " webhooks, workflow nodes, relaunches) may set all the same: each lets a launcher change"
    " how Ansible connects, escalates or runs code"
)

FACT_CACHE_DOC = (
    "its runs start with the facts earlier runs gathered on the project's hosts as Ansible's"
    " fact cache: a play with gather_facts: false still sees ansible_facts"
)
PLANS_ALLOWED_DOC = (
    "it may be launched as a plan (check + diff mode; what would change per host and task),"
    " whose apply is bound to what the plan ran"
)
PLAN_APPROVAL_DOC = (
    "its plans need the approval of someone other than their launcher (permission"
    " 'plan:approve') before they are applied"
)
LABELS_DOC = (
    'short slugs ("prod", "db"): a freeze window with labels freezes the templates carrying at'
    " least one of them"
)
PREFLIGHT_DOC = (
    "before ansible-playbook starts, check the run's target hosts on the port Ansible uses:"
    " off; check (the failing hosts are recorded on the run); skip_unreachable (and left out"
    " of the run; when every host fails, the run fails)"
)


class RunOptionChanges(RequestModel):
    """A template's run options, each optional: what a template's update changes, and what a
    launch overrides (those its template allows, ``OverridableField``)."""

    limit: HostPattern | None = None
    tags: TagList | None = None
    skip_tags: TagList | None = None
    check_mode: bool | None = None
    diff_mode: bool | None = None
    verbosity: Verbosity | None = None
    forks: Forks | None = None
    timeout_seconds: TimeoutSeconds | None = None
    extra_vars: ExtraVars | None = None
    inventory_id: Id | None = None


class TemplateCreate(RequestModel):
    name: Name
    description: Description = ""
    playbook: PlaybookPath
    repository_id: Id
    inventory_id: Id
    environment_id: Id | None = None
    ssh_key_id: Id | None = None  # an ssh or login_password key
    become_key_id: Id | None = None  # a login_password key
    vault_key_ids: VaultKeyIds = Field(
        default_factory=list
    )  # vault_password keys, with distinct vault ids
    extra_vars: ExtraVars = Field(default_factory=dict)
    limit: HostPattern = ""
    tags: TagList = ""
    skip_tags: TagList = ""
    check_mode: bool = False
    diff_mode: bool = False
    verbosity: Verbosity = 0
    forks: Forks | None = None
    timeout_seconds: TimeoutSeconds | None = None
    overridable: Overridable = Field(default_factory=list)
    survey: Survey = Field(default_factory=list)
    launch_var_exceptions: LaunchVarExceptions = Field(
        default_factory=list, description=EXCEPTIONS_DOC
    )
    install_requirements: bool = Field(
        default=True,
        description="install the roles and collections of the repository's requirements files"
        " before each run",
    )
    ansible_venv: AnsibleVenv = Field(
        default="",
        description='the virtual environment whose Ansible runs the playbook: "" for the'
        " server's own, else one listed by GET /ansible-venvs",
    )
    runner_group_id: Id | None = Field(
        default=None, description="where its runs execute (admins choose); null: the project's"
    )
    plans_allowed: bool = Field(default=False, description=PLANS_ALLOWED_DOC)
    use_fact_cache: bool = Field(default=False, description=FACT_CACHE_DOC)
    plan_approval: bool = Field(default=False, description=PLAN_APPROVAL_DOC)
    preflight: Preflight = Field(default=Preflight.OFF, description=PREFLIGHT_DOC)
    labels: TemplateLabels = Field(default_factory=list, description=LABELS_DOC)


class TemplateUpdate(NamedUpdate, RunOptionChanges):
    """Only the fields sent change; ``null`` clears the optional ones."""

    playbook: PlaybookPath | None = None
    repository_id: Id | None = None
    environment_id: Id | None = None
    ssh_key_id: Id | None = None
    become_key_id: Id | None = None
    vault_key_ids: VaultKeyIds | None = None
    overridable: Overridable | None = None
    survey: Survey | None = None
    launch_var_exceptions: LaunchVarExceptions | None = Field(
        default=None, description=EXCEPTIONS_DOC
    )
    install_requirements: bool | None = None
    ansible_venv: AnsibleVenv | None = None
    runner_group_id: Id | None = None
    plans_allowed: bool | None = Field(default=None, description=PLANS_ALLOWED_DOC)
    use_fact_cache: bool | None = Field(default=None, description=FACT_CACHE_DOC)
    plan_approval: bool | None = Field(default=None, description=PLAN_APPROVAL_DOC)
    preflight: Preflight | None = Field(default=None, description=PREFLIGHT_DOC)
    labels: TemplateLabels | None = Field(default=None, description=LABELS_DOC)

    NULLABLE = frozenset(
        {"environment_id", "ssh_key_id", "become_key_id", "forks", "timeout_seconds"}
        | {"runner_group_id"}
    )


class NamedRef(ResponseModel):
    id: int
    name: str


class TemplateRead(ScopedRead):
    playbook: str
    repository_id: int
    repository: NamedRef
    inventory_id: int
    inventory: NamedRef
    environment_id: int | None
    environment: NamedRef | None
    ssh_key_id: int | None
    ssh_key: NamedRef | None
    become_key_id: int | None
    become_key: NamedRef | None
    vault_key_ids: list[int]
    vault_keys: list[NamedRef]
    extra_vars: dict[str, Any]
    limit: str
    tags: str
    skip_tags: str
    check_mode: bool
    diff_mode: bool
    verbosity: int
    forks: int | None
    timeout_seconds: int | None
    overridable: list[OverridableField]
    survey: list[Question]
    launch_var_exceptions: list[str] = Field(description=EXCEPTIONS_DOC)
    install_requirements: bool
    ansible_venv: str
    runner_group_id: int | None
    plans_allowed: bool = Field(description=PLANS_ALLOWED_DOC)
    use_fact_cache: bool = Field(description=FACT_CACHE_DOC)
    plan_approval: bool = Field(description=PLAN_APPROVAL_DOC)
    preflight: Preflight = Field(description=PREFLIGHT_DOC)
    labels: list[str] = Field(description=LABELS_DOC)
    created_at: dt.datetime
    updated_at: dt.datetime
    permissions: list[str] = Field(
        default_factory=list,
        description="What the caller may do with this template: view, run, write",
    )
    launch_hosts: list[str] | None = Field(
        default=None,
        description="the host patterns or groups the caller's launches are limited to (the"
        " host scope of their grants: a run targets only hosts these select); null: every host",
    )
    launch_hosts_now: HostsReached | None = Field(
        default=None,
        description="with launch_hosts: the hosts of the template's inventory (as Steward last"
        " read it) they select now; null: every host",
    )


class HostsReached(BaseModel):
    names: list[str] = Field(description="the first 200 by name")
    count: int = Field(description="how many in all")
    unresolved: list[str] = Field(
        description="patterns with ~regex or [range] elements, not resolved here: they may"
        " select more hosts when a run starts"
    )


class AnsibleVenvRead(BaseModel):
    path: str = Field(description='"" for the server\'s own')
    ansible_version: str = Field(description='ansible-core\'s version, "" when unknown')
    problem: str | None = Field(description="why it cannot run Ansible, or null")
