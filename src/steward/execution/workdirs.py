"""Where a run's private directory lives on the machine that executes it, and its removal.

The directory holds decrypted secrets (keys, vault passwords, survey answers), so it must never
outlive its run: the executor removes it when the run ends, recovery after a crash removes the
ones of the runs it fails, and a sweep on every dispatcher pass removes any left behind.
"""

from __future__ import annotations

import logging
import re
import shutil
import tempfile
from collections.abc import Collection
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.config import Settings
from steward.execution.ansible.sandbox import control_root
from steward.runs.models import Run
from steward.runs.status import FINISHED

log = logging.getLogger(__name__)

_RUN_DIR = re.compile(r"run-(\d+)")
_CONTROL_DIR = re.compile(r"r(\d+)-\w+")


def private_dir(settings: Settings, run_id: int) -> Path:
    return settings.runs_dir / f"run-{run_id}"


def control_prefix(run_id: int) -> str:
    """The name prefix of the run's SSH control directory under ``control_root(settings)``."""
    return f"r{run_id}-"


def new_control_dir(settings: Settings, run_id: int) -> Path:
    """A fresh directory for the run's SSH control and agent sockets: short (unix socket paths),
    under a root hidden from every run."""
    root = control_root(settings)
    root.mkdir(mode=0o700, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=control_prefix(run_id), dir=root))


def remove(settings: Settings, run_id: int) -> None:
    """Remove the run's private and SSH control directories, if any."""
    shutil.rmtree(private_dir(settings, run_id), ignore_errors=True)
    root = control_root(settings)
    if root.is_dir():
        for path in root.glob(f"{control_prefix(run_id)}*"):
            shutil.rmtree(path, ignore_errors=True)


def sweep(session: Session, settings: Settings, *, executing: Collection[int]) -> list[int]:
    """Remove the directories of every run that is not executing here and not unfinished
    (a run that ended, or that no longer exists); the ids removed."""
    found = _ids(settings.runs_dir, _RUN_DIR) | _ids(control_root(settings), _CONTROL_DIR)
    candidates = found - set(executing)
    if not candidates:
        return []
    alive = set(
        session.scalars(
            select(Run.id).where(Run.id.in_(candidates), Run.status.not_in(list(FINISHED)))
        )
    )
    removed = sorted(candidates - alive)
    for run_id in removed:
        remove(settings, run_id)
        log.info("removed the private directory of run %s", run_id)
    return removed


def _ids(directory: Path, pattern: re.Pattern[str]) -> set[int]:
    if not directory.is_dir():
        return set()
    return {int(m[1]) for path in directory.iterdir() if (m := pattern.fullmatch(path.name))}
