from __future__ import annotations

import datetime as dt
from typing import Annotated

from pydantic import Field, model_validator

from steward.bounds import LOCAL_ROOTS_MAX, PATH_MAX, Description, Id, Name
from steward.projects.models import ProjectRole
from steward.schemas import NamedUpdate, RequestModel, ResponseModel

RUNNER_GROUP = "where runs execute (admins choose it); null: the default group"


class ProjectCreate(RequestModel):
    name: Name
    description: Description = ""
    max_parallel_runs: int | None = Field(default=None, ge=1, le=256)
    runner_group_id: Id | None = Field(default=None, description=RUNNER_GROUP)


class ProjectUpdate(NamedUpdate):
    max_parallel_runs: int | None = Field(default=None, ge=1, le=256)
    runner_group_id: Id | None = Field(default=None, description=RUNNER_GROUP)

    # null: the server's default limit, the default group
    NULLABLE = frozenset({"max_parallel_runs", "runner_group_id"})


LocalRoot = Annotated[str, Field(min_length=1, max_length=PATH_MAX, pattern=r"^/[^\x00-\x1f]*$")]


class LocalRootsSet(RequestModel):
    """The project's local directories (admins only): its local repositories and git
    ``file://`` URLs must be inside one of them. Each an absolute directory strictly inside
    STEWARD_LOCAL_REPOSITORY_ROOTS; ``[]`` takes them all away."""

    local_roots: list[LocalRoot] = Field(max_length=LOCAL_ROOTS_MAX)


class ProjectRead(ResponseModel):
    id: int
    name: str
    description: str
    max_parallel_runs: int | None
    runner_group_id: int | None
    local_roots: list[str] = Field(
        description="directories its local repositories and git file:// URLs must be inside"
        " (assigned by admins: PUT /projects/{id}/local-roots)"
    )
    created_at: dt.datetime
    updated_at: dt.datetime
    permissions: list[str] = Field(
        default_factory=list,
        description="The caller's project-wide actions (policy.Action values)",
    )


class HolderRef(RequestModel):
    """Who holds a role or a grant: exactly one of a user and a team."""

    user_id: Id | None = None
    team_id: Id | None = None

    @model_validator(mode="after")
    def _one_holder(self) -> HolderRef:
        if (self.user_id is None) == (self.team_id is None):
            raise ValueError("give exactly one of user_id and team_id")
        return self


class MemberSet(HolderRef):
    role: ProjectRole


class MemberRead(ResponseModel):
    """A role held by a user (user_id, username) or by a team (team_id, team_name)."""

    user_id: int | None
    username: str | None
    team_id: int | None
    team_name: str | None
    role: ProjectRole
