from __future__ import annotations

import enum
from typing import Any

from sqlalchemy import JSON, Column, ForeignKey, String, Table, false
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base
from steward.environments.models import Environment
from steward.inventories.models import Inventory
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped
from steward.repositories.models import Repository

template_vault_keys = Table(
    "template_vault_keys",
    Base.metadata,
    Column("template_id", ForeignKey("templates.id", ondelete="CASCADE"), primary_key=True),
    Column("key_id", ForeignKey("keys.id", ondelete="RESTRICT"), primary_key=True),
)


class Preflight(enum.StrEnum):
    """Before ansible-playbook starts, the run's target hosts checked on the port Ansible uses:
    not at all, checked (the failing ones recorded on the run), or checked and the failing
    ones left out of the run (all failing: the run fails)."""

    OFF = "off"
    CHECK = "check"
    SKIP_UNREACHABLE = "skip_unreachable"


class Template(ProjectScoped):
    __tablename__ = "templates"

    playbook: Mapped[str] = mapped_column(String(1000))
    repository_id: Mapped[int] = mapped_column(ForeignKey("repositories.id", ondelete="RESTRICT"))
    inventory_id: Mapped[int] = mapped_column(ForeignKey("inventories.id", ondelete="RESTRICT"))
    environment_id: Mapped[int | None] = mapped_column(
        ForeignKey("environments.id", ondelete="RESTRICT")
    )
    ssh_key_id: Mapped[int | None] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    become_key_id: Mapped[int | None] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    # where its runs execute; None: the project's runner group
    runner_group_id: Mapped[int | None] = mapped_column(
        ForeignKey("runner_groups.id", ondelete="RESTRICT")
    )

    # launch defaults
    extra_vars: Mapped[dict[str, Any]] = mapped_column(default=dict)
    limit: Mapped[str] = mapped_column(String(1000), default="")
    tags: Mapped[str] = mapped_column(String(1000), default="")
    skip_tags: Mapped[str] = mapped_column(String(1000), default="")
    check_mode: Mapped[bool] = mapped_column(default=False)
    diff_mode: Mapped[bool] = mapped_column(default=False)
    verbosity: Mapped[int] = mapped_column(default=0)
    forks: Mapped[int | None]
    timeout_seconds: Mapped[int | None]
    # install the repository's requirements files (roles, collections) before each run
    install_requirements: Mapped[bool] = mapped_column(default=True)
    # the virtual environment whose Ansible runs it: "" the server's own, else one of
    # STEWARD_ANSIBLE_VENVS (execution/ansible/venvs.py)
    ansible_venv: Mapped[str] = mapped_column(String(1000), default="")
    # plans (check + diff runs whose apply is bound to them) may be launched; with
    # ``plan_approval`` a plan needs another person's approval before its apply (``plans``)
    plans_allowed: Mapped[bool] = mapped_column(default=False, server_default=false())
    plan_approval: Mapped[bool] = mapped_column(default=False, server_default=false())
    # its runs read the project's stored facts as Ansible's fact cache (``hosts.facts``)
    use_fact_cache: Mapped[bool] = mapped_column(default=False, server_default=false())
    # before ansible-playbook starts, check the target hosts on the port Ansible uses
    # (``execution.preflight``): off, check (record the failing ones), skip_unreachable (and
    # leave them out of the run)
    preflight: Mapped[Preflight] = mapped_column(String(24), default="off", server_default="off")
    # names of the launch fields a launch may override (see templates.schemas.OverridableField)
    overridable: Mapped[list[Any]] = mapped_column(default=list)
    # survey questions, validated by templates.survey.Question
    survey: Mapped[list[Any]] = mapped_column(default=list)
    # variables Ansible reads as settings that launch values may set all the same, by name
    # (templates.reserved); only template writers set it
    launch_var_exceptions: Mapped[list[Any]] = mapped_column(default=list)
    # short slugs, sorted ("db", "prod"): what freeze windows with labels freeze (``freezes``)
    labels: Mapped[list[Any]] = mapped_column(JSON, default=list, server_default="[]")

    # referenced objects, for their names in reads; templates.service loads them with joins
    repository: Mapped[Repository] = relationship()
    inventory: Mapped[Inventory] = relationship()
    environment: Mapped[Environment | None] = relationship()
    ssh_key: Mapped[Key | None] = relationship(foreign_keys=[ssh_key_id])
    become_key: Mapped[Key | None] = relationship(foreign_keys=[become_key_id])
    vault_keys: Mapped[list[Key]] = relationship(
        secondary=template_vault_keys, lazy="selectin", order_by=Key.id
    )

    @property
    def vault_key_ids(self) -> list[int]:
        return [key.id for key in self.vault_keys]
