"""``backup`` and ``restore`` (see the package's docstring)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import glob
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from steward import __version__, migrations
from steward.config import Settings
from steward.crypto import MasterKeyError, read_key_file

MANIFEST = "manifest.json"
FORMAT = 1
SQLITE_FILE = "steward.db"
PG_FILE = "steward.pgdump"
DUMP_TIMEOUT = 3600.0  # seconds: pg_dump and pg_restore of a large database
KEY_REMINDER = (
    "the master key is not in the backup: keep {key} apart from it (without the key no secret"
    " of the backup can be read; with it, anyone holding the backup can)"
)


class BackupRefused(Exception):
    """A backup or restore that cannot be done as asked; the message says why and what to do."""


@dataclasses.dataclass(frozen=True)
class Manifest:
    steward: str
    schema: str
    database: str  # "sqlite" or "postgresql"
    created_at: str
    files: dict[str, dict[str, Any]]  # name -> {"size": bytes, "sha256": hex}
    keys: list[str]  # fingerprints of the master keys at backup time, the sealing one first
    format: int = FORMAT

    def write(self, directory: Path) -> None:
        path = directory / MANIFEST
        path.write_text(json.dumps(dataclasses.asdict(self), indent=2) + "\n")
        path.chmod(0o600)

    @classmethod
    def read(cls, directory: Path) -> Manifest:
        path = directory / MANIFEST
        try:
            raw = json.loads(path.read_text())
            manifest = cls(**raw)
        except FileNotFoundError:
            raise BackupRefused(f"{directory}: no {MANIFEST}: not a Steward backup") from None
        except (ValueError, TypeError) as exc:
            raise BackupRefused(f"{path}: not a manifest this Steward reads ({exc})") from None
        if manifest.format != FORMAT:
            raise BackupRefused(
                f"{path}: backup format {manifest.format}, this Steward reads {FORMAT}"
            )
        return manifest


def key_fingerprints(key_file: Path) -> list[str]:
    """What names each master key of ``key_file`` without giving it away (SHA-256, 16 hex)."""
    return [hashlib.sha256(key).hexdigest()[:16] for key in read_key_file(key_file)]


def _kind(url: str) -> str:
    backend = make_url(url).get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise BackupRefused(f"a {backend} database: Steward backs up SQLite and PostgreSQL")
    return backend


def _digest(path: Path) -> dict[str, Any]:
    sha = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    return {"size": path.stat().st_size, "sha256": sha.hexdigest()}


# --- backup ----------------------------------------------------------------------------------


def backup(settings: Settings, into: Path, *, now: dt.datetime | None = None) -> Path:
    """A consistent copy of the database in a new directory under ``into``, with its manifest;
    the directory. Safe while the server runs (it keeps writing meanwhile)."""
    url = settings.database_url
    kind = _kind(url)
    found = migrations.schema(url)
    if not found.known:
        raise BackupRefused(found.describe())
    if found.current is None:
        raise BackupRefused("the database is empty: there is nothing to back up")
    try:
        keys = key_fingerprints(settings.key_file)
    except (OSError, MasterKeyError) as exc:
        raise BackupRefused(f"the master key {settings.key_file}: {exc}") from None
    stamp = (now or dt.datetime.now(dt.UTC)).strftime("%Y%m%dT%H%M%SZ")
    target = into / f"steward-{stamp}"
    try:
        target.mkdir(parents=True, mode=0o700)
    except FileExistsError:
        raise BackupRefused(f"{target} exists already") from None
    if kind == "sqlite":
        name = SQLITE_FILE
        _sqlite_copy(Path(make_url(url).database or ""), target / name)
    else:
        name = PG_FILE
        _pg(url, "pg_dump", "--format=custom", "--no-owner", f"--file={target / name}")
    (target / name).chmod(0o600)
    Manifest(
        steward=__version__,
        schema=found.current,
        database=kind,
        created_at=stamp,
        files={name: _digest(target / name)},
        keys=keys,
    ).write(target)
    return target


def _sqlite_copy(source: Path, copy: Path) -> None:
    """SQLite's online backup: one read transaction, so the copy is the database at one moment
    even while the server writes (WAL readers do not block writers)."""
    if not source.is_file():
        raise BackupRefused(f"{source}: no such database")
    reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    writer = sqlite3.connect(copy)
    try:
        reader.backup(writer)
    finally:
        writer.close()
        reader.close()


def _pg(url: str, program: str, *args: str) -> None:
    """``program`` (pg_dump, pg_restore) on the database of ``url``; its password in the
    environment, never on the command line."""
    parsed = make_url(url)
    env = {
        **os.environ,
        "PGHOST": parsed.host or "",
        "PGPORT": str(parsed.port or 5432),
        "PGUSER": parsed.username or "",
        "PGPASSWORD": parsed.password or "",
        "PGDATABASE": parsed.database or "",
    }
    done = subprocess.run(
        [_pg_program(program), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=DUMP_TIMEOUT,
        check=False,
    )
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise BackupRefused(f"{program} failed: {said[-1] if said else done.returncode}")


def _pg_program(name: str) -> str:
    """On PATH, else the newest of Debian's PostgreSQL installs (pg_dump must not be older than
    the server)."""
    found = shutil.which(name)
    if found:
        return found
    installed = sorted(
        glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(Path(p).parts[4])
    )
    if not installed:
        raise BackupRefused(f"{name} not found: install PostgreSQL's client (postgresql-client)")
    return installed[-1]


# --- restore ---------------------------------------------------------------------------------


def restore(settings: Settings, source: Path) -> Manifest:
    """Replace the database with the backup in ``source``, after checking it all first (nothing
    is replaced when a check fails); the backup's manifest. The server must be stopped."""
    manifest = Manifest.read(source)
    for name, expected in manifest.files.items():
        if Path(name).name != name:
            raise BackupRefused(f"{MANIFEST}: {name!r} is not a file of the backup")
        path = source / name
        if not path.is_file():
            raise BackupRefused(f"{path}: missing")
        if _digest(path) != expected:
            raise BackupRefused(f"{path}: not the file the manifest names (size or SHA-256)")
    url = settings.database_url
    kind = _kind(url)
    if manifest.database != kind:
        raise BackupRefused(f"a {manifest.database} backup cannot be restored into {kind}")
    if manifest.schema not in migrations.revisions():
        raise BackupRefused(
            f"the backup's schema is revision {manifest.schema}, which Steward {__version__}"
            f" does not know: it was made by a newer Steward ({manifest.steward}); restore it"
            " with that version"
        )
    try:
        ours = key_fingerprints(settings.key_file)
    except (OSError, MasterKeyError) as exc:
        raise BackupRefused(f"the master key {settings.key_file}: {exc}") from None
    if manifest.keys and manifest.keys[0] not in ours:
        raise BackupRefused(
            f"the master key file {settings.key_file} does not hold the key this backup's"
            f" secrets are sealed with (fingerprint {manifest.keys[0]}): put back the key file"
            " kept with the backup, then restore"
        )
    if kind == "sqlite":
        (name,) = manifest.files
        _sqlite_replace(source / name, Path(make_url(url).database or ""))
    else:
        (name,) = manifest.files
        restore_args = ("--clean", "--if-exists", "--no-owner", "--single-transaction")
        _pg(
            url,
            "pg_restore",
            *restore_args,
            f"--dbname={make_url(url).database}",
            str(source / name),
        )
    return manifest


def _sqlite_replace(copy: Path, database: Path) -> None:
    """The database file replaced at once (a rename), its WAL and shared memory files gone."""
    database.parent.mkdir(parents=True, exist_ok=True)
    staged = database.with_name(database.name + ".restoring")
    shutil.copyfile(copy, staged)
    with staged.open("rb+") as f:
        os.fsync(f.fileno())
    for extra in ("-wal", "-shm"):
        database.with_name(database.name + extra).unlink(missing_ok=True)
    os.replace(staged, database)
