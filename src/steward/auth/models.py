from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, LargeBinary, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base, utcnow


class TokenScope(enum.StrEnum):
    READ = "read"
    RUN = "run"
    WRITE = "write"


class AuthSource(enum.StrEnum):
    """Who checks a user's password: Steward (``local``) or a directory (``directory``)."""

    LOCAL = "local"
    LDAP = "ldap"
    OIDC = "oidc"


EXTERNAL_ID_MAX = 512  # an LDAP DN, or an OIDC "issuer|sub"
# the password hash of a directory user: no argon2 hash, so it never verifies (verify_password
# treats an unparsable hash as a wrong password); local logins also refuse directory users
NO_LOCAL_PASSWORD = "!directory"  # noqa: S105 - a marker that is no hash


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("auth_source", "external_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(String(64), unique=True)
    display_name: Mapped[str] = mapped_column(String(200), default="")
    email: Mapped[str] = mapped_column(String(320), default="")
    password_hash: Mapped[str] = mapped_column(String(200))
    # a directory user (``steward.directory``) is found by (auth_source, external_id) at each of
    # its logins, has no local password, and its teams and admin flag follow its groups
    auth_source: Mapped[AuthSource] = mapped_column(String(10), default=AuthSource.LOCAL)
    external_id: Mapped[str | None] = mapped_column(String(EXTERNAL_ID_MAX))
    is_admin: Mapped[bool] = mapped_column(default=False)
    is_active: Mapped[bool] = mapped_column(default=True)
    # two-factor authentication (``auth.totp``): the TOTP secret sealed with the master key, set
    # from the start of an enrollment; ``totp_enabled`` once a code confirmed it
    totp_secret: Mapped[bytes | None] = mapped_column(LargeBinary)
    totp_enabled: Mapped[bool] = mapped_column(default=False)
    totp_last_step: Mapped[int | None]  # the last time step accepted: a code is used once
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    @property
    def name(self) -> str:
        """How the audit trail names a user (``audit.Named``)."""
        return self.username

    @property
    def is_local(self) -> bool:
        """Whether Steward checks this user's password (not a directory)."""
        return self.auth_source == AuthSource.LOCAL


class RecoveryCode(Base):
    """A one-time code that stands in for a TOTP code; only its SHA-256 is stored."""

    __tablename__ = "totp_recovery_codes"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    code_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    used_at: Mapped[dt.datetime | None]


class ApiToken(Base):
    """A personal API token; only the SHA-256 of the secret is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100))
    prefix: Mapped[str] = mapped_column(String(16))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    scope: Mapped[TokenScope] = mapped_column(String(10))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime | None]
    last_used_at: Mapped[dt.datetime | None]
    revoked_at: Mapped[dt.datetime | None]

    user: Mapped[User] = relationship(lazy="joined")


class WebSession(Base):
    """A browser session behind an HttpOnly cookie; logout ends it here, server-side."""

    __tablename__ = "web_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    csrf_token: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime]
    ended_at: Mapped[dt.datetime | None]
    source_ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(400), default="")

    user: Mapped[User] = relationship(lazy="joined")
