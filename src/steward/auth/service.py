from __future__ import annotations

import datetime as dt

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import throttle, tokens
from steward.auth.actor import Actor
from steward.auth.models import ApiToken, TokenScope, User, WebSession
from steward.auth.passwords import hash_password, verify_password
from steward.auth.schemas import PasswordChange, TokenCreate, UserCreate, UserUpdate
from steward.db import utcnow
from steward.errors import (
    Conflict,
    InvalidInput,
    NotAuthenticated,
    NotFound,
    PermissionDenied,
)

USER_FIELDS = ("username", "display_name", "email", "is_admin", "is_active")


def _audit_user(
    session: Session,
    actor: Actor | None,
    action: AuditAction,
    user: User,
    changes: dict[str, list[object]] | None = None,
    detail: str = "",
) -> None:
    audit.record(
        session,
        actor,
        action,
        object_type="user",
        object_id=user.id,
        object_name=user.username,
        changes=changes,
        detail=detail,
    )


def create_user(session: Session, body: UserCreate, actor: Actor | None = None) -> User:
    """``actor`` None: the system (first admin, ``steward user create``)."""
    if session.scalar(select(User.id).where(User.username == body.username)) is not None:
        raise Conflict(f"username: a user named '{body.username}' already exists")
    user = User(
        username=body.username,
        password_hash=hash_password(body.password),
        display_name=body.display_name,
        email=body.email,
        is_admin=body.is_admin,
        is_active=True,
    )
    session.add(user)
    session.flush()
    changes = audit.diff({}, audit.snapshot(user, USER_FIELDS))
    _audit_user(session, actor, AuditAction.USER_CREATE, user, changes)
    session.commit()
    return user


def list_users(
    session: Session, *, q: str | None, limit: int, offset: int
) -> tuple[list[User], int]:
    """Users by username; ``q`` matches a part of the username or display name."""
    where = []
    if q:
        pattern = "%" + q.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        where.append(
            User.username.ilike(pattern, escape="\\")
            | User.display_name.ilike(pattern, escape="\\")
        )
    total = session.scalar(select(func.count()).select_from(User).where(*where)) or 0
    query = select(User).where(*where).order_by(User.username).limit(limit).offset(offset)
    return list(session.scalars(query)), total


def get_user(session: Session, user_id: int) -> User:
    user = session.get(User, user_id)
    if user is None:
        raise NotFound(f"user {user_id} not found")
    return user


def _keep_an_admin(session: Session, user: User, changes: dict[str, object]) -> None:
    """Refuse a change that would leave no active admin (409 naming the field)."""
    if not (user.is_admin and user.is_active):
        return
    losing = [f for f in ("is_active", "is_admin") if changes.get(f) is False]
    if not losing:
        return
    others = session.scalars(
        select(User.id)
        .where(User.is_admin.is_(True), User.is_active.is_(True), User.id != user.id)
        .with_for_update()  # two admins demoting each other at once: one of them waits
    ).all()
    if not others:
        raise Conflict(
            f"{losing[0]}: '{user.username}' is the last active admin;"
            " make another user admin first"
        )


def _end_sessions(session: Session, user: User, *, keep_session: int | None = None) -> int:
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


