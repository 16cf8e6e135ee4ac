"""Encryption at rest for the key store (Fernet: AES-128-CBC + HMAC-SHA256).

The master key file holds one Fernet key per line; the first encrypts, all decrypt, so a new key
can be put first and every secret re-encrypted while the server keeps running (``keys.rotation``).
The file lives outside the database and is created (mode 0600) on first start.

A running process notices a rotation by itself: before each use it compares the file's identity
(inode, size, mtime) with the one it loaded, and it re-reads the file once more when it meets a
token none of its keys opens. So a server started before ``steward keys rotate`` encrypts with the
new key as soon as the file is replaced, and still opens secrets re-encrypted under it.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


class MasterKeyError(Exception):
    pass


def read_key_file(path: Path) -> list[bytes]:
    lines = [line.strip() for line in path.read_bytes().splitlines() if line.strip()]
    if not lines:
        raise MasterKeyError(f"{path} holds no key")
    try:
        for line in lines:
            Fernet(line)
    except ValueError as exc:
        raise MasterKeyError(f"{path} does not hold valid Fernet keys") from exc
    return lines


def write_key_file(path: Path, keys: list[bytes]) -> None:
    """Replace the file atomically (write a 0600 sibling, fsync, rename): readers see the old
    file or the new one, never a half-written one."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(b"".join(k + b"\n" for k in keys))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


class KeyCipher:
    def __init__(self, keys: list[bytes], path: Path | None = None) -> None:
        if not keys:
            raise MasterKeyError("the master key file holds no key")
        self._fernet = MultiFernet([Fernet(k) for k in keys])
        self._primary = Fernet(keys[0])
        self._path = path
        self._identity = _identity(path) if path is not None else None
        self._lock = threading.Lock()

    @classmethod
    def load_or_create(cls, path: Path) -> KeyCipher:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(Fernet.generate_key() + b"\n")
        return cls(read_key_file(path), path)

    def _reload(self, *, force: bool = False) -> bool:
        """Re-read the key file if it changed (or ``force``); True if the keys were replaced."""
        if self._path is None:
            return False
        identity = _identity(self._path)
        if identity is None or (identity == self._identity and not force):
            return False
        with self._lock:
            keys = read_key_file(self._path)
            self._fernet = MultiFernet([Fernet(k) for k in keys])
            self._primary = Fernet(keys[0])
            self._identity = identity
        return True

    def encrypt(self, payload: dict[str, Any]) -> bytes:
        self._reload()
        return self._fernet.encrypt(json.dumps(payload).encode())

    def decrypt(self, token: bytes) -> dict[str, Any]:
        self._reload()
        try:
            plain = self._fernet.decrypt(token)
        except InvalidToken:
            if not self._reload(force=True):
                raise MasterKeyError("a secret cannot be decrypted with the master key") from None
            try:
                plain = self._fernet.decrypt(token)
            except InvalidToken as exc:
                raise MasterKeyError("a secret cannot be decrypted with the master key") from exc
        value: dict[str, Any] = json.loads(plain)
        return value

    def rotate(self, token: bytes) -> bytes:
        """The token re-encrypted under the first key (MultiFernet.rotate)."""
        return self._fernet.rotate(token)

    def is_current(self, token: bytes) -> bool:
        """Whether the first key alone opens the token (nothing needs the old keys for it)."""
        try:
            self._primary.decrypt(token)
        except InvalidToken:
            return False
        return True
