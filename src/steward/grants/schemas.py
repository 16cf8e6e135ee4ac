from __future__ import annotations

import datetime as dt

from pydantic import Field

from steward.bounds import HOST_SCOPE_MAX
from steward.grants.models import GrantPermission
from steward.projects.schemas import HolderRef
from steward.schemas import ResponseModel, UpdateModel
from steward.templates.patterns import HostScopeEntry

HostScope = list[HostScopeEntry]
HOSTS_DESCRIPTION = (
    "host patterns or groups (one Ansible pattern each) that the grantee's launches are"
    " limited to; [] for every host of the template's inventory"
)


class GrantCreate(HolderRef):
    """A grant on the template for a user (``user_id``) or a team (``team_id``)."""

    permission: GrantPermission
    hosts: HostScope = Field(
        default_factory=list, max_length=HOST_SCOPE_MAX, description=HOSTS_DESCRIPTION
    )


class GrantUpdate(UpdateModel):
    permission: GrantPermission | None = None
    hosts: HostScope | None = Field(
        default=None, max_length=HOST_SCOPE_MAX, description=HOSTS_DESCRIPTION
    )


class GrantRead(ResponseModel):
    id: int
    template_id: int
    user_id: int | None
    username: str | None
    team_id: int | None
    team_name: str | None
    permission: GrantPermission
    hosts: list[str]
    created_at: dt.datetime
