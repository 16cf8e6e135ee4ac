from __future__ import annotations

import enum
from typing import Any

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped


class SecretTarget(enum.StrEnum):
    ENV = "env"  # exported as an environment variable of ansible-playbook
    EXTRA_VAR = "extra_var"  # written to the run's private extra-vars file (mode 0600)


class Environment(ProjectScoped):
    __tablename__ = "environments"

    extra_vars: Mapped[dict[str, Any]] = mapped_column(default=dict)
    env_vars: Mapped[dict[str, Any]] = mapped_column(default=dict)

    secrets: Mapped[list[EnvironmentSecret]] = relationship(
        cascade="all, delete-orphan", order_by="EnvironmentSecret.name", lazy="selectin"
    )


class EnvironmentSecret(Base):
    """A reference from an environment to a ``secret`` (or password) key, by variable name."""

    __tablename__ = "environment_secrets"
    __table_args__ = (UniqueConstraint("environment_id", "target", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    environment_id: Mapped[int] = mapped_column(
        ForeignKey("environments.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(200))
    target: Mapped[SecretTarget] = mapped_column(String(10))
    key_id: Mapped[int] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"), index=True)

    key: Mapped[Key] = relationship(lazy="selectin")

    @property
    def key_name(self) -> str:
        return self.key.name
