"""Master-key rotation while servers keep running (``steward keys rotate``).

1. A new Fernet key is put first in the key file, the old ones after it (atomic replace). Running
   processes see the change on their next use of the cipher (``crypto.KeyCipher``): they encrypt
   with the new key from then on and still open what the old keys sealed.
2. Every stored secret (``keys.ciphertext``, ``runs.secret_params``,
   ``schedules.secret_launch``, ``users.totp_secret``) is re-encrypted under the new
   key in batches. Each row is written only if it still holds what was read, so a secret replaced
   meanwhile through the API is never overwritten with its older value.
3. Rows written meanwhile by a process that had not yet seen the new key are found by a check
   pass (does the new key alone open each row?) and re-encrypted in turn.
4. With ``drop_old``, the old keys leave the file, but only when that check finds nothing that
   still needs them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import cast

from cryptography.fernet import Fernet
from sqlalchemy import Column, Table, select, update
from sqlalchemy.orm import Session, sessionmaker

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth.models import User
from steward.crypto import KeyCipher, MasterKeyError, read_key_file, write_key_file
from steward.keys.models import Key
from steward.runs.models import Run
from steward.schedules.models import Schedule
from steward.workflows.models import Workflow, WorkflowRun

CHECK_PASSES = 3


@dataclasses.dataclass(frozen=True)
class EncryptedColumn:
    label: str
    table: Table
    column: Column[bytes | None]


def encrypted_columns() -> list[EncryptedColumn]:
    """Every column that holds a secret sealed with the master key."""
    keys, runs = cast(Table, Key.__table__), cast(Table, Run.__table__)
    schedules, users = cast(Table, Schedule.__table__), cast(Table, User.__table__)
    workflows, workflow_runs = cast(Table, Workflow.__table__), cast(Table, WorkflowRun.__table__)
    return [
        EncryptedColumn("keys", keys, keys.c.ciphertext),
        EncryptedColumn("run parameters", runs, runs.c.secret_params),
        EncryptedColumn("schedule answers", schedules, schedules.c.secret_launch),
        EncryptedColumn("two-factor secrets", users, users.c.totp_secret),
        EncryptedColumn("workflow answers", workflows, workflows.c.secret_launch),
        EncryptedColumn("workflow run answers", workflow_runs, workflow_runs.c.secret_launch),
    ]


@dataclasses.dataclass
class RotationReport:
    reencrypted: dict[str, int]
    old_keys: int
    dropped: bool = False

    def summary(self) -> str:
        counts = ", ".join(f"{n} {label}" for label, n in self.reencrypted.items())
        kept = "dropped" if self.dropped else "kept"
        return f"re-encrypted {counts} under a new master key; {self.old_keys} old keys {kept}"


def _rows(
    session: Session, col: EncryptedColumn, batch: int, *, after: int
) -> list[tuple[int, bytes]]:
    id_column = col.table.c.id
    rows = session.execute(
        select(id_column, col.column)
        .where(id_column > after, col.column.is_not(None))
        .order_by(id_column)
        .limit(batch)
    ).all()
    return [(int(row[0]), bytes(row[1])) for row in rows]


def _batches(
    sessions: sessionmaker[Session], col: EncryptedColumn, batch: int
) -> Iterator[tuple[Session, list[tuple[int, bytes]]]]:
    after = 0
    while True:
        with sessions() as session:
            rows = _rows(session, col, batch, after=after)
            if not rows:
                return
            yield session, rows
            session.commit()
        after = rows[-1][0]


def reencrypt(
    sessions: sessionmaker[Session], cipher: KeyCipher, col: EncryptedColumn, *, batch: int
) -> int:
    """Re-encrypt the column's rows that the first key does not open yet; how many were."""
    done = 0
    for session, rows in _batches(sessions, col, batch):
        for row_id, token in rows:
            if cipher.is_current(token):
                continue
            written = session.execute(
                update(col.table)
                .where(col.table.c.id == row_id, col.column == token)
                .values({col.column.name: cipher.rotate(token)})
            )
            done += int(getattr(written, "rowcount", 0) or 0)
    return done


def stale(sessions: sessionmaker[Session], cipher: KeyCipher, *, batch: int = 500) -> int:
    """How many stored secrets the first key alone cannot open."""
    count = 0
    for col in encrypted_columns():
        for _session, rows in _batches(sessions, col, batch):
            count += sum(1 for _id, token in rows if not cipher.is_current(token))
    return count


def rotate(
    sessions: sessionmaker[Session], key_file: Path, *, drop_old: bool, batch: int = 500
) -> RotationReport:
    old = read_key_file(key_file)
    keys = [Fernet.generate_key(), *old]
    write_key_file(key_file, keys)
    cipher = KeyCipher(keys, key_file)
    report = RotationReport({c.label: 0 for c in encrypted_columns()}, old_keys=len(old))
    for _ in range(CHECK_PASSES):
        for col in encrypted_columns():
            report.reencrypted[col.label] += reencrypt(sessions, cipher, col, batch=batch)
        if stale(sessions, cipher, batch=batch) == 0:
            break
    if drop_old:
        drop_old_keys(sessions, key_file, batch=batch)
        report.dropped = True
    with sessions() as session:
        audit.record(
            session, None, AuditAction.KEY_ROTATE, object_type="master_key", detail=report.summary()
        )
        session.commit()
    return report


def drop_old_keys(sessions: sessionmaker[Session], key_file: Path, *, batch: int = 500) -> None:
    """Keep only the first key, once no stored secret needs another one."""
    keys = read_key_file(key_file)
    remaining = stale(sessions, KeyCipher(keys, key_file), batch=batch)
    if remaining:
        raise MasterKeyError(
            f"{remaining} stored secrets still need an old master key; old keys kept"
            " (run `steward keys rotate` again)"
        )
    write_key_file(key_file, keys[:1])
