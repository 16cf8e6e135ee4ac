"""Base classes for request and response bodies, and the page envelope."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from steward.bounds import Description, Name, Offset
from steward.errors import InvalidInput


class RequestModel(BaseModel):
    """Unknown fields are a 422 naming the field, never silently ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class UpdateModel(RequestModel):
    """A PATCH body: every field optional, only the fields sent change.

    An explicit ``null`` clears a field listed in ``NULLABLE``; on any other field it is a 422
    naming the field (``changes``), checked here once instead of in every service.
    """

    NULLABLE: ClassVar[frozenset[str]] = frozenset()

    def changes(self, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """The fields sent, by name; ``null`` only where ``NULLABLE`` allows it."""
        changes = self.model_dump(mode=mode, exclude_unset=True)
        nulls = sorted(
            f for f, value in changes.items() if value is None and f not in self.NULLABLE
        )
        if nulls:
            raise InvalidInput(nulls[0], "may not be null")
        return changes


class NamedUpdate(UpdateModel):
    """A PATCH body of a named object: its name and description, when sent."""

    name: Name | None = None
    description: Description | None = None


class ResponseModel(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class ScopedRead(ResponseModel):
    """An object of a project as read (``projects.scoped.ProjectScoped``): what they all show
    first."""

    id: int
    project_id: int
    name: str
    description: str


class Page[T](BaseModel):
    items: list[T]
    total: int
    limit: int
    offset: int

    @classmethod
    def of(cls, items: Sequence[T], total: int, page: PageParams) -> Page[T]:
        """``items`` of a list of ``total``, as asked for by ``page``."""
        return cls(items=list(items), total=total, limit=page.limit, offset=page.offset)


class OlderPage[T](BaseModel):
    """A page of a keyset list, newest first: pass ``next_before_id`` as ``before_id``."""

    items: list[T]
    next_before_id: int | None = Field(
        description="pass as before_id to get the next (older) page; null on the last page"
    )


class PageParams(BaseModel):
    limit: int = Field(default=50, ge=1, le=500)
    offset: Offset = 0
