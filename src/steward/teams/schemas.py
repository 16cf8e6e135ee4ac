from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import AfterValidator, Field, StringConstraints

from steward.bounds import (
    DIRECTORY_GROUP_MAX,
    DIRECTORY_GROUPS_MAX,
    Description,
    Id,
    Name,
)
from steward.schemas import NamedUpdate, RequestModel, ResponseModel

DirectoryGroup = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True,
        min_length=1,
        max_length=DIRECTORY_GROUP_MAX,
        pattern=r"^[^\x00-\x1f\x7f]+$",  # no control characters (a newline in a DN is a mistake)
    ),
]


def _distinct(groups: list[str]) -> list[str]:
    """Each group once (after trimming), in the order given."""
    return list(dict.fromkeys(groups))


DirectoryGroups = Annotated[
    list[DirectoryGroup],
    Field(
        max_length=DIRECTORY_GROUPS_MAX,
        description="Directory groups whose members join this team at each of their directory"
        " logins (LDAP group DNs, compared without case; OIDC group claim values), and leave it"
        " when no longer in any of them; memberships added by hand are never touched",
    ),
    AfterValidator(_distinct),
]


class TeamCreate(RequestModel):
    name: Name
    description: Description = ""
    directory_groups: DirectoryGroups = Field(default_factory=list)


class TeamUpdate(NamedUpdate):
    """Only the fields sent change."""

    directory_groups: DirectoryGroups | None = None


class TeamRead(ResponseModel):
    id: int
    name: str
    description: str
    directory_groups: list[str]
    created_at: dt.datetime


class TeamMemberAdd(RequestModel):
    user_id: Id


class TeamMemberRead(ResponseModel):
    user_id: int
    username: str
    display_name: str
    synced: bool = Field(
        default=False, description="given by a directory login (the user's groups), not by hand"
    )
