from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow


class RepositoryKind(enum.StrEnum):
    GIT = "git"
    LOCAL = "local"


class Repository(Base):
    __tablename__ = "repositories"
    __table_args__ = (UniqueConstraint("project_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[RepositoryKind] = mapped_column(String(10))
    url: Mapped[str] = mapped_column(String(2000))  # git URL, or an absolute directory for local
    ref: Mapped[str] = mapped_column(String(200), default="")  # branch, tag or commit; "" = HEAD
    key_id: Mapped[int | None] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)
