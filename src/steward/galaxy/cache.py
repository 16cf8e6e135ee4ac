"""Installed requirements kept for the next runs: per project, by key, bounded, shared safely.

``<cache>/project-<id>/<key>/`` holds ``roles/``, ``collections/`` and ``manifest.json``. The
key is a digest of everything the installed content depends on except what the servers answer:
the requirements files' content, the project's Galaxy servers, the venv and its ansible-core.

- Only Steward writes here: ansible-galaxy installs into the run's private directory (inside
  the sandbox, which hides the data dir), then Steward moves the finished tree in with an atomic
  rename; runs get an entry bound read-only. A run cannot change what the next run gets.
- Entries are per project: a server's token may give one project content another may not
  read, and no project's install can feed another's runs.
- Concurrent runs: an entry appears whole (``os.rename`` of a finished tree) or not at all; when
  two runs build the same entry, the first rename wins and the other run uses it. A run holds a
  shared ``flock`` on ``<key>.lock`` while it uses the entry; eviction takes it exclusively
  (without waiting), so an entry in use is never removed.
- Bounded: after each new entry, the least recently used ones (directory mtime, touched on each
  use) are removed until the total size fits.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import hashlib
import json
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
STALE_SECONDS = 3600  # leftovers of a crash (.tmp-*, .trash-*) older than this are removed
KEY_VERSION = 1


def key(
    files: list[list[str]],
    servers: list[list[Any]],
    venv: str,
    ansible_version: str,
) -> str:
    """The entry's name: ``files`` (path, digest) in install order, ``servers`` identities."""
    payload = {
        "v": KEY_VERSION,
        "files": files,
        "servers": servers,
        "venv": venv,
        "ansible": ansible_version,
    }
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


@dataclasses.dataclass
class Lease:
    """A run's use of one entry: a shared lock held until ``release``."""

    entry: Path
    _fd: int | None

    @property
    def hit(self) -> bool:
        return (self.entry / MANIFEST).is_file()

    def manifest(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads((self.entry / MANIFEST).read_text(encoding="utf-8"))
        return data

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None


class Cache:
    def __init__(self, root: Path, max_bytes: int) -> None:
        self.root = root
        self.max_bytes = max_bytes

    @property
    def enabled(self) -> bool:
        return self.max_bytes > 0

    def _project_dir(self, project_id: int) -> Path:
        directory = self.root / f"project-{project_id}"
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        return directory

    def lease(self, project_id: int, entry_key: str) -> Lease:
        """Hold the entry ``entry_key`` of the project (which may not exist yet: then the
        caller builds it and ``publish``-es it under this same lease)."""
        directory = self._project_dir(project_id)
        lock = directory / f"{entry_key}.lock"
        while True:
            fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            fcntl.flock(fd, fcntl.LOCK_SH)  # an evictor holds it exclusively only for a rename
            try:
                current = os.stat(lock).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                current = False
            if current:  # else an evictor removed this lock file meanwhile: take the new one
                entry = directory / entry_key
                if entry.is_dir():
                    os.utime(entry)  # most recently used
                return Lease(entry, fd)
            os.close(fd)

    def publish(self, lease: Lease, built: Path, manifest: dict[str, Any]) -> None:
        """Move the finished tree ``built`` into place as the lease's entry, with its
        ``manifest`` (the size is added); when another run published it first, ``built`` is
        dropped and theirs is used."""
        temporary = lease.entry.parent / f".tmp-{uuid.uuid4().hex}"
        try:
            os.rename(built, temporary)
        except OSError as exc:
            if exc.errno != errno.EXDEV:
                raise
            shutil.copytree(built, temporary, symlinks=True)
        os.utime(temporary)  # a fresh leftover, whatever the age of the tree built
        manifest = {**manifest, "size_bytes": tree_size(temporary), "created": time.time()}
        (temporary / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        try:
            os.rename(temporary, lease.entry)
        except OSError as exc:
            if exc.errno not in (errno.ENOTEMPTY, errno.EEXIST):
                raise
            shutil.rmtree(temporary, ignore_errors=True)  # another run's entry is the same
        os.utime(lease.entry)

    def evict(self) -> list[Path]:
        """Remove least recently used entries not in use until the cache fits; the removed."""
        entries = sorted(self._entries(), key=lambda e: e[0])
        total = sum(size for _, size, _ in entries)
        removed = []
        for _, size, entry in entries:
            if total <= self.max_bytes:
                break
            if self._remove_unused(entry):
                total -= size
                removed.append(entry)
        self._remove_leftovers()
        return removed

    def _entries(self) -> Iterator[tuple[float, int, Path]]:
        """(last use, size, path) of every entry of every project."""
        if not self.root.is_dir():
            return
        for project in self.root.iterdir():
            if not project.is_dir():
                continue
            for entry in project.iterdir():
                if entry.name.startswith(".") or not entry.is_dir():
                    continue
                try:
                    size = int(json.loads((entry / MANIFEST).read_text())["size_bytes"])
                    used = entry.stat().st_mtime
                except (OSError, ValueError, KeyError, TypeError):
                    continue  # being removed, or not a finished entry
                yield used, size, entry

    def _remove_unused(self, entry: Path) -> bool:
        lock = entry.parent / f"{entry.name}.lock"
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # a run uses it
            trash = entry.parent / f".trash-{uuid.uuid4().hex}"
            try:
                os.rename(entry, trash)
            except FileNotFoundError:
                return False  # another evictor was first
            with contextlib.suppress(FileNotFoundError):
                os.unlink(lock)
        finally:
            os.close(fd)
        shutil.rmtree(trash, ignore_errors=True)
        log.info("requirements cache: removed %s (least recently used)", entry)
        return True

    def _remove_leftovers(self) -> None:
        cutoff = time.time() - STALE_SECONDS
        for project in self.root.iterdir():
            if not project.is_dir():
                continue
            for path in project.glob(".*-*"):
                with contextlib.suppress(OSError):
                    if path.name.startswith((".tmp-", ".trash-")) and path.stat().st_mtime < cutoff:
                        shutil.rmtree(path, ignore_errors=True)


def tree_size(root: Path) -> int:
    """Bytes of the files under ``root`` (symlinks not followed)."""
    total = 0
    for directory, _dirs, files in os.walk(root):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(directory, name)).st_size
    return total
