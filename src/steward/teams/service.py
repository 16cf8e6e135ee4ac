"""Teams: named groups of users. Admins manage them; roles and grants may name a team."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.db import paged
from steward.errors import Conflict, InvalidInput, NotFound
from steward.projects.scoped import changes_of, check_name_free
from steward.teams.models import Team, TeamMember
from steward.teams.schemas import TeamCreate, TeamUpdate

FIELDS = ("name", "description", "directory_groups")


def list_all(session: Session, *, limit: int, offset: int) -> tuple[list[Team], int]:
    return paged(session, select(Team).order_by(Team.name), limit=limit, offset=offset)


def get(session: Session, team_id: int) -> Team:
    team = session.get(Team, team_id)
    if team is None:
        raise NotFound(f"team {team_id} not found")
    return team


def create(session: Session, actor: Actor, body: TeamCreate) -> Team:
    check_name_free(session, Team, None, body.name, "team")
    team = Team(**body.model_dump())
    return audit.commit_created(session, actor, AuditAction.TEAM_CREATE, team, FIELDS)


def update(session: Session, actor: Actor, team: Team, body: TeamUpdate) -> Team:
    before = audit.snapshot(team, FIELDS)
    changes = changes_of(session, None, team, body, "team")
    for field, value in changes.items():
        setattr(team, field, value)
    return audit.commit_updated(session, actor, AuditAction.TEAM_UPDATE, team, before, FIELDS)


def delete(session: Session, actor: Actor, team: Team) -> None:
    """Its project roles and template grants go with it (the database cascades)."""
    audit.commit_deleted(session, actor, AuditAction.TEAM_DELETE, team, FIELDS)


def list_members(session: Session, team: Team) -> list[tuple[User, bool]]:
    """The team's users, with whether a directory login gave the membership (``synced``)."""
    rows = session.execute(
        select(User, TeamMember.synced)
        .join(TeamMember, TeamMember.user_id == User.id)
        .where(TeamMember.team_id == team.id)
        .order_by(User.username)
    )
    return [(user, synced) for user, synced in rows]


def add_member(session: Session, actor: Actor, team: Team, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise InvalidInput("user_id", f"user {user_id} does not exist")
    if session.get(TeamMember, (team.id, user.id)) is not None:
        raise Conflict(f"user_id: {user.username} is already in team '{team.name}'")
    session.add(TeamMember(team_id=team.id, user_id=user.id))
    audit.record_change(
        session, actor, AuditAction.TEAM_MEMBER_ADD, team, detail=f"{user.username} joined"
    )
    session.commit()
    return user


def remove_member(session: Session, actor: Actor, team: Team, user_id: int) -> None:
    member = session.get(TeamMember, (team.id, user_id))
    if member is None:
        raise NotFound(f"user {user_id} is not in team '{team.name}'")
    username = session.scalar(select(User.username).where(User.id == user_id)) or str(user_id)
    audit.record_change(
        session, actor, AuditAction.TEAM_MEMBER_REMOVE, team, detail=f"{username} left"
    )
    session.delete(member)
    session.commit()
