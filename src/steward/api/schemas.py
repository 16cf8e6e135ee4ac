"""Base classes for request and response bodies, and the page envelope."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from steward.api.bounds import Position


class RequestModel(BaseModel):
    """Unknown fields are a 422 naming the field, never silently ignored."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=False)


class ResponseModel(BaseModel):
    model_config = ConfigDict(from_attributes=True)


class Page[T](BaseModel):
    items: list[T]
    total: int
    limit: int
    offset: int


class PageParams(BaseModel):
    limit: int = Field(default=50, ge=1, le=500)
    offset: Position = Field(default=0, ge=0)
