"""The bubblewrap sandbox every run (and every inventory script) executes in.

A playbook with a local connection runs code on this server, as the server's user. The sandbox
keeps the system as the administrator configured it (``/`` is bound as it is) but hides what is
Steward's own: the data dir (database, master key, other runs' private directories), the master
key file and the SQLite file wherever they are, the local repository roots (every project's
local directories) and the other runs' SSH control sockets and agents. Only the run's own
private directory and control directory are bound back (and, read-only for ansible-galaxy only,
the local directories of the run's own project: ``execution/requirements.py``).
It also gives the run:

- a PID namespace of its own with a fresh ``/proc``: no other process's environment or memory
  (the server's, another run's secrets) is visible, and when ansible-playbook exits, the
  namespace ends and every process it left behind is killed by the kernel;
- a minimal ``/dev`` (no raw disks to read the hidden files from);
- no capability that could undo the mounts or go around them (``CAP_SYS_ADMIN`` for umount,
  ``CAP_DAC_READ_SEARCH`` for open-by-handle, ``CAP_SYS_PTRACE``, ``CAP_MKNOD``, raw I/O, modules).

See docs/security.md for the threat model and docs/runner-notes.md for the checks behind the flags.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from sqlalchemy.engine import make_url

from steward.config import Settings

log = logging.getLogger(__name__)

BWRAP = "bwrap"
DROPPED_CAPABILITIES = (
    "CAP_SYS_ADMIN",
    "CAP_SYS_PTRACE",
    "CAP_SYS_MODULE",
    "CAP_SYS_RAWIO",
    "CAP_SYS_BOOT",
    "CAP_DAC_READ_SEARCH",
    "CAP_MKNOD",
    "CAP_BPF",
    "CAP_PERFMON",
)
# never hidden, whatever is configured: the system and the interpreter that runs Ansible
_NEVER_HIDDEN = (Path("/"), Path("/usr"), Path("/etc"), Path("/tmp"), Path("/var"))  # noqa: S108


def _real(path: Path) -> Path:
    return path.expanduser().resolve()


def control_root(settings: Settings) -> Path:
    """The parent of the SSH control directories of this data dir's runs: hidden from runs,
    short enough for unix socket paths (108 bytes), one per data dir (two Steward instances on
    one machine, or two test sessions, never sweep each other's)."""
    digest = hashlib.sha256(str(settings.data_dir).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"steward-ssh-{digest}"


def _hideable(path: Path) -> bool:
    """A path the sandbox may mask: not a system directory, and not one holding the Python that
    runs Ansible (masking it would stop every run)."""
    interpreter = Path(sys.executable).parent
    return path not in _NEVER_HIDDEN and not interpreter.is_relative_to(path)


@dataclasses.dataclass(frozen=True)
class Sandbox:
    """What to hide from the commands it wraps; ``enabled`` False wraps nothing, and then
    ``refusal`` (when set) is why runs must not start at all."""

    enabled: bool
    hidden_dirs: tuple[Path, ...] = ()
    hidden_files: tuple[Path, ...] = ()
    refusal: str = ""

    @classmethod
    def from_settings(cls, settings: Settings) -> Sandbox:
        """The sandbox these settings ask for, said once at start: when bubblewrap does not
        work, a required sandbox refuses every run (with the reason), an optional one warns."""
        if settings.sandbox == "off":
            log.warning("runs are not sandboxed (STEWARD_SANDBOX=off): see docs/security.md")
            return cls(enabled=False)
        problem = probe()
        if problem:
            if settings.sandbox == "required":
                refusal = (
                    f"runs are refused: {problem}; install bubblewrap (apt-get install"
                    " bubblewrap) or set STEWARD_SANDBOX=optional to run playbooks unsandboxed"
                )
                log.error("%s", refusal)
                return cls(enabled=False, refusal=refusal)
            log.warning("runs are NOT sandboxed: %s (STEWARD_SANDBOX=optional)", problem)
            return cls(enabled=False)
        control_root(settings).mkdir(mode=0o700, exist_ok=True)
        dirs = [settings.data_dir, control_root(settings), *settings.repository_roots]
        files = [settings.key_file]
        url = make_url(settings.database_url)
        if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
            database = Path(url.database or "")
            files += [database, Path(f"{database}-wal"), Path(f"{database}-shm")]
        return cls(enabled=True, hidden_dirs=_existing(dirs), hidden_files=_existing(files))

    def hides(self, path: Path) -> bool:
        """Whether ``path`` lies in a directory the sandbox hides from what it wraps."""
        real = _real(path)
        return self.enabled and any(real.is_relative_to(d) for d in self.hidden_dirs)

    def wrap(
        self,
        argv: Sequence[str],
        *,
        visible: Iterable[Path] = (),
        read_only: Iterable[Path] = (),
    ) -> list[str]:
        """``argv`` run inside the sandbox, with ``visible`` directories or files bound back
        read-write and ``read_only`` ones read-only (each must exist)."""
        if not self.enabled:
            return list(argv)
        args = [BWRAP, "--die-with-parent", "--unshare-pid", "--unshare-ipc"]
        args += ["--dev-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        for directory in self.hidden_dirs:
            args += ["--tmpfs", str(directory)]
        for file in self.hidden_files:
            if not any(file.is_relative_to(d) for d in self.hidden_dirs):
                args += ["--ro-bind", "/dev/null", str(file)]
        for path in sorted({_real(p) for p in visible}):
            args += ["--bind", str(path), str(path)]
        for path in sorted({_real(p) for p in read_only}):
            args += ["--ro-bind", str(path), str(path)]
        if os.geteuid() == 0:  # unprivileged, bwrap keeps no capability in the sandbox anyway
            for capability in DROPPED_CAPABILITIES:
                args += ["--cap-drop", capability]
        return [*args, "--", *argv]


def _existing(paths: Iterable[Path]) -> tuple[Path, ...]:
    """Real paths, without duplicates, of the ones that exist and may be hidden (a directory
    created later is hidden by its parent: data dir subdirectories are made before runs)."""
    found: list[Path] = []
    for path in paths:
        real = _real(path)
        if real.exists() and _hideable(real) and real not in found:
            found.append(real)
        elif real.exists() and not _hideable(real):
            log.warning(
                "the sandbox cannot hide %s: it is a system directory or holds Python", real
            )
    return tuple(found)


@functools.cache
def probe() -> str:
    """Why bubblewrap does not work here, or "" when it does (checked once per process)."""
    if shutil.which(BWRAP) is None:
        return "bubblewrap (bwrap) is not installed"
    try:
        with tempfile.TemporaryDirectory(prefix="steward-sandbox-probe-") as hidden:
            argv = Sandbox(enabled=True, hidden_dirs=(Path(hidden),)).wrap(["true"])
            done = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bubblewrap does not start: {exc}"
    if done.returncode != 0:
        return f"bubblewrap does not work here: {done.stderr.strip()[:300]}"
    return ""
