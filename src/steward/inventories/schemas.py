from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Annotated, Any

from pydantic import AfterValidator, Field

from steward.bounds import (
    Description,
    Id,
    InventoryContent,
    MetricsEndpoint,
    Name,
    PathText,
)
from steward.inventories.models import InventoryFormat, InventoryKind
from steward.inventories.paths import normalize
from steward.inventories.resolve import ResolvedInventory
from steward.schemas import NamedUpdate, RequestModel, ResponseModel, ScopedRead

InventoryPath = Annotated[PathText, AfterValidator(normalize)]


class InventoryCreate(RequestModel):
    name: Name
    description: Description = ""
    kind: InventoryKind
    format: InventoryFormat | None = None  # static only
    content: InventoryContent = ""  # static only
    repository_id: Id | None = None  # file and plugin only
    path: InventoryPath | None = None  # file and plugin only
    # pmproxy of each host, e.g. "http://{host}:44322" ({host}: its address); "": none
    metrics_endpoint: MetricsEndpoint = ""


class InventoryUpdate(NamedUpdate):
    kind: InventoryKind | None = None
    format: InventoryFormat | None = None
    content: InventoryContent | None = None
    repository_id: Id | None = None
    path: InventoryPath | None = None
    metrics_endpoint: MetricsEndpoint | None = None

    NULLABLE = frozenset({"format", "repository_id", "path"})


class InventoryPreview(RequestModel):
    """Unsaved static inventory text, resolved to show its hosts before saving."""

    format: InventoryFormat
    content: InventoryContent


class InventoryHealth(ResponseModel):
    """Its hosts' latest health checks (``…/hosts/{host}/health``): "2 of 40 unreachable now"."""

    unreachable_now: int = Field(description="hosts whose latest check failed")
    checked: int = Field(description="hosts checked at least once")
    hosts: int = Field(description="hosts it lists (as last read)")


class InventoryRead(ScopedRead):
    kind: InventoryKind
    format: InventoryFormat | None
    content: str
    repository_id: int | None
    path: str
    metrics_endpoint: str
    created_at: dt.datetime
    updated_at: dt.datetime
    health: InventoryHealth | None = Field(
        default=None, description="its hosts' health now: each host's latest check"
    )


class HostRead(ResponseModel):
    name: str
    groups: list[str]
    vars: dict[str, Any]


class GroupRead(ResponseModel):
    name: str
    hosts: list[str]
    children: list[str]
    vars: dict[str, Any]


class ResolvedRead(ResponseModel):
    """Hosts and groups as Ansible sees them; variables that look secret are ``********``."""

    hosts: list[HostRead]
    groups: list[GroupRead]

    @classmethod
    def of(cls, resolved: ResolvedInventory) -> ResolvedRead:
        return cls.model_validate(dataclasses.asdict(resolved))
