from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, status

from steward.api.deps import (
    AdminActor,
    DirectoryReader,
    PageQuery,
    SessionDep,
    StoredPathIds,
)
from steward.schemas import Page
from steward.teams import service
from steward.teams.models import Team
from steward.teams.schemas import TeamCreate, TeamMemberAdd, TeamMemberRead, TeamRead, TeamUpdate

router = APIRouter(prefix="/teams", tags=["teams"], dependencies=[StoredPathIds])


def _viewed(team_id: int, _reader: DirectoryReader, session: SessionDep) -> Team:
    return service.get(session, team_id)


def _managed(team_id: int, _admin: AdminActor, session: SessionDep) -> Team:
    return service.get(session, team_id)


ViewedTeam = Annotated[Team, Depends(_viewed)]
ManagedTeam = Annotated[Team, Depends(_managed)]


@router.get("")
def list_teams(_reader: DirectoryReader, session: SessionDep, page: PageQuery) -> Page[TeamRead]:
    """Admins, and project owners choosing a team to give a role to."""
    rows, total = service.list_all(session, limit=page.limit, offset=page.offset)
    items = [TeamRead.model_validate(t) for t in rows]
    return Page.of(items, total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_team(body: TeamCreate, admin: AdminActor, session: SessionDep) -> TeamRead:
    return TeamRead.model_validate(service.create(session, admin, body))


@router.get("/{team_id}")
def read_team(team: ViewedTeam) -> TeamRead:
    return TeamRead.model_validate(team)


@router.patch("/{team_id}")
def update_team(
    team: ManagedTeam, body: TeamUpdate, admin: AdminActor, session: SessionDep
) -> TeamRead:
    return TeamRead.model_validate(service.update(session, admin, team, body))


@router.delete("/{team_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_team(team: ManagedTeam, admin: AdminActor, session: SessionDep) -> None:
    """Its project roles and template grants end with it."""
    service.delete(session, admin, team)


@router.get("/{team_id}/members")
def list_team_members(team: ViewedTeam, session: SessionDep) -> list[TeamMemberRead]:
    return [
        TeamMemberRead(
            user_id=u.id, username=u.username, display_name=u.display_name, synced=synced
        )
        for u, synced in service.list_members(session, team)
    ]


@router.post("/{team_id}/members", status_code=status.HTTP_201_CREATED)
def add_team_member(
    team: ManagedTeam, body: TeamMemberAdd, admin: AdminActor, session: SessionDep
) -> TeamMemberRead:
    user = service.add_member(session, admin, team, body.user_id)
    return TeamMemberRead(user_id=user.id, username=user.username, display_name=user.display_name)


@router.delete("/{team_id}/members/{user_id}", status_code=status.HTTP_204_NO_CONTENT)
def remove_team_member(
    team: ManagedTeam, user_id: int, admin: AdminActor, session: SessionDep
) -> None:
    service.remove_member(session, admin, team, user_id)
