from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow


class InventoryKind(enum.StrEnum):
    STATIC = "static"  # INI or YAML text stored here
    FILE = "file"  # a static inventory file inside the repository
    PLUGIN = "plugin"  # an inventory plugin config or executable script inside the repository


class InventoryFormat(enum.StrEnum):
    INI = "ini"
    YAML = "yaml"


class Inventory(Base):
    __tablename__ = "inventories"
    __table_args__ = (UniqueConstraint("project_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[InventoryKind] = mapped_column(String(10))
    format: Mapped[InventoryFormat | None] = mapped_column(String(10))
    content: Mapped[str] = mapped_column(Text, default="")
    repository_id: Mapped[int | None] = mapped_column(
        ForeignKey("repositories.id", ondelete="RESTRICT")
    )
    path: Mapped[str] = mapped_column(String(1000), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)
