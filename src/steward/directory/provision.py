"""Directory users (LDAP, OIDC): created or updated at each of their logins, their teams and
admin flag following their directory groups.

The one entry point is ``provision``, called once a directory has vouched for the person (an
LDAP bind with their password, a verified OIDC ID token). It:

- finds the user by ``(source, external_id)`` (the LDAP entry's stable id, the OIDC
  ``issuer|sub``), so a rename in the directory renames the Steward user instead of creating
  another one; an account still known by an older id (``previous_external_id``: the DN LDAP
  accounts were once known by) is found by it and moved over to the new one;
- creates them on their first login, with no local password (``NO_LOCAL_PASSWORD``: local
  logins refuse them, and no API sets one);
- never takes over an account of another source: a username held by a local user (or by a user
  of another directory) is refused with 409, whatever the directory says;
- refuses a disabled user (401): an admin's ``is_active: false`` wins over the directory;
- puts the user in exactly the teams whose ``directory_groups`` meet their groups (memberships
  marked ``synced``), removes the synced memberships whose groups they left, and never touches
  memberships an admin gave by hand;
- sets or clears ``is_admin`` when the source has admin groups configured (``admin`` not None),
  except that the last active admin is never demoted by a sync (the change is refused in the
  audit trail's detail instead, as an admin's own demotion would be);
- records every change in the audit trail, naming the source and ``via`` (a login, the
  directory sync).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import EXTERNAL_ID_MAX, NO_LOCAL_PASSWORD, AuthSource, User
from steward.bounds import LABEL_MAX
from steward.errors import Conflict, InvalidInput, NotAuthenticated
from steward.teams.models import Team, TeamMember

USER_FIELDS = ("username", "display_name", "email", "is_admin", "auth_source", "external_id")
USERNAME_PATTERN = re.compile(r"^[A-Za-z0-9_.@-]{1,64}$")  # as for local users (UserCreate)
EMAIL_MAX = 320
GROUPS_MAX = 10_000  # groups of one user considered at a login; more are ignored


class AccountDisabled(NotAuthenticated):
    """The directory vouched for the person, but an admin disabled their Steward account."""


def group_key(source: AuthSource | str, group: str) -> str:
    """How a group is compared: LDAP DNs without case and without blanks around ``,`` and
    ``=``; OIDC group claim values exactly (after trimming)."""
    group = group.strip()
    if source != AuthSource.LDAP:
        return group
    from steward.directory.dn import dn_key  # ldap3: loaded where LDAP is used

    return dn_key(group)


def _keys(source: AuthSource | str, groups: Iterable[str]) -> set[str]:
    keys = set()
    for count, group in enumerate(groups):
        if count >= GROUPS_MAX:
            break
        if isinstance(group, str) and group.strip():
            keys.add(group_key(source, group))
    return keys


def _check_username(username: str) -> None:
    if not USERNAME_PATTERN.match(username):
        raise InvalidInput(
            "username",
            f"the directory's username {username[:80]!r} is not a valid Steward username"
            " (1-64 characters: letters, digits, '_', '.', '@', '-')",
        )


def _username_free(session: Session, username: str, user: User | None) -> None:
    holder = session.scalar(select(User).where(User.username == username))
    if holder is None or holder is user:
        return
    what = "a local user" if holder.is_local else f"a user of {holder.auth_source}"
    raise Conflict(
        f"username: '{username}' is already {what}; a directory login never takes over"
        " another account (an admin may rename or remove that user)"
    )


def is_last_active_admin(session: Session, user: User) -> bool:
    others = session.scalars(
        select(User.id)
        .where(User.is_admin.is_(True), User.is_active.is_(True), User.id != user.id)
        .limit(1)
    ).first()
    return user.is_admin and user.is_active and others is None


def _sync_teams(
    session: Session,
    user: User,
    source: AuthSource,
    groups: set[str],
    *,
    source_ip: str,
    user_agent: str,
    via: str = "login",
) -> None:
    """Synced memberships = teams whose directory groups meet ``groups``; manual ones stay."""
    wanted = {
        team.id: team
        for team in session.scalars(select(Team).order_by(Team.id))
        if groups & _keys(source, team.directory_groups or [])
    }
    have = {
        member.team_id: member
        for member in session.scalars(select(TeamMember).where(TeamMember.user_id == user.id))
    }
    for team_id, team in wanted.items():
        if team_id in have:
            continue  # synced already, or given by hand (stays manual)
        session.add(TeamMember(team_id=team_id, user_id=user.id, synced=True))
        _record_team(
            session,
            AuditAction.TEAM_MEMBER_ADD,
            team,
            user,
            source,
            "joined",
            source_ip,
            user_agent,
            via,
        )
    for team_id, member in have.items():
        if member.synced and team_id not in wanted:
            left = session.get(Team, team_id)
            session.delete(member)
            if left is not None:
                _record_team(
                    session,
                    AuditAction.TEAM_MEMBER_REMOVE,
                    left,
                    user,
                    source,
                    "left",
                    source_ip,
                    user_agent,
                    via,
                )


def _record_team(
    session: Session,
    action: AuditAction,
    team: Team,
    user: User,
    source: AuthSource,
    verb: str,
    source_ip: str,
    user_agent: str,
    via: str,
) -> None:
    audit.record(
        session,
        None,
        action,
        object_type="team",
        object_id=team.id,
        object_name=team.name,
        detail=f"{user.username} {verb} (directory groups, {source} {via})",
        source_ip=source_ip,
        user_agent=user_agent,
    )


class Vouched(Protocol):
    """Who a directory vouched for: LDAP's ``DirectoryEntry``, OpenID Connect's ``Person``."""

    @property
    def external_id(self) -> str: ...

    @property
    def username(self) -> str: ...

    @property
    def email(self) -> str: ...

    @property
    def display_name(self) -> str: ...

    @property
    def groups(self) -> Iterable[str]: ...


@dataclasses.dataclass(frozen=True)
class _Person:
    """A ``Vouched`` as stored: bounded e-mail and name, groups as keys (``group_key``)."""

    external_id: str
    username: str
    email: str
    display_name: str
    groups: set[str]


@dataclasses.dataclass(frozen=True)
class _Origin:
    """Where a provisioning comes from, for the audit trail."""

    source: AuthSource
    source_ip: str
    user_agent: str
    via: str


def _apply(
    session: Session,
    origin: _Origin,
    person: _Person,
    admin: bool | None,
    previous_external_id: str | None,
) -> User:
    source, external_id, username = origin.source, person.external_id, person.username
    user = session.scalar(
        select(User).where(User.auth_source == source, User.external_id == external_id)
    )
    if user is None and previous_external_id:
        user = session.scalar(
            select(User).where(User.auth_source == source, User.external_id == previous_external_id)
        )
    if user is not None and not user.is_active:
        raise AccountDisabled("this account is disabled")
    _username_free(session, username, user)
    created = user is None
    before = {} if user is None else audit.snapshot(user, USER_FIELDS)
    if user is None:
        user = User(
            username=username,
            password_hash=NO_LOCAL_PASSWORD,
            auth_source=source,
            external_id=external_id,
            is_admin=bool(admin),
            is_active=True,
        )
        session.add(user)
    user.username = username
    user.external_id = external_id
    user.email = person.email
    user.display_name = person.display_name
    detail, kept = f"{source} {origin.via}", False
    if admin is not None and admin != user.is_admin:
        if not admin and is_last_active_admin(session, user):
            detail += "; not in an admin group any more, but kept admin: the last active admin"
            kept = True
        else:
            user.is_admin = admin
    session.flush()
    changes = audit.diff(before, audit.snapshot(user, USER_FIELDS))
    if created or changes or kept:
        action = AuditAction.USER_CREATE if created else AuditAction.USER_UPDATE
        audit.record(
            session,
            None,
            action,
            object_type="user",
            object_id=user.id,
            object_name=user.username,
            changes=changes,
            detail=detail,
            source_ip=origin.source_ip,
            user_agent=origin.user_agent,
        )
    _sync_teams(
        session,
        user,
        source,
        person.groups,
        source_ip=origin.source_ip,
        user_agent=origin.user_agent,
        via=origin.via,
    )
    session.flush()
    return user


def provision(
    session: Session,
    source: AuthSource | str,
    person: Vouched,
    admin: bool | None,
    *,
    source_ip: str = "",
    user_agent: str = "",
    previous_external_id: str | None = None,
    via: str = "login",
) -> User:
    """Create or update the directory user the directory vouched for, sync their teams (and
    admin flag when ``admin`` is not None), commit, and return them.

    Raises ``AccountDisabled`` (401) for a disabled user, ``Conflict`` (409) when the username
    belongs to another account, ``InvalidInput`` (422) for a username Steward cannot hold."""
    source = AuthSource(source)
    if source is AuthSource.LOCAL:
        raise ValueError("provision is for directory users; local users are created by admins")
    if not person.external_id or len(person.external_id) > EXTERNAL_ID_MAX:
        raise InvalidInput("external_id", f"must be 1-{EXTERNAL_ID_MAX} characters")
    _check_username(person.username)
    stored = _Person(
        external_id=person.external_id,
        username=person.username,
        email=(person.email or "").strip()[:EMAIL_MAX],
        display_name=(person.display_name or "").strip()[:LABEL_MAX],
        groups=_keys(source, person.groups),
    )
    origin = _Origin(source, source_ip, user_agent, via)

    def attempt() -> User:
        return _apply(session, origin, stored, admin, previous_external_id)

    try:
        user = attempt()
        session.commit()
    except IntegrityError:
        # two first logins of the same person at once (or a username taken meanwhile): the
        # other one won; once more sees its rows, and either updates them or refuses clearly
        session.rollback()
        user = attempt()
        session.commit()
    return user
