"""The first admin, created at start when the database has no user yet, and the line that
tells whoever started the server where to sign in and as whom."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.auth import tokens
from steward.auth.models import User
from steward.auth.schemas import UserCreate
from steward.auth.users import create_user


def no_user_yet(session: Session) -> bool:
    return session.scalar(select(User.id).limit(1)) is None


def ensure_admin(session: Session, username: str, password: str | None) -> str | None:
    """Create the first admin when no user exists. Returns a generated password, if one was."""
    if not no_user_yet(session):
        return None
    generated = None
    if not password:
        generated = password = tokens.new_secret()[:20]
    create_user(session, UserCreate(username=username, password=password, is_admin=True))
    return generated


def welcome(session: Session, url: str, *, created: bool, generated: bool) -> str:
    """One line for the console at start: the URL, the first admin's name and where its
    password is; never a password (a generated one is printed once, apart, when created).

    ``created``: the first admin was made by this start; ``generated``: its password too
    (else it came from STEWARD_ADMIN_PASSWORD)."""
    admin = session.scalar(
        select(User.username).where(User.is_admin, User.is_active).order_by(User.id).limit(1)
    )
    if admin is None:
        make = "`steward user create NAME --admin`"
        return f"Steward is at {url}; no active admin: make one with {make}"
    if created and generated:
        where = "the password printed above, shown this once: change it under Your account"
    elif created:
        where = "the password of STEWARD_ADMIN_PASSWORD"
    else:
        where = (
            "the password set at the first start (printed then, or STEWARD_ADMIN_PASSWORD);"
            " lost: `steward user create NAME --admin` makes another admin"
        )
    return f"Steward is at {url}: sign in as '{admin}' with {where}"
