"""Encryption at rest for the key store (Fernet: AES-128-CBC + HMAC-SHA256).

The master key file holds one Fernet key per line; the first encrypts, all decrypt, so a new key
can be put first and every secret re-encrypted while the server keeps running (``keys.rotation``).
The file lives outside the database and is created (mode 0600) on first start.

A running process notices a rotation by itself: before each use it compares the file's identity
(inode, size, mtime) with the one it loaded, and it re-reads the file once more when it meets a
token none of its keys opens. So a server started before ``steward keys rotate`` encrypts with the
new key as soon as the file is replaced, and still opens secrets re-encrypted under it.

The keys are checked as the file is read, by Fernet's own rule (``is_fernet_key``); cryptography
(7 MiB: its OpenSSL) is imported, and the Fernet objects made, at the first encryption or
decryption, so a server that has not used a secret yet has not loaded it.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from cryptography.fernet import Fernet, MultiFernet


class MasterKeyError(Exception):
    pass


def is_fernet_key(key: bytes) -> bool:
    """Whether ``Fernet(key)`` takes it: 32 bytes in URL-safe base64, decoded as Fernet decodes
    it (tests/test_crypto.py compares the two on keys good and bad)."""
    try:
        return len(base64.urlsafe_b64decode(key)) == 32
    except binascii.Error:
        return False


def new_key() -> bytes:
    """A new Fernet key (``Fernet.generate_key``)."""
    from cryptography.fernet import Fernet

    return Fernet.generate_key()


def read_key_file(path: Path) -> list[bytes]:
    lines = [line.strip() for line in path.read_bytes().splitlines() if line.strip()]
    if not lines:
        raise MasterKeyError(f"{path} holds no key")
    if not all(is_fernet_key(line) for line in lines):
        raise MasterKeyError(f"{path} does not hold valid Fernet keys")
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


class _Fernets:
    """The keys as cryptography's objects: all of them (the first encrypts), and the first."""

    def __init__(self, keys: list[bytes]) -> None:
        from cryptography.fernet import Fernet, MultiFernet

        self.all: MultiFernet = MultiFernet([Fernet(k) for k in keys])
        self.primary: Fernet = Fernet(keys[0])


class KeyCipher:
    def __init__(self, keys: list[bytes], path: Path | None = None) -> None:
        if not keys:
            raise MasterKeyError("the master key file holds no key")
        if not all(is_fernet_key(k) for k in keys):
            raise MasterKeyError("the master key file does not hold valid Fernet keys")
        self._keys = keys
        self._made: _Fernets | None = None  # at the first use
        self._path = path
        self._identity = _identity(path) if path is not None else None
        self._lock = threading.Lock()

    @classmethod
    def load_or_create(cls, path: Path) -> KeyCipher:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(new_key() + b"\n")
        return cls(read_key_file(path), path)

    def _fernets(self) -> _Fernets:
        made = self._made
        if made is None:
            with self._lock:
                made = self._made = self._made or _Fernets(self._keys)
        return made

    def _reload(self, *, force: bool = False) -> bool:
        """Re-read the key file if it changed (or ``force``); True if the keys were replaced."""
        if self._path is None:
            return False
        identity = _identity(self._path)
        if identity is None or (identity == self._identity and not force):
            return False
        with self._lock:
            keys = read_key_file(self._path)
            self._made = _Fernets(keys)
            self._keys = keys
            self._identity = identity
        return True

    def encrypt(self, payload: dict[str, Any]) -> bytes:
        self._reload()
        return self._fernets().all.encrypt(json.dumps(payload).encode())

    def decrypt(self, token: bytes) -> dict[str, Any]:
        from cryptography.fernet import InvalidToken

        self._reload()
        try:
            plain = self._fernets().all.decrypt(token)
        except InvalidToken:
            if not self._reload(force=True):
                raise MasterKeyError("a secret cannot be decrypted with the master key") from None
            try:
                plain = self._fernets().all.decrypt(token)
            except InvalidToken as exc:
                raise MasterKeyError("a secret cannot be decrypted with the master key") from exc
        value: dict[str, Any] = json.loads(plain)
        return value

    def rotate(self, token: bytes) -> bytes:
        """The token re-encrypted under the first key (MultiFernet.rotate)."""
        return self._fernets().all.rotate(token)

    def is_current(self, token: bytes) -> bool:
        """Whether the first key alone opens the token (nothing needs the old keys for it)."""
        from cryptography.fernet import InvalidToken

        try:
            self._fernets().primary.decrypt(token)
        except InvalidToken:
            return False
        return True
