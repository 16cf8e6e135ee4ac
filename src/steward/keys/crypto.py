"""Encryption at rest for the key store (Fernet: AES-128-CBC + HMAC-SHA256).

The master key file holds one Fernet key per line; the first encrypts, all decrypt, so a new key
can be put first and every secret re-encrypted while the server keeps running. The file lives
outside the database and is created (mode 0600) on first start.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet, InvalidToken, MultiFernet


class MasterKeyError(Exception):
    pass


class KeyCipher:
    def __init__(self, keys: list[bytes]) -> None:
        if not keys:
            raise MasterKeyError("the master key file holds no key")
        self._fernet = MultiFernet([Fernet(k) for k in keys])

    @classmethod
    def load_or_create(cls, path: Path) -> KeyCipher:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(Fernet.generate_key() + b"\n")
        lines = [line.strip() for line in path.read_bytes().splitlines() if line.strip()]
        try:
            return cls(lines)
        except ValueError as exc:
            raise MasterKeyError(f"{path} does not hold valid Fernet keys") from exc

    def encrypt(self, payload: dict[str, Any]) -> bytes:
        return self._fernet.encrypt(json.dumps(payload).encode())

    def decrypt(self, token: bytes) -> dict[str, Any]:
        try:
            value: dict[str, Any] = json.loads(self._fernet.decrypt(token))
        except InvalidToken as exc:
            raise MasterKeyError("a secret cannot be decrypted with the master key") from exc
        return value

    def rotate(self, token: bytes) -> bytes:
        return self._fernet.rotate(token)
