"""Users: created by admins (or the system), listed, changed, disabled; passwords set by an
admin or changed by their owner. The last active admin cannot be disabled or demoted."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import api_tokens, sessions, throttle
from steward.auth.models import User
from steward.auth.passwords import hash_password, verify_password
from steward.auth.schemas import PasswordChange, ProfileUpdate, UserCreate, UserUpdate
from steward.db import icontains, paged
from steward.errors import Conflict, InvalidInput, InvalidState, NotFound
from steward.masking import MASK

USER_FIELDS = ("username", "display_name", "email", "is_admin", "is_active")


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
    audit.record_change(session, actor, AuditAction.USER_CREATE, user, changes)
    session.commit()
    return user


def list_users(
    session: Session, *, q: str | None, limit: int, offset: int
) -> tuple[list[User], int]:
    """Users by username; ``q`` matches a part of the username or display name."""
    where = []
    if q:
        where.append(icontains(User.username, q) | icontains(User.display_name, q))
    query = select(User).where(*where).order_by(User.username)
    return paged(session, query, limit=limit, offset=offset)


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


def _user_action(was_active: bool, user: User) -> AuditAction:
    if was_active and not user.is_active:
        return AuditAction.USER_DISABLE
    if user.is_active and not was_active:
        return AuditAction.USER_ENABLE
    return AuditAction.USER_UPDATE


def update_user(session: Session, actor: Actor, user: User, body: UserUpdate) -> User:
    """Change a user; disabling ends their sessions and revokes their tokens in the same commit."""
    changes = body.changes()
    _keep_an_admin(session, user, changes)
    before, was_active = audit.snapshot(user, USER_FIELDS), user.is_active
    for field, value in changes.items():
        setattr(user, field, value)
    action, detail = _user_action(was_active, user), ""
    if action == AuditAction.USER_DISABLE:
        ended, revoked = sessions.end_all(session, user), api_tokens.revoke_all(session, user)
        detail = f"ended {ended} sessions, revoked {revoked} tokens"
    changes = audit.diff(before, audit.snapshot(user, USER_FIELDS))
    audit.record_change(session, actor, action, user, changes, detail=detail)
    session.commit()
    return user


def update_profile(session: Session, actor: Actor, body: ProfileUpdate) -> User:
    """The actor changes their own display name or e-mail address (never their rights)."""
    policy.require_account_write(actor, "change the profile")
    user = actor.user
    before = audit.snapshot(user, USER_FIELDS)
    for field, value in body.changes().items():
        setattr(user, field, value)
    changes = audit.diff(before, audit.snapshot(user, USER_FIELDS))
    if changes:
        audit.record_change(session, actor, AuditAction.USER_UPDATE, user, changes)
    session.commit()
    return user


def _local_password(user: User, field: str) -> None:
    """A directory user's password is the directory's: Steward neither holds nor sets one."""
    if not user.is_local:
        raise InvalidState(
            f"{field}: '{user.username}' logs in through {user.auth_source}; their password is"
            f" set in the directory, not in Steward"
        )


def reset_password(session: Session, actor: Actor, user: User, password: str) -> User:
    """An admin sets a new password; the user's web sessions end (their tokens stay)."""
    _local_password(user, "password")
    user.password_hash = hash_password(password)
    ended = sessions.end_all(session, user)
    masked = {"password": [MASK, MASK]}
    audit.record_change(
        session,
        actor,
        AuditAction.USER_PASSWORD_RESET,
        user,
        masked,
        detail=f"ended {ended} sessions",
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
    policy.require_account_write(actor, "change the password")
    user = actor.user
    _local_password(user, "new_password")
    throttle.check(
        session, limits, username=user.username, user_id=user.id, source_ip=actor.source_ip
    )
    if not verify_password(user.password_hash, body.current_password):
        sessions.record_failure(
            session,
            user.username,
            user,
            "wrong current password when changing it",
            source_ip=actor.source_ip,
            user_agent=actor.user_agent,
        )
        raise InvalidInput("current_password", "is not your current password")
    user.password_hash = hash_password(body.new_password)
    keep = sessions.session_id(session, current_session) if actor.via == "session" else None
    ended = sessions.end_all(session, user, keep_session=keep)
    masked = {"password": [MASK, MASK]}
    detail = f"ended {ended} other sessions"
    audit.record_change(
        session, actor, AuditAction.USER_PASSWORD_CHANGE, user, masked, detail=detail
    )
    session.commit()
