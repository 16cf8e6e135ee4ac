from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.errors import InvalidInput, NotFound
from steward.keys import sshkeys
from steward.keys.models import Key, KeyKind
from steward.keys.schemas import KeyCreate, KeyUpdate
from steward.masking import MASK
from steward.projects import scoped
from steward.projects.models import Project
from steward.references import refuse_if_referenced

SECRET_FIELDS: dict[KeyKind, frozenset[str]] = {
    KeyKind.SSH: frozenset({"private_key", "passphrase"}),
    KeyKind.LOGIN_PASSWORD: frozenset({"password"}),
    KeyKind.VAULT_PASSWORD: frozenset({"password"}),
    KeyKind.SECRET: frozenset({"value"}),
}
PLAIN_FIELDS: dict[KeyKind, frozenset[str]] = {
    KeyKind.SSH: frozenset({"name", "description", "username"}),
    KeyKind.LOGIN_PASSWORD: frozenset({"name", "description", "username"}),
    KeyKind.VAULT_PASSWORD: frozenset({"name", "description", "vault_id"}),
    KeyKind.SECRET: frozenset({"name", "description"}),
}
_MASKED_LINE_LENGTH = 10


@dataclasses.dataclass(frozen=True)
class KeyMaterial:
    """A key's decrypted secret, for the runner only. ``repr`` shows no secret."""

    kind: KeyKind
    username: str
    vault_id: str
    private_key: str = dataclasses.field(default="", repr=False)  # ssh: unencrypted OpenSSH PEM
    passphrase: str = dataclasses.field(default="", repr=False)  # ssh: only for masking
    stored_private_key: str = dataclasses.field(default="", repr=False)  # ssh, as given
    password: str = dataclasses.field(default="", repr=False)  # login_password, vault_password
    value: str = dataclasses.field(default="", repr=False)  # secret

    @property
    def secret(self) -> str:
        """The single value of a ``secret`` or password key (what an environment exports)."""
        if self.kind == KeyKind.SSH:
            raise ValueError("an ssh key has no single secret value")
        return self.value if self.kind == KeyKind.SECRET else self.password

    def secret_values(self) -> list[str]:
        """Every string to mask in run output: whole secrets, and each long line of a key."""
        values = [self.password, self.passphrase, self.value]
        for text in (self.private_key, self.stored_private_key):
            values.append(text)
            values.extend(
                line.strip() for line in text.splitlines() if len(line) > _MASKED_LINE_LENGTH
            )
        return list(dict.fromkeys(v for v in values if v))


AUDITED_FIELDS = ("name", "description", "kind", "username", "vault_id", "fingerprint")


def _secret_markers(
    fields: set[str] | frozenset[str], before: bool, after: bool
) -> dict[str, list[Any]]:
    """A changed secret shows as ``********`` markers only: never its value, nor a hash of it."""
    mark = MASK
    return {f: [mark if before else None, mark if after else None] for f in sorted(fields)}


def _seal(key: Key, cipher: KeyCipher, payload: dict[str, Any]) -> None:
    """Check the payload of the key's kind and store it encrypted."""
    if key.kind == KeyKind.SSH:
        private = sshkeys.load_private_key(payload["private_key"], payload.get("passphrase", ""))
        key.fingerprint = sshkeys.fingerprint(private)
    key.ciphertext = cipher.encrypt(payload)


def list_for_project(
    session: Session, project: Project, *, kind: KeyKind | None, limit: int, offset: int
) -> tuple[list[Key], int]:
    where = [] if kind is None else [Key.kind == kind]
    return scoped.list_in_project(session, Key, project, *where, limit=limit, offset=offset)


def create(
    session: Session, cipher: KeyCipher, project: Project, body: KeyCreate, *, actor: Actor
) -> Key:
    scoped.check_name_free(session, Key, project, body.name, "key")
    secret_fields = SECRET_FIELDS[body.kind]
    key = Key(project_id=project.id, **body.model_dump(exclude=set(secret_fields)))
    _seal(key, cipher, body.model_dump(include=set(secret_fields)))
    session.add(key)
    session.flush()
    given = {f for f in secret_fields if getattr(body, f, "")}
    changes = audit.diff({}, audit.snapshot(key, AUDITED_FIELDS))
    audit.record_change(
        session,
        actor,
        AuditAction.KEY_CREATE,
        key,
        {**changes, **_secret_markers(given, False, True)},
    )
    session.commit()
    return key


def _check_fields_fit(key: Key, changes: dict[str, Any]) -> None:
    allowed = PLAIN_FIELDS[key.kind] | SECRET_FIELDS[key.kind]
    for field in changes:
        if field not in allowed:
            raise InvalidInput(field, f"a key of kind '{key.kind}' has no {field}")


def _new_payload(key: Key, cipher: KeyCipher, secrets: dict[str, Any]) -> dict[str, Any]:
    if "private_key" in secrets:  # a new ssh key comes with its own passphrase (or none)
        return {"passphrase": "", **secrets}
    old = cipher.decrypt(key.ciphertext) if key.ciphertext is not None else {}
    return {**old, **secrets}


def update(
    session: Session,
    cipher: KeyCipher,
    project: Project,
    key: Key,
    body: KeyUpdate,
    *,
    actor: Actor,
) -> Key:
    changes = body.changes()
    _check_fields_fit(key, changes)
    scoped.check_rename(session, project, key, changes, "key")
    before = audit.snapshot(key, AUDITED_FIELDS)
    secrets = {f: v for f, v in changes.items() if f in SECRET_FIELDS[key.kind]}
    if secrets:
        _seal(key, cipher, _new_payload(key, cipher, secrets))
    for field, value in changes.items():
        if field not in secrets:
            setattr(key, field, value)
    diff = audit.diff(before, audit.snapshot(key, AUDITED_FIELDS))
    audit.record_change(
        session,
        actor,
        AuditAction.KEY_UPDATE,
        key,
        {**diff, **_secret_markers(set(secrets), True, True)},
    )
    session.commit()
    return key


def delete(session: Session, key: Key, *, actor: Actor) -> None:
    refuse_if_referenced(session, key)
    audit.commit_deleted(session, actor, AuditAction.KEY_DELETE, key, AUDITED_FIELDS)


def reveal(session: Session, cipher: KeyCipher, key_id: int, project_id: int) -> KeyMaterial:
    """The decrypted secret of a key of the project, ready to hand to ssh, git or ansible."""
    key = session.scalar(select(Key).where(Key.id == key_id, Key.project_id == project_id))
    if key is None:
        raise NotFound(f"key {key_id} not found in project {project_id}")
    payload = cipher.decrypt(key.ciphertext) if key.ciphertext is not None else {}
    material = KeyMaterial(
        kind=KeyKind(key.kind),
        username=key.username,
        vault_id=key.vault_id,
        password=payload.get("password", ""),
        value=payload.get("value", ""),
    )
    if key.kind == KeyKind.SSH and "private_key" in payload:
        stored, passphrase = payload["private_key"], payload.get("passphrase", "")
        private = sshkeys.load_private_key(stored, passphrase)
        material = dataclasses.replace(
            material,
            private_key=sshkeys.unencrypted_openssh(private),
            passphrase=passphrase,
            stored_private_key=stored,
        )
    return material
