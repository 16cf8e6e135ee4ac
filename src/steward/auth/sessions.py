"""Browser sessions: password logins (throttled, failures recorded), the session behind the
cookie, logout, a user's own sessions (listed, ended one by one), and ending all of them."""

from __future__ import annotations

import dataclasses
import datetime as dt

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import throttle, tokens
from steward.auth.models import TokenScope, User, WebSession
from steward.auth.passwords import verify_password
from steward.db import utcnow
from steward.errors import NotAuthenticated, NotFound


def record_failure(
    session: Session,
    username: str,
    user: User | None,
    reason: str,
    *,
    source_ip: str,
    user_agent: str,
) -> None:
    """An ``auth:login_failed`` record, committed at once: the throttle counts these."""
    audit.record(
        session,
        None,
        throttle.LOGIN_FAILED,
        object_type="user",
        object_id=user.id if user else None,
        object_name=username[:64],
        detail=reason,
        source_ip=source_ip,
        user_agent=user_agent,
    )
    session.commit()


@dataclasses.dataclass(frozen=True)
class Attempt:
    """A password login as asked: the username and password given, and from where."""

    username: str
    password: str = dataclasses.field(repr=False)
    source_ip: str
    user_agent: str


def authenticate(session: Session, attempt: Attempt, *, limits: throttle.Limits) -> User:
    """Check a password login; failures are recorded in the audit trail before raising.

    A locked account or address is refused (429) before the password is even checked, so
    guessing stops while the lock lasts; those refusals are not recorded one by one (a flood of
    them must not grow the audit trail at request speed).
    """
    username, source_ip = attempt.username, attempt.source_ip
    user = session.scalar(select(User).where(User.username == username))
    throttle.check(
        session,
        limits,
        username=username,
        user_id=user.id if user else None,
        source_ip=source_ip,
    )
    valid = verify_password(user.password_hash if user else None, attempt.password)
    valid = valid and user is not None and user.is_local  # a directory checks the others
    if user is None or not valid or not user.is_active:
        reason = "this account is disabled" if user and valid else "invalid username or password"
        record_failure(
            session, username, user, reason, source_ip=source_ip, user_agent=attempt.user_agent
        )
        raise NotAuthenticated(reason)
    return user


def start_session(
    session: Session, user: User, *, hours: float, how: str, source_ip: str, user_agent: str
) -> tuple[str, WebSession]:
    """A browser session for ``user``, audited as a login with ``how`` (e.g. "LDAP password
    and a second factor", "OpenID Connect: <issuer>")."""
    secret = tokens.new_secret()
    web = WebSession(
        user_id=user.id,
        token_hash=tokens.digest(secret),
        csrf_token=tokens.new_secret(),
        expires_at=utcnow() + dt.timedelta(hours=hours),
        source_ip=source_ip,
        user_agent=user_agent[:400],
    )
    session.add(web)
    audit.record(
        session,
        Actor(user, TokenScope.WRITE, "session", "", source_ip, user_agent),
        AuditAction.AUTH_LOGIN,
        object_type="user",
        object_id=user.id,
        object_name=user.username,
        detail=how,
    )
    session.commit()
    return secret, web


def resolve_session(session: Session, secret: str) -> WebSession:
    web = session.scalar(select(WebSession).where(WebSession.token_hash == tokens.digest(secret)))
    if web is None or web.ended_at is not None or web.expires_at <= utcnow():
        raise NotAuthenticated("the session has ended; log in again")
    if not web.user.is_active:
        raise NotAuthenticated("this account is disabled")
    return web


def end_session(session: Session, actor: Actor, web: WebSession) -> None:
    web.ended_at = utcnow()
    audit.record(session, actor, AuditAction.AUTH_LOGOUT, object_type="user", object_id=web.user_id)
    session.commit()


OWN_SESSIONS_SHOWN = 100  # newest first; older ones still end with a password change


def list_own(session: Session, user: User) -> list[WebSession]:
    """The user's sessions that still work (not ended, not expired), newest first."""
    query = (
        select(WebSession)
        .where(
            WebSession.user_id == user.id,
            WebSession.ended_at.is_(None),
            WebSession.expires_at > utcnow(),
        )
        .order_by(WebSession.id.desc())
        .limit(OWN_SESSIONS_SHOWN)
    )
    return list(session.scalars(query))


def end_own(session: Session, actor: Actor, session_id: int) -> None:
    """End one of the actor's own sessions (signs that browser out). Another user's session,
    or one already ended, is a 404: sessions of others are never seen."""
    web = session.get(WebSession, session_id)
    if web is None or web.user_id != actor.user.id or web.ended_at is not None:
        raise NotFound(f"session {session_id} not found")
    policy.require_account_write(actor, "end sessions")
    web.ended_at = utcnow()
    audit.record(
        session,
        actor,
        AuditAction.AUTH_LOGOUT,
        object_type="user",
        object_id=web.user_id,
        object_name=actor.user.username,
        detail=f"ended session {web.id} (from {web.source_ip or 'an unknown address'})",
    )
    session.commit()


def end_all(session: Session, user: User, *, keep_session: int | None = None) -> int:
    ended = session.execute(
        update(WebSession)
        .where(
            WebSession.user_id == user.id,
            WebSession.ended_at.is_(None),
            WebSession.id != (keep_session or 0),
        )
        .values(ended_at=utcnow())
    )
    return int(getattr(ended, "rowcount", 0) or 0)


def session_id(session: Session, secret: str | None) -> int | None:
    if not secret:
        return None
    return session.scalar(
        select(WebSession.id).where(WebSession.token_hash == tokens.digest(secret))
    )
