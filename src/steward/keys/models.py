from __future__ import annotations

import enum

from sqlalchemy import LargeBinary, String
from sqlalchemy.orm import Mapped, mapped_column

from steward.projects.scoped import ProjectScoped


class KeyKind(enum.StrEnum):
    # S105 flags the member names; these are kind names, not passwords
    SSH = "ssh"
    LOGIN_PASSWORD = "login_password"  # noqa: S105
    VAULT_PASSWORD = "vault_password"  # noqa: S105
    SECRET = "secret"  # noqa: S105


class Key(ProjectScoped):
    """A secret of the key store. ``ciphertext`` holds the encrypted JSON payload of the kind."""

    __tablename__ = "keys"

    kind: Mapped[KeyKind] = mapped_column(String(20))
    username: Mapped[str] = mapped_column(String(200), default="")
    vault_id: Mapped[str] = mapped_column(String(100), default="")
    # "SHA256:…" of an ssh key's public half: not secret, and how people tell keys apart
    fingerprint: Mapped[str] = mapped_column(String(100), default="")
    ciphertext: Mapped[bytes | None] = mapped_column(LargeBinary)

    @property
    def has_secret(self) -> bool:
        return self.ciphertext is not None
