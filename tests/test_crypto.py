"""The master key file is checked as it is read, by Fernet's own rule, though cryptography is
imported only at the first encryption (steward.crypto)."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest
from cryptography.fernet import Fernet

from steward.crypto import KeyCipher, MasterKeyError, is_fernet_key, read_key_file

# fixed, not generated: the cases' ids must be the same in every xdist worker
GOOD = base64.urlsafe_b64encode(bytes(range(32)))
KEYS = [
    GOOD,
    GOOD.rstrip(b"="),  # no padding: base64 refuses it
    GOOD[:-2] + b"==",  # one byte short
    base64.urlsafe_b64encode(b"k" * 31),
    base64.urlsafe_b64encode(b"k" * 33),
    base64.b64encode(b"\xfb" * 32),  # standard alphabet ('+' and '/'): dropped, 32 bytes short
    GOOD.replace(b"=", b"!"),
    b"",
    b"not a key",
    "é".encode() * 22,
]


@pytest.mark.parametrize("key", KEYS)
def test_a_key_is_valid_as_fernet_says(key: bytes) -> None:
    try:
        Fernet(key)
    except ValueError:
        fernet_takes = False
    else:
        fernet_takes = True
    assert is_fernet_key(key) is fernet_takes


def test_a_key_file_with_a_bad_key_is_refused_and_a_good_one_encrypts(tmp_path: Path) -> None:
    path = tmp_path / "master.key"
    path.write_bytes(GOOD + b"\n" + base64.urlsafe_b64encode(b"k" * 31) + b"\n")
    with pytest.raises(MasterKeyError, match="does not hold valid Fernet keys"):
        read_key_file(path)
    with pytest.raises(MasterKeyError, match="does not hold valid Fernet keys"):
        KeyCipher.load_or_create(path)

    path.unlink()
    cipher = KeyCipher.load_or_create(path)  # made, then read back
    assert Fernet(read_key_file(path)[0]).decrypt(cipher.encrypt({"a": 1})) == b'{"a": 1}'
    assert cipher.decrypt(cipher.encrypt({"a": 1})) == {"a": 1}
