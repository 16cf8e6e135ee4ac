"""What a run needs to execute, as a worker reads it: typed, versioned, stored on the run as JSON.

Written once at launch (template values, allowed overrides, survey answers) and never changed;
a relaunch copies it. Secret survey answers are not in it: only their names, shown as
``********``, while the values are sealed in ``Run.secret_params``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from steward.bounds import Forks, Verbosity
from steward.errors import InvalidState
from steward.templates import patterns


class AdhocCommand(BaseModel):
    """What an ad-hoc run (``RunKind.ADHOC``) runs instead of a playbook: one allow-listed
    module with its arguments (data given at launch: written ``!unsafe``, never Jinja) as one
    task of a play on the limit's hosts, with ``become`` or not."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    module: str
    args: dict[str, Any] = Field(default_factory=dict)
    become: bool = False


class RunParams(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: Literal[1] = 1  # bumped when a field changes meaning; old rows stay readable
    playbook: str = ""  # an ad-hoc run's is generated in its private directory
    repository_id: int | None = None  # an ad-hoc run's: its file inventory's, if any
    inventory_id: int
    environment_id: int | None = None
    ssh_key_id: int | None = None
    become_key_id: int | None = None
    vault_key_ids: list[int] = Field(default_factory=list)
    ref: str | None = Field(
        default=None, description="branch, tag or commit replacing the repository's (a webhook's)"
    )
    limit: str = Field(default="", description="as launched (the host scope applies on top)")
    host_scope: list[str] | None = Field(
        default=None,
        description="the launcher's host scope (their grants' hosts): the run targets only"
        " hosts these select, and refuses to start if its limit would reach another",
    )
    tags: str = ""
    skip_tags: str = ""
    check_mode: bool = False
    diff_mode: bool = False
    verbosity: Verbosity = 0
    forks: Forks | None = None
    timeout_seconds: int | None = None
    extra_vars: dict[str, Any] = Field(
        default_factory=dict, description="the template's own: trusted, Jinja is evaluated"
    )
    launch_vars: dict[str, Any] = Field(
        default_factory=dict,
        description="given at launch (extra vars override, survey answers): data, never Jinja",
    )
    secret_extra_vars: dict[str, str] = Field(
        default_factory=dict, description="names of secret survey answers (values sealed)"
    )
    install_requirements: bool = Field(
        default=True, description="install the repository's roles and collections first"
    )
    use_fact_cache: bool = Field(
        default=False, description="start with the project's stored facts as the fact cache"
    )
    adhoc: AdhocCommand | None = Field(default=None, description="an ad-hoc run's command")
    ansible_venv: str = Field(
        default="", description='the virtual environment whose Ansible runs it ("": the server\'s)'
    )

    @property
    def effective_limit(self) -> str:
        """The ``--limit`` the run passes: its limit intersected with its host scope."""
        if self.host_scope is None:
            return self.limit
        return patterns.scoped_limit(self.limit, self.host_scope)

    @classmethod
    def of(cls, stored: dict[str, Any], run_id: int) -> RunParams:
        """The parameters stored on run ``run_id``; a row that does not hold them is an
        ``InvalidState`` (the run fails with the reason), never a KeyError deep in a worker."""
        try:
            return cls.model_validate(stored)
        except ValueError as exc:
            raise InvalidState(f"run {run_id} has no valid parameters: {exc}") from exc
