from __future__ import annotations

import datetime as dt

from pydantic import Field

from steward.api.schemas import RequestModel, ResponseModel
from steward.projects.schemas import NAME_PATTERN


class TeamCreate(RequestModel):
    name: str = Field(min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str = Field(default="", max_length=10000)


class TeamUpdate(RequestModel):
    name: str | None = Field(default=None, min_length=1, max_length=100, pattern=NAME_PATTERN)
    description: str | None = Field(default=None, max_length=10000)


class TeamRead(ResponseModel):
    id: int
    name: str
    description: str
    created_at: dt.datetime


class TeamMemberAdd(RequestModel):
    user_id: int


class TeamMemberRead(ResponseModel):
    user_id: int
    username: str
    display_name: str
