from __future__ import annotations

import enum

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.projects.scoped import ProjectScoped


class InventoryKind(enum.StrEnum):
    STATIC = "static"  # INI or YAML text stored here
    FILE = "file"  # a static inventory file inside the repository
    PLUGIN = "plugin"  # an inventory plugin config or executable script inside the repository


class InventoryFormat(enum.StrEnum):
    INI = "ini"
    YAML = "yaml"


class Inventory(ProjectScoped):
    __tablename__ = "inventories"

    kind: Mapped[InventoryKind] = mapped_column(String(10))
    format: Mapped[InventoryFormat | None] = mapped_column(String(10))
    content: Mapped[str] = mapped_column(Text, default="")
    repository_id: Mapped[int | None] = mapped_column(
        ForeignKey("repositories.id", ondelete="RESTRICT")
    )
    path: Mapped[str] = mapped_column(String(1000), default="")
    # pmproxy URL template of the hosts' metrics (steward.metrics.endpoints); "": not sampled
    metrics_endpoint: Mapped[str] = mapped_column(String(500), default="")
