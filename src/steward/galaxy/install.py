"""ansible-galaxy as a run uses it: the commands, their environment, their output line by line.

Everything ansible-galaxy writes stays in the run's private directory: the installed roles and
collections, its home (``ANSIBLE_HOME``: its Galaxy cache and token file), its temporary files.
It reads no ``ansible.cfg`` but an empty one of ours (``ANSIBLE_CONFIG``): the repository's does
not steer the install, so what is installed depends only on what the cache key covers. The
project's Galaxy servers and their secrets reach it as environment variables, never as
arguments; the run's output masks them like every other secret.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import queue
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import yaml

from steward.execution.ansible.processes import MARKER
from steward.galaxy.requirements import Requirements
from steward.galaxy.service import ServerAccess

POLL_SECONDS = 0.25
METADATA_MAX_BYTES = 1024 * 1024
_END = object()


@dataclasses.dataclass(frozen=True)
class Command:
    title: str  # "collections of collections/requirements.yml"
    argv: list[str]


@dataclasses.dataclass(frozen=True)
class Layout:
    """Where one install happens, in the run's private directory."""

    workdir: Path

    @property
    def target(self) -> Path:  # what is installed: roles/ and collections/
        return self.workdir / "requirements"

    @property
    def roles(self) -> Path:
        return self.target / "roles"

    @property
    def collections(self) -> Path:
        return self.target / "collections"

    @property
    def home(self) -> Path:  # ansible-galaxy's own files
        return self.workdir / "galaxy"

    def make(self) -> None:
        for directory in (self.roles, self.collections, self.home / "tmp"):
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        config = self.home / "ansible.cfg"
        config.touch(mode=0o600)


def commands(galaxy: Path, requirements: Requirements, layout: Layout) -> list[Command]:
    """One ``role install`` and one ``collection install`` per file that lists such entries."""
    found = []
    for file in requirements.files:
        if file.roles:
            argv = [str(galaxy), "role", "install", "-r", file.path, "-p", str(layout.roles)]
            found.append(Command(f"roles of {file.path}", argv))
        if file.collections:
            argv = [str(galaxy), "collection", "install", "-r", file.path]
            argv += ["-p", str(layout.collections)]
            found.append(Command(f"collections of {file.path}", argv))
    return found


def environment(
    layout: Layout, bin_dir: Path, servers: Sequence[ServerAccess], run_uuid: str
) -> dict[str, str]:
    """The server's environment without Steward's and Ansible's own settings, then ours."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("STEWARD_", "ANSIBLE_"))
    }
    env.update(
        {
            "PATH": f"{bin_dir}:{env.get('PATH', '/usr/local/bin:/usr/bin:/bin')}",
            MARKER: run_uuid,
            "PYTHONUNBUFFERED": "1",  # lines as they come
            "GIT_TERMINAL_PROMPT": "0",  # a private git URL fails instead of waiting
            "TMPDIR": str(layout.home / "tmp"),
            "ANSIBLE_CONFIG": str(layout.home / "ansible.cfg"),
            "ANSIBLE_HOME": str(layout.home),
            "ANSIBLE_LOCAL_TEMP": str(layout.home / "tmp"),
            "ANSIBLE_GALAXY_CACHE_DIR": str(layout.home / "cache"),
            "ANSIBLE_GALAXY_TOKEN_PATH": str(layout.home / "token"),
            "ANSIBLE_GALAXY_DISPLAY_PROGRESS": "False",
            "ANSIBLE_COLLECTIONS_PATH": str(layout.collections),
            "ANSIBLE_ROLES_PATH": str(layout.roles),
        }
    )
    if servers:
        env["ANSIBLE_GALAXY_SERVER_LIST"] = ",".join(s.name for s in servers)
    for server in servers:
        prefix = f"ANSIBLE_GALAXY_SERVER_{server.name.upper()}_"
        env[f"{prefix}URL"] = server.url
        env[f"{prefix}VALIDATE_CERTS"] = str(server.validate_certs)
        if server.auth_url:
            env[f"{prefix}AUTH_URL"] = server.auth_url
        if server.token:
            env[f"{prefix}TOKEN"] = server.token
        if server.username:
            env[f"{prefix}USERNAME"] = server.username
            env[f"{prefix}PASSWORD"] = server.password
    return env


def stream(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: dict[str, str],
    on_line: Callable[[str], None],
    stop: Callable[[], bool],
) -> int | None:
    """Run ``argv``, handing each output line (stdout and stderr) to ``on_line`` as it comes;
    its exit code, or None when ``stop`` (polled every ``POLL_SECONDS``) asked to end it, and
    it was killed."""
    proc = subprocess.Popen(
        list(argv),
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    lines: queue.Queue[object] = queue.Queue()
    reader = threading.Thread(target=_read, args=(proc, lines), daemon=True)
    reader.start()
    next_poll = time.monotonic() + POLL_SECONDS
    try:
        while True:
            try:
                item = lines.get(timeout=max(0.0, next_poll - time.monotonic()))
            except queue.Empty:
                item = None
            if item is _END:
                break
            if isinstance(item, str):
                on_line(item)
            if time.monotonic() >= next_poll:
                next_poll = time.monotonic() + POLL_SECONDS
                if stop():
                    _kill(proc)
                    return None
        return proc.wait()
    finally:
        if proc.poll() is None:
            _kill(proc)
        reader.join(timeout=5)


def _read(proc: subprocess.Popen[bytes], lines: queue.Queue[object]) -> None:
    assert proc.stdout is not None  # noqa: S101 - stdout=PIPE above
    with proc.stdout:
        for raw in proc.stdout:
            lines.put(raw.decode("utf-8", "replace").rstrip("\r\n"))
    lines.put(_END)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """The whole session: bubblewrap (its PID namespace ends with it), or ansible-galaxy and
    the git it started."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def listing(target: Path) -> dict[str, list[list[str]]]:
    """What is installed under ``target`` (checked to hold no symlink leading out of it):
    ``collections`` and ``roles``, each ``[name, version]``, sorted."""
    collections = []
    namespaces = target / "collections" / "ansible_collections"
    for manifest in sorted(namespaces.glob("*/*/MANIFEST.json")):
        info = _metadata(manifest, json.loads).get("collection_info")
        info = info if isinstance(info, dict) else {}
        namespace = info.get("namespace", manifest.parent.parent.name)
        name = info.get("name", manifest.parent.name)
        collections.append([f"{namespace}.{name}", str(info.get("version", ""))])
    roles = []
    roles_dir = target / "roles"
    for role in sorted(p for p in roles_dir.iterdir() if p.is_dir()) if roles_dir.is_dir() else []:
        info = _metadata(role / "meta" / ".galaxy_install_info", yaml.safe_load)
        roles.append([role.name, str(info.get("version", ""))])
    return {"collections": collections, "roles": roles}


def _metadata(path: Path, parse: Callable[[str], Any]) -> dict[str, Any]:
    """A small metadata file's mapping; {} when missing, too large or not a mapping."""
    try:
        with path.open("rb") as f:
            text = f.read(METADATA_MAX_BYTES + 1)
        if len(text) > METADATA_MAX_BYTES:
            return {}
        value = parse(text.decode("utf-8", "replace"))
    except (OSError, ValueError, yaml.YAMLError):
        return {}
    return value if isinstance(value, dict) else {}
