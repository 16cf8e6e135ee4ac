"""The data dir: it takes a file, and its file system has room. Light on imports: it runs
before the other checks, looking at the directories as they are."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from pathlib import Path

from steward.config import Settings
from steward.doctor.findings import Finding, fail, ok, warn

DATA_DIR = "data-dir"

# free space on the data dir's file system: below FAIL_FREE runs and the database soon fail
FAIL_FREE = 512 * 1024**2
WARN_FREE = 5 * 1024**3
WARN_FREE_SHARE = 0.10


def user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024:
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


def _existing_ancestor(path: Path) -> Path:
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def data_dir(
    settings: Settings, *, fail_below: int = FAIL_FREE, warn_below: int = WARN_FREE
) -> Finding:
    """The data dir takes a file (a directory not made yet: its parent must let it be made, a
    warning), and its file system has room: FAIL under ``fail_below`` bytes free, a warning
    under ``warn_below`` or 10 %. Nothing is left behind, no directory made: run as another
    user than the service's, the doctor must not make the service's directories its own."""
    directory = settings.data_dir
    me = user_name(os.geteuid())
    existing = _existing_ancestor(directory)
    if existing != directory:
        if not (existing.is_dir() and os.access(existing, os.W_OK | os.X_OK)):
            return fail(
                DATA_DIR,
                f"{directory} does not exist and {existing} does not let {me} make it; make it"
                f" (install -d -o {me} {directory}) or set STEWARD_DATA_DIR",
            )
        made = "does not exist yet: `steward serve` makes it"
    else:
        try:
            with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
                pass
        except OSError as exc:
            return fail(
                DATA_DIR,
                f"{directory} is not writable by {me} ({exc.strerror}); chown -R {me}"
                f" {directory} or set STEWARD_DATA_DIR",
            )
        made = "writable"
    usage = shutil.disk_usage(existing)
    room = f"{_size(usage.free)} free of {_size(usage.total)}"
    advice = "prune old runs (steward prune, STEWARD_RUN_RETENTION_DAYS) or grow the disk"
    if usage.free < fail_below:
        return fail(
            DATA_DIR, f"{directory}: only {room}; the database and runs need room: {advice}"
        )
    if usage.free < warn_below or usage.free < WARN_FREE_SHARE * usage.total:
        return warn(DATA_DIR, f"{directory}: {made}, {room}, running low: {advice}")
    if existing != directory:
        return warn(DATA_DIR, f"{directory} {made}; {room}")
    return ok(DATA_DIR, f"{directory}: {made}, {room}")
