from __future__ import annotations

import datetime as dt

from steward.api.bounds import Description, Id, Name
from steward.api.schemas import NamedUpdate, RequestModel, ResponseModel


class TeamCreate(RequestModel):
    name: Name
    description: Description = ""


class TeamUpdate(NamedUpdate):
    """Only the fields sent change."""


class TeamRead(ResponseModel):
    id: int
    name: str
    description: str
    created_at: dt.datetime


class TeamMemberAdd(RequestModel):
    user_id: Id


class TeamMemberRead(ResponseModel):
    user_id: int
    username: str
    display_name: str
