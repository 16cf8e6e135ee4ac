"""Personal API tokens: created with a secret shown once, resolved on every request, revoked.

A token never mints more than itself: one created through a token has a scope the creator's
covers and expires no later than the creator (``access.policy.require_token_scope``); revoking
another token needs a session or a write token (a token may always revoke itself).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import tokens
from steward.auth.models import ApiToken, TokenScope, User
from steward.auth.schemas import TokenCreate
from steward.db import utcnow
from steward.errors import InvalidInput, NotAuthenticated, NotFound


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
    policy.require_token_scope(actor, TokenScope(body.scope))
    _require_no_later(session, actor, body.expires_at)
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
    detail = f"scope {token.scope}, expires {token.expires_at or 'never'}"
    audit.record_change(session, actor, AuditAction.TOKEN_CREATE, token, detail=detail)
    session.commit()
    return secret, token


def _require_no_later(session: Session, actor: Actor, expires_at: dt.datetime | None) -> None:
    """A token created through an expiring token expires too, no later than it."""
    if actor.token_id is None:
        return  # a console session: any expiry, or none
    own = session.get(ApiToken, actor.token_id)
    if own is None or own.expires_at is None:
        return
    if expires_at is None:
        raise InvalidInput(
            "expires_at",
            f"this request's token expires at {own.expires_at.isoformat()}: a token it creates"
            " must expire too, no later",
        )
    if expires_at > own.expires_at:
        raise InvalidInput(
            "expires_at",
            f"must be no later than {own.expires_at.isoformat()}, when this request's token"
            " expires",
        )


def list_tokens(session: Session, user: User) -> list[ApiToken]:
    return list(session.scalars(select(ApiToken).where(ApiToken.user_id == user.id)))


def revoke_token(session: Session, actor: Actor, token_id: int) -> None:
    if token_id != actor.token_id:  # revoking itself only lessens a token
        policy.require_account_write(actor, "revoke another token")
    token = session.get(ApiToken, token_id)
    if token is None or token.user_id != actor.user.id:
        raise NotFound(f"token {token_id} not found")
    if token.revoked_at is None:
        token.revoked_at = utcnow()
        audit.record_change(session, actor, AuditAction.TOKEN_REVOKE, token)
        session.commit()


def revoke_all(session: Session, user: User) -> int:
    revoked = session.execute(
        update(ApiToken)
        .where(ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return int(getattr(revoked, "rowcount", 0) or 0)