def _revoke_tokens(session: Session, user: User) -> int:
    revoked = session.execute(
        update(ApiToken)
        .where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return int(getattr(revoked, "rowcount", 0) or 0)


def _user_action(was_active: bool, user: User) -> AuditAction:
    if was_active and not user.is_active:
        return AuditAction.USER_DISABLE
    if user.is_active and not was_active:
        return AuditAction.USER_ENABLE
    return AuditAction.USER_UPDATE


def update_user(session: Session, actor: Actor, user_id: int, body: UserUpdate) -> User:
    """Change a user; disabling ends their sessions and revokes their tokens in the same commit."""
    user = get_user(session, user_id)
    changes = body.model_dump(exclude_unset=True)
    for field, value in changes.items():
        if value is None:
            raise InvalidInput(field, "may not be null")
    _keep_an_admin(session, user, changes)
    before, was_active = audit.snapshot(user, USER_FIELDS), user.is_active
    for field, value in changes.items():
        setattr(user, field, value)
    action, detail = _user_action(was_active, user), ""
    if action == AuditAction.USER_DISABLE:
        sessions, revoked = _end_sessions(session, user), _revoke_tokens(session, user)
        detail = f"ended {sessions} sessions, revoked {revoked} tokens"
    _audit_user(
        session, actor, action, user, audit.diff(before, audit.snapshot(user, USER_FIELDS)), detail
    )
    session.commit()
    return user


def reset_password(session: Session, actor: Actor, user_id: int, password: str) -> User:
    """An admin sets a new password; the user's web sessions end (their tokens stay)."""
    user = get_user(session, user_id)
    user.password_hash = hash_password(password)
    ended = _end_sessions(session, user)
    _audit_user(
        session,
        actor,
        AuditAction.USER_PASSWORD_RESET,
        user,
        {"password": [audit.REDACTED, audit.REDACTED]},
        f"ended {ended} sessions",
    )
    session.commit()
    return user


def change_own_password(
    session: Session,
    actor: Actor,
    body: PasswordChange,
    *,
    limits: throttle.Limits,
    current_session: str | None,
) -> None:
    """Change the actor's password given the current one; their other web sessions end.

    A wrong current password counts as a failed login (throttled and recorded), so a stolen
    session cannot be used to guess it faster than the login form allows.
    """
    if actor.scope is not TokenScope.WRITE:
        raise PermissionDenied(f"a token with scope '{actor.scope}' may not change the password")
    user = actor.user
    throttle.check(
        session, limits, username=user.username, user_id=user.id, source_ip=actor.source_ip
    )
    if not verify_password(user.password_hash, body.current_password):
        _record_failure(
            session,
            user.username,
            user,
            "wrong current password when changing it",
            source_ip=actor.source_ip,
            user_agent=actor.user_agent,
        )
        raise InvalidInput("current_password", "is not your current password")
    user.password_hash = hash_password(body.new_password)
    keep = _session_id(session, current_session) if actor.via == "session" else None
    ended = _end_sessions(session, user, keep_session=keep)
    _audit_user(
        session,
        actor,
        AuditAction.USER_PASSWORD_CHANGE,
        user,
        {"password": [audit.REDACTED, audit.REDACTED]},
        f"ended {ended} other sessions",
    )
    session.commit()


def _session_id(session: Session, secret: str | None) -> int | None:
    if not secret:
        return None
    return session.scalar(
        select(WebSession.id).where(WebSession.token_hash == tokens.digest(secret))
    )


def ensure_admin(session: Session, username: str, password: str | None) -> str | None:
    """Create the first admin when no user exists. Returns a generated password, if one was."""
    if session.scalar(select(User.id).limit(1)) is not None:
        return None
    generated = None
    if not password:
        generated = password = tokens.new_secret()[:20]
    create_user(session, UserCreate(username=username, password=password, is_admin=True))
    return generated


def _record_failure(
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


def authenticate(
    session: Session,
    username: str,
    password: str,
    *,
    limits: throttle.Limits,
    source_ip: str,
    user_agent: str,
) -> User:
    """Check a password login; failures are recorded in the audit trail before raising.

    A locked account or address is refused (429) before the password is even checked, so
    guessing stops while the lock lasts; those refusals are not recorded one by one (a flood of
    them must not grow the audit trail at request speed).
    """
    user = session.scalar(select(User).where(User.username == username))
    throttle.check(
        session,
        limits,
        username=username,
        user_id=user.id if user else None,
        source_ip=source_ip,
    )
    valid = verify_password(user.password_hash if user else None, password)
    if user is None or not valid or not user.is_active:
        reason = "this account is disabled" if user and valid else "invalid username or password"
        _record_failure(session, username, user, reason, source_ip=source_ip, user_agent=user_agent)
        raise NotAuthenticated(reason)
    return user


def start_session(
    session: Session, user: User, *, hours: float, source_ip: str, user_agent: str
) -> tuple[str, WebSession]:
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


def resolve_token(session: Session, secret: str) -> ApiToken:
    token = session.scalar(select(ApiToken).where(ApiToken.token_hash == tokens.digest(secret)))
    now = utcnow()
    if token is None or token.revoked_at is not None:
        raise NotAuthenticated("invalid or revoked API token")
    if token.expires_at is not None and token.expires_at <= now:
        raise NotAuthenticated(f"API token '{token.name}' has expired")
    if not token.user.is_active:
        raise NotAuthenticated("this account is disabled")
    # record use at most once a minute: a token polled by a script must not write every request
    if token.last_used_at is None or now - token.last_used_at > dt.timedelta(minutes=1):
        token.last_used_at = now
        session.commit()
    return token


def create_token(session: Session, actor: Actor, body: TokenCreate) -> tuple[str, ApiToken]:
    user = actor.user
    if body.expires_at is not None:
        if body.expires_at.tzinfo is None:
            raise InvalidInput("expires_at", "must include a time zone")
        if body.expires_at <= utcnow():
            raise InvalidInput("expires_at", "must be in the future")
    secret = tokens.new_secret(tokens.TOKEN_PREFIX)
    token = ApiToken(
        user_id=user.id,
        name=body.name,
        prefix=secret[:12],
        token_hash=tokens.digest(secret),
        scope=TokenScope(body.scope),
        expires_at=body.expires_at,
    )
    session.add(token)
    session.flush()
    audit.record(
        session,
        actor,
        AuditAction.TOKEN_CREATE,
        object_type="token",
        object_id=token.id,
        object_name=token.name,
        detail=f"scope {token.scope}, expires {token.expires_at or 'never'}",
    )
    session.commit()
    return secret, token


def list_tokens(session: Session, user: User) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user.id)))


def revoke_token(session: Session, actor: Actor, token_id: int) -> None:
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != actor.user.id:
        raise NotFound(f"token {token_id} not found")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        audit.record(
            session,
            actor,
            AuditAction.TOKEN_REVOKE,
            object_type="token",
            object_id=token.id,
            object_name=token.name,
        )
        session.commit()
