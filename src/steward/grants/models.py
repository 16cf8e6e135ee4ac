from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import CheckConstraint, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow
from steward.projects.models import ONE_HOLDER


class GrantPermission(enum.StrEnum):
    VIEW = "view"  # see the template and its runs
    RUN = "run"  # and launch it (with the overrides it allows), cancel its runs


class TemplateGrant(Base):
    """A right on one template for a user or a team, beside (or without) a project role."""

    __tablename__ = "template_grants"
    __table_args__ = (
        CheckConstraint(ONE_HOLDER, name="one_holder"),
        UniqueConstraint("template_id", "user_id", name="uq_template_grants_template_id_user_id"),
        UniqueConstraint("template_id", "team_id", name="uq_template_grants_template_id_team_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    template_id: Mapped[int] = mapped_column(
        ForeignKey("templates.id", ondelete="CASCADE"), index=True
    )
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), index=True
    )
    team_id: Mapped[int | None] = mapped_column(
        ForeignKey("teams.id", ondelete="CASCADE"), index=True
    )
    permission: Mapped[GrantPermission] = mapped_column(String(8))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
