from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base
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
    # when its hosts were last resolved into ``inventory_hosts``; None: never yet
    hosts_read_at: Mapped[dt.datetime | None]
    host_rows: Mapped[list[InventoryHost]] = relationship(
        cascade="all, delete-orphan", passive_deletes=True
    )


class InventoryHost(Base):
    """A host of an inventory as Ansible last resolved it (a static inventory when it is saved,
    any inventory whenever its hosts are read): what the hosts view searches by name, group and
    variable without running ``ansible-inventory`` per request. Variables are masked as the
    hosts read masks them (``inventories.redaction``)."""

    __tablename__ = "inventory_hosts"
    __table_args__ = (Index("ix_inventory_hosts_name", "name"),)

    inventory_id: Mapped[int] = mapped_column(
        ForeignKey("inventories.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    groups: Mapped[list[Any]] = mapped_column(default=list)  # names, sorted
    vars: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # where Ansible connects (``inventories.connection``: host, port, connection as merged
    # from group and host variables, raw); what the health checks probe
    connection: Mapped[dict[str, Any]] = mapped_column(default=dict, server_default="{}")
