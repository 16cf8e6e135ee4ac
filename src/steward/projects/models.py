from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow

# exactly one of user_id / team_id: a role (or a template grant) is held by a user or by a team
ONE_HOLDER = "(user_id IS NULL) <> (team_id IS NULL)"


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


class ProjectMember(Base):
    """A role in a project, held by a user or by a team (for each of its members)."""

    __tablename__ = "project_members"
    __table_args__ = (
        CheckConstraint(ONE_HOLDER, name="one_holder"),
        UniqueConstraint("project_id", "user_id", name="uq_project_members_project_id_user_id"),
        UniqueConstraint("project_id", "team_id", name="uq_project_members_project_id_team_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), index=True
    )
    role: Mapped[ProjectRole] = mapped_column(String(16))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
