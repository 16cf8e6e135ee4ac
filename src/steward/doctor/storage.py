"""What Steward keeps in its database and beside it: the database (reachable, its schema this
version's) and the master key file (private, ours, the key that opens the database's secrets)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from sqlalchemy import Engine, create_engine, pool, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

# every table mapped (a mapper configured on first use resolves its relationships)
import steward.models  # noqa: F401
from steward import migrations
from steward.backups.service import key_fingerprints
from steward.config import Settings
from steward.crypto import MasterKeyError, read_key_file
from steward.doctor.disk import user_name
from steward.doctor.findings import Finding, fail, ok, seconds, warn
from steward.keys.rotation import encrypted_columns

DATABASE = "database"
MASTER_KEY = "master-key"

DATABASE_TIMEOUT = 3  # seconds to connect, and for each statement


def connect_args(url: str) -> dict[str, Any]:
    """The driver's settings that bound a connection and each statement to DATABASE_TIMEOUT."""
    backend = make_url(url).get_backend_name()
    if backend == "postgresql":
        return {
            "connect_timeout": DATABASE_TIMEOUT,
            "options": f"-c statement_timeout={DATABASE_TIMEOUT * 1000}",
        }
    if backend == "sqlite":
        return {"timeout": DATABASE_TIMEOUT}
    return {}


def shown(url: str) -> str:
    """The database URL as printed: without its password."""
    return make_url(url).render_as_string(hide_password=True)


def _sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database or "")


def _reason(exc: SQLAlchemyError) -> str:
    """The driver's own words, first line (SQLAlchemy's adds a link and the statement)."""
    original = getattr(exc, "orig", None) or exc
    return (str(original).strip().splitlines() or [type(original).__name__])[0][:300]


def database(settings: Settings) -> Finding:
    """Reachable within DATABASE_TIMEOUT, at this Steward's revision (``steward migrate
    --check``): an upgrade pending or a newer Steward's database is a FAIL; a database not made
    yet (a first start) a warning."""
    url = settings.database_url
    where = shown(url)
    sqlite_file = _sqlite_file(url)
    if sqlite_file is not None and not sqlite_file.exists():
        return warn(
            DATABASE,
            f"{sqlite_file} does not exist yet: `steward serve` (or `steward migrate`) creates it",
        )
    started = time.monotonic()
    try:
        found = migrations.schema(url, connect_args=connect_args(url))
    except SQLAlchemyError as exc:
        return fail(
            DATABASE,
            f"{where}: not reachable within {DATABASE_TIMEOUT} s ({_reason(exc)}); check"
            " STEWARD_DATABASE_URL and that the database server runs",
        )
    took = seconds(time.monotonic() - started)
    if not found.known:
        return fail(DATABASE, f"{where}: {found.describe()}")
    if found.current is None:
        return warn(DATABASE, f"{where}: {found.describe()}")
    if found.pending:
        return fail(DATABASE, f"{where}: {found.describe()} (`steward serve` does it at start)")
    return ok(DATABASE, f"{where}: {found.describe()}; answered in {took}")


def engine_of(settings: Settings) -> Engine | None:
    """An engine on the database bounded by DATABASE_TIMEOUT, no pool (dispose it); None for a
    SQLite file that does not exist (connecting would create it)."""
    url = settings.database_url
    sqlite_file = _sqlite_file(url)
    if sqlite_file is not None and not sqlite_file.exists():
        return None
    return create_engine(url, poolclass=pool.NullPool, connect_args=connect_args(url))


def _sealed(settings: Settings) -> list[tuple[str, bytes]] | str:
    """One sealed value of each kind the database holds (label, token), or why none was read."""
    engine = engine_of(settings)
    if engine is None:
        return []
    found: list[tuple[str, bytes]] = []
    try:
        with engine.connect() as connection:
            for sealed in encrypted_columns():
                column = sealed.column
                token = connection.execute(
                    select(column).where(column.is_not(None)).limit(1)
                ).scalar()
                if token is not None:
                    found.append((sealed.label, bytes(token)))
    except SQLAlchemyError:
        return "the database could not be read (see the database line)"
    finally:
        engine.dispose()
    return found


def _mode_problem(path: Path, mode: int) -> str | None:
    loose = mode & 0o077
    if not loose:
        return None
    verbs = [
        v
        for bit, v in ((0o044, "readable"), (0o022, "writable"), (0o011, "executable"))
        if loose & bit
    ]
    who = [w for bit, w in ((0o070, "group"), (0o007, "others")) if loose & bit]
    return (
        f"{path} is {' and '.join(verbs)} by {' and '.join(who)} (mode {mode:04o});"
        f" chmod 600 {path}"
    )


def master_key(settings: Settings) -> Finding:
    """The key file: a regular file of the user running Steward, mode 0600 or stricter, holding
    Fernet keys that open the secrets the database holds (one of each kind is tried)."""
    path = settings.key_file
    me = user_name(os.geteuid())
    try:
        info = path.stat()
    except FileNotFoundError:
        sealed = _sealed(settings)
        if isinstance(sealed, list) and sealed:
            return fail(
                MASTER_KEY,
                f"{path} is missing, and the database holds secrets sealed with it: put back the"
                " key file kept apart from the backups (or set STEWARD_SECRET_KEY_FILE)",
            )
        return warn(
            MASTER_KEY,
            f"{path} does not exist yet: `steward serve` creates it (mode 0600); keep a copy"
            " apart from the backups",
        )
    except OSError as exc:
        return fail(MASTER_KEY, f"{path} cannot be read ({exc.strerror})")
    if not stat.S_ISREG(info.st_mode):
        return fail(MASTER_KEY, f"{path} is not a regular file")
    if info.st_uid != os.geteuid():
        return fail(
            MASTER_KEY,
            f"{path} is owned by {user_name(info.st_uid)}, not by {me} who runs Steward;"
            f" chown {me} {path}",
        )
    if problem := _mode_problem(path, stat.S_IMODE(info.st_mode)):
        return fail(MASTER_KEY, problem)
    try:
        keys = read_key_file(path)
        fingerprint = key_fingerprints(path)[0]
    except (OSError, MasterKeyError) as exc:
        return fail(MASTER_KEY, f"{exc}; put back the key file the database's secrets need")
    plural = "s" if len(keys) > 1 else ""
    held = f"{path} (mode {stat.S_IMODE(info.st_mode):04o}, {me}, {len(keys)} key{plural}"
    held += f", fingerprint {fingerprint})"
    sealed = _sealed(settings)
    if isinstance(sealed, str):
        return ok(MASTER_KEY, f"{held}; not tried on the database's secrets: {sealed}")
    if not sealed:
        return ok(MASTER_KEY, f"{held}; no secret stored yet to try it on")
    cipher = MultiFernet([Fernet(key) for key in keys])
    closed = []
    for label, token in sealed:
        try:
            cipher.decrypt(token)
        except InvalidToken:
            closed.append(label)
    if closed:
        return fail(
            MASTER_KEY,
            f"{held} does not open the {', '.join(closed)} in the database: it is not the key"
            " they were sealed with; put back that key file (a backup's manifest.json names"
            " its fingerprint)",
        )
    return ok(MASTER_KEY, f"{held}; opens the database's {', '.join(lbl for lbl, _ in sealed)}")
