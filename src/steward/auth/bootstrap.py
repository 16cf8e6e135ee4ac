"""The first admin, created at start when the database has no user yet."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.auth import tokens
from steward.auth.models import User
from steward.auth.schemas import UserCreate
from steward.auth.users import create_user


def ensure_admin(session: Session, username: str, password: str | None) -> str | None:
    """Create the first admin when no user exists. Returns a generated password, if one was."""
    if session.scalar(select(User.id).limit(1)) is not None:
        return None
    generated = None
    if not password:
        generated = password = tokens.new_secret()[:20]
    create_user(session, UserCreate(username=username, password=password, is_admin=True))
    return generated
