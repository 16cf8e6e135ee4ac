from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow


class KeyKind(enum.StrEnum):
    # S105 flags the member names; these are kind names, not passwords
    SSH = "ssh"
    LOGIN_PASSWORD = "login_password"  # noqa: S105
    VAULT_PASSWORD = "vault_password"  # noqa: S105
    SECRET = "secret"  # noqa: S105


class Key(Base):
    """A secret of the key store. ``ciphertext`` holds the encrypted JSON payload of the kind."""

    __tablename__ = "keys"
    __table_args__ = (UniqueConstraint("project_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    kind: Mapped[KeyKind] = mapped_column(String(20))
    username: Mapped[str] = mapped_column(String(200), default="")
    vault_id: Mapped[str] = mapped_column(String(100), default="")
    # "SHA256:…" of an ssh key's public half: not secret, and how people tell keys apart
    fingerprint: Mapped[str] = mapped_column(String(100), default="")
    ciphertext: Mapped[bytes | None] = mapped_column(LargeBinary)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    @property
    def has_secret(self) -> bool:
        return self.ciphertext is not None
