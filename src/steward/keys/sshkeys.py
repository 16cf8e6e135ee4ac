"""SSH private keys: parse and check at save time, fingerprint, and decrypt for the runner.

Error messages never contain the key text; ``cryptography``'s own messages do not either.
``cryptography`` is imported by the first key read (steward.crypto: not with the server).
"""

from __future__ import annotations

import base64
import hashlib
from typing import TYPE_CHECKING

from steward.errors import InvalidInput

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.types import PrivateKeyTypes

_OPENSSH_HEADER = "-----BEGIN OPENSSH PRIVATE KEY-----"


def _load(text: str, passphrase: bytes | None) -> PrivateKeyTypes:
    from cryptography.hazmat.primitives import serialization

    data = text.strip().encode() + b"\n"
    if _OPENSSH_HEADER in text:
        return serialization.load_ssh_private_key(data, password=passphrase)
    return serialization.load_pem_private_key(data, password=passphrase)


def _is_encrypted(text: str) -> bool:
    from cryptography.exceptions import UnsupportedAlgorithm

    try:
        _load(text, None)
    except TypeError:  # "Password was not given but private key is encrypted"
        return True
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise InvalidInput(
            "private_key", "not a private key in OpenSSH or PEM format, or a type ssh cannot use"
        ) from exc
    return False


def load_private_key(text: str, passphrase: str) -> PrivateKeyTypes:
    """The key, decrypted; InvalidInput naming ``private_key`` or ``passphrase`` if it cannot be."""
    encrypted = _is_encrypted(text)
    if encrypted and not passphrase:
        raise InvalidInput("passphrase", "the private key is encrypted: give its passphrase")
    if not encrypted and passphrase:
        raise InvalidInput("passphrase", "the private key is not encrypted: leave it empty")
    if not encrypted:
        return _load(text, None)
    try:
        return _load(text, passphrase.encode())
    except ValueError as exc:
        raise InvalidInput("passphrase", "does not decrypt the private key") from exc


def fingerprint(key: PrivateKeyTypes) -> str:
    """``SHA256:<base64>`` of the public key, as ``ssh-keygen -l`` prints it."""
    from cryptography.hazmat.primitives import serialization

    try:
        line = key.public_key().public_bytes(
            serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
        )
    except ValueError as exc:
        raise InvalidInput("private_key", "is not a key type ssh can use") from exc
    blob = base64.b64decode(line.split()[1])
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    return f"SHA256:{digest}"


def unencrypted_openssh(key: PrivateKeyTypes) -> str:
    """The key as an unencrypted OpenSSH PEM: ssh never asks for a passphrase (trap 8)."""
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.OpenSSH,
        serialization.NoEncryption(),
    ).decode()
