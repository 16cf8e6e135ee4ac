from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow
from steward.projects.models import AFTER_HOLDER, Held


class GrantPermission(enum.StrEnum):
    VIEW = "view"  # see the template and its runs
    RUN = "run"  # and launch it (with the overrides it allows), cancel its runs


class TemplateGrant(Held, Base):
    """A right on one template for a user or a team, beside (or without) a project role."""

    __tablename__ = "template_grants"
    __table_args__ = Held.constraints("template_grants", "template_id")

    id: Mapped[int] = mapped_column(primary_key=True)
    template_id: Mapped[int] = mapped_column(
        ForeignKey("templates.id", ondelete="CASCADE"), index=True
    )
    permission: Mapped[GrantPermission] = mapped_column(String(8), sort_order=AFTER_HOLDER)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, sort_order=AFTER_HOLDER)
    # the host patterns or groups a ``run`` grant limits launches to ([]: every host)
    hosts: Mapped[list[Any]] = mapped_column(
        JSON, default=list, server_default="[]", sort_order=AFTER_HOLDER
    )
