from __future__ import annotations

import datetime as dt

from pydantic import Field, model_validator

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
    permissions: list[str] = Field(
        default_factory=list,
        description="The caller's project-wide actions (policy.Action values)",
    )


class HolderRef(RequestModel):
    """Who holds a role or a grant: exactly one of a user and a team."""

    user_id: int | None = None
    team_id: int | None = None

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
