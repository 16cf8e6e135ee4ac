from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import Field

from steward.bounds import NAME_MAX, Description, Label, Name, Passphrase, Secret
from steward.keys.models import KeyKind
from steward.schemas import NamedUpdate, RequestModel, ScopedRead

Username = Label
VaultId = Annotated[str, Field(max_length=NAME_MAX, pattern=r"^[A-Za-z0-9_.-]*$")]
PrivateKey = Secret


class _KeyCreateBase(RequestModel):
    name: Name
    description: Description = ""


class SshKeyCreate(_KeyCreateBase):
    kind: Literal[KeyKind.SSH]
    username: Username = ""
    private_key: PrivateKey
    passphrase: Passphrase = ""


class LoginPasswordKeyCreate(_KeyCreateBase):
    kind: Literal[KeyKind.LOGIN_PASSWORD]
    username: Username = ""
    password: Secret


class VaultPasswordKeyCreate(_KeyCreateBase):
    kind: Literal[KeyKind.VAULT_PASSWORD]
    vault_id: VaultId = ""
    password: Secret


class SecretKeyCreate(_KeyCreateBase):
    kind: Literal[KeyKind.SECRET]
    value: Secret


KeyCreate = Annotated[
    SshKeyCreate | LoginPasswordKeyCreate | VaultPasswordKeyCreate | SecretKeyCreate,
    Field(discriminator="kind"),
]


class KeyUpdate(NamedUpdate):
    """Every field optional. Secret fields replace the stored value; they must fit the kind."""

    username: Username | None = None
    vault_id: VaultId | None = None
    private_key: PrivateKey | None = None
    passphrase: Passphrase | None = None
    password: Secret | None = None
    value: Secret | None = None


class KeyRead(ScopedRead):
    kind: KeyKind
    username: str
    vault_id: str
    fingerprint: str
    has_secret: bool
    created_at: dt.datetime
    updated_at: dt.datetime
