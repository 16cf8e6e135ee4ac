from __future__ import annotations

import datetime as dt

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.auth import tokens
from steward.auth.actor import Actor
from steward.auth.models import ApiToken, TokenScope, User, WebSession
from steward.auth.passwords import hash_password, verify_password
from steward.auth.schemas import TokenCreate, UserCreate
from steward.db import utcnow
from steward.errors import Conflict, InvalidInput, NotAuthenticated, NotFound


def create_user(session: Session, body: UserCreate) -> User:
    if session.scalar(select(User.id).where(User.username == body.username)) is not None:
        raise Conflict(f"username: a user named '{body.username}' already exists")
    user = User(
        username=body.username,
        password_hash=hash_password(body.password),
        display_name=body.display_name,
        email=body.email,
        is_admin=body.is_admin,
    )
    session.add(user)
    session.commit()
    return user


def ensure_admin(session: Session, username: str, password: str | None) -> str | None:
    """Create the first admin when no user exists. Returns a generated password, if one was."""
    if session.scalar(select(User.id).limit(1)) is not None:
        return None
    generated = None
    if not password:
        generated = password = tokens.new_secret()[:20]
    create_user(session, UserCreate(username=username, password=password, is_admin=True))
    return generated


def authenticate(
    session: Session, username: str, password: str, *, source_ip: str, user_agent: str
) -> User:
    """Check a password login; failures are recorded in the audit trail before raising."""
    user = session.scalar(select(User).where(User.username == username))
    valid = verify_password(user.password_hash if user else None, password)
    if user is None or not valid or not user.is_active:
        reason = "this account is disabled" if user and valid else "invalid username or password"
        audit.record(
            session,
            None,
            "auth:login_failed",
            object_type="user",
            object_id=user.id if user else None,
            object_name=username[:64],
            detail=reason,
            source_ip=source_ip,
            user_agent=user_agent,
        )
        session.commit()
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
        "auth:login",
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
    audit.record(session, actor, "auth:logout", object_type="user", object_id=web.user_id)
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
        "token:create",
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
            "token:revoke",
            object_type="token",
            object_id=token.id,
            object_name=token.name,
        )
        session.commit()
