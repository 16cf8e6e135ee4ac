"""Password logins with LDAP: local users first, then the directory.

- A username held by a local user is checked locally only (``auth.sessions.authenticate``): a
  directory entry of the same name never logs in as them, and local admins log in whatever
  state the directory is in.
- Any other username, when LDAP is configured, is checked by the directory
  (``directory.ldap``), then provisioned (``directory.provision``): created or updated, teams
  and admin flag synced from its groups. The account is the one of the entry's stable id
  (``ldap_id_attribute``), whatever its DN is now; an account made when the DN was the id is
  found by that DN and moved over to the stable id.
- Throttling is the local logins' (``auth.throttle``): checked before the directory is asked,
  every refusal recorded as ``auth:login_failed``. A directory that does not answer is a 503
  and is not counted against the person.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.auth import sessions, throttle
from steward.auth.models import AuthSource, User
from steward.auth.passwords import verify_password
from steward.config import Settings
from steward.directory.provision import provision
from steward.errors import Conflict, InvalidInput, InvalidState, NotAuthenticated

INVALID = "invalid username or password"


def authenticate(
    session: Session, settings: Settings, attempt: sessions.Attempt, *, limits: throttle.Limits
) -> User:
    """The user of ``attempt`` when its password is theirs (locally, or in the directory)."""
    username, source_ip, user_agent = attempt.username, attempt.source_ip, attempt.user_agent
    user = session.scalar(select(User).where(User.username == username))
    if not settings.ldap_enabled:
        return sessions.authenticate(session, attempt, limits=limits)
    from steward.directory import ldap  # ldap3: loaded where LDAP is configured

    config = ldap.LdapConfig.from_settings(settings)
    if config is None or (user is not None and user.auth_source != AuthSource.LDAP):
        return sessions.authenticate(session, attempt, limits=limits)
    throttle.check(
        session, limits, username=username, user_id=user.id if user else None, source_ip=source_ip
    )
    entry = ldap.authenticate(config, username, attempt.password)
    if entry is None:
        sessions.record_failure(
            session, username, user, INVALID, source_ip=source_ip, user_agent=user_agent
        )
        raise NotAuthenticated(INVALID)
    try:
        return provision(
            session,
            AuthSource.LDAP,
            entry,
            entry.admin,
            previous_external_id=entry.dn,  # an account of before the stable ids moves over
            source_ip=source_ip,
            user_agent=user_agent,
        )
    except (NotAuthenticated, Conflict, InvalidInput) as exc:
        session.rollback()
        sessions.record_failure(
            session, username, user, exc.message, source_ip=source_ip, user_agent=user_agent
        )
        raise


def password_matches(settings: Settings, user: User, password: str) -> bool:
    """Whether ``password`` is the user's, wherever it is kept (to confirm a sensitive change,
    like turning two-factor authentication on)."""
    if user.is_local:
        return verify_password(user.password_hash, password)
    if user.auth_source == AuthSource.LDAP and user.external_id:
        from steward.directory import ldap

        config = ldap.LdapConfig.from_settings(settings)
        if config is None:
            raise InvalidState("password: LDAP login is not configured on this server any more")
        return ldap.password_binds(config, user.external_id, password)
    raise InvalidState(
        f"'{user.username}' signs in through {user.auth_source}: Steward holds no password for"
        " them (two-factor authentication is the identity provider's)"
    )
