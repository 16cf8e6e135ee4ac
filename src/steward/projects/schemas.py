from __future__ import annotations

import datetime as dt

from pydantic import Field

from steward.api.schemas import RequestModel, ResponseModel
from steward.projects.models import ProjectRole

NAME_PATTERN = r"^[^/\x00-\x1f]+$"


class ProjectCreate(RequestModel):
    name: str = Field(min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str = Field(default="", max_length=10000)
    max_parallel_runs: int | None = Field(default=None, ge=1, le=256)


class ProjectUpdate(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str | None = Field(default=None, max_length=10000)
    max_parallel_runs: int | None = Field(default=None, ge=1, le=256)


class ProjectRead(ResponseModel):
    id: int
    name: str
    description: str
    max_parallel_runs: int | None
    created_at: dt.datetime
    updated_at: dt.datetime


class MemberSet(RequestModel):
    user_id: int
    role: ProjectRole


class MemberRead(ResponseModel):
    user_id: int
    username: str
    role: ProjectRole
