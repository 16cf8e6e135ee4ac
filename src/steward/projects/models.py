from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow

# exactly one of user_id / team_id: a role (or a template grant) is held by a user or by a team
ONE_HOLDER = "(user_id IS NULL) <> (team_id IS NULL)"
AFTER_HOLDER = 1


class Held:
    """The holder of a right (a project role, a template grant): a user or a team, exactly one
    (``ONE_HOLDER``); it goes when they go. Its columns stand after the object's key and
    before the columns a model marks ``sort_order=AFTER_HOLDER``."""

    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), index=True
    )

    @staticmethod
    def constraints(table: str, key: str) -> tuple[Any, ...]:
        """Its ``__table_args__``: one holder a row, each holding once a ``key`` (a project)."""
        return (
            CheckConstraint(ONE_HOLDER, name="one_holder"),
            UniqueConstraint(key, "user_id", name=f"uq_{table}_{key}_user_id"),
            UniqueConstraint(key, "team_id", name=f"uq_{table}_{key}_team_id"),
        )


class ProjectRole(enum.StrEnum):
    OWNER = "owner"
    MANAGER = "manager"
    OPERATOR = "operator"
    VIEWER = "viewer"


class Project(Base):
    __tablename__ = "projects"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    description: Mapped[str] = mapped_column(Text, default="")
    max_parallel_runs: Mapped[int | None]
    # where its runs execute (templates may choose another); None: the default group
    runner_group_id: Mapped[int | None] = mapped_column(
        ForeignKey("runner_groups.id", ondelete="RESTRICT")
    )
    # directories (absolute paths, each inside STEWARD_LOCAL_REPOSITORY_ROOTS) where its local
    # repositories and git file:// URLs may be; only admins assign them (repositories/local.py)
    local_roots: Mapped[list[Any]] = mapped_column(default=list)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class ProjectMember(Held, Base):
    """A role in a project, held by a user or by a team (for each of its members)."""

    __tablename__ = "project_members"
    __table_args__ = Held.constraints("project_members", "project_id")

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[ProjectRole] = mapped_column(String(16), sort_order=AFTER_HOLDER)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, sort_order=AFTER_HOLDER)
