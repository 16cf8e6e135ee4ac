from __future__ import annotations

import datetime as dt

from steward.grants.models import GrantPermission
from steward.projects.schemas import HolderRef
from steward.schemas import RequestModel, ResponseModel


class GrantCreate(HolderRef):
    """A grant on the template for a user (``user_id``) or a team (``team_id``)."""

    permission: GrantPermission


class GrantUpdate(RequestModel):
    permission: GrantPermission


class GrantRead(ResponseModel):
    id: int
    template_id: int
    user_id: int | None
    username: str | None
    team_id: int | None
    team_name: str | None
    permission: GrantPermission
    created_at: dt.datetime
