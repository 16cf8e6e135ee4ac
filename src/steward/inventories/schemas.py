from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from pydantic import Field

from steward.api.schemas import RequestModel, ResponseModel
from steward.inventories.models import InventoryFormat, InventoryKind
from steward.inventories.paths import RepositoryPath
from steward.inventories.resolve import ResolvedInventory
from steward.projects.schemas import NAME_PATTERN

MAX_CONTENT = 1_000_000


class InventoryCreate(RequestModel):
    name: str = Field(min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str = Field(default="", max_length=10000)
    kind: InventoryKind
    format: InventoryFormat | None = None  # static only
    content: str = Field(default="", max_length=MAX_CONTENT)  # static only
    repository_id: int | None = None  # file and plugin only
    path: RepositoryPath | None = None  # file and plugin only


class InventoryUpdate(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str | None = Field(default=None, max_length=10000)
    kind: InventoryKind | None = None
    format: InventoryFormat | None = None
    content: str | None = Field(default=None, max_length=MAX_CONTENT)
    repository_id: int | None = None
    path: RepositoryPath | None = None


class InventoryPreview(RequestModel):
    """Unsaved static inventory text, resolved to show its hosts before saving."""

    format: InventoryFormat
    content: str = Field(max_length=MAX_CONTENT)


class InventoryRead(ResponseModel):
    id: int
    project_id: int
    name: str
    description: str
    kind: InventoryKind
    format: InventoryFormat | None
    content: str
    repository_id: int | None
    path: str
    created_at: dt.datetime
    updated_at: dt.datetime


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
