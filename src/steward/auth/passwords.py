from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()
# verified against when the user does not exist, so timing does not reveal valid usernames: a
# hash made once with the hasher's parameters (verifying costs what a user's hash costs).
# Written here, not made at import: hashing costs ~0.4 s of CPU (64 MiB, 3 passes) at every
# start of every process (server, worker, CLI); made anew only if the parameters changed.
_PRECOMPUTED = (
    "$argon2id$v=19$m=65536,t=3,p=4$dYr3VbPtqECuPJOI4aTQfw"
    "$v0FTN/e9GgPRRVsFx/2ICwGpGUybRP9Rsi5s8MDkcmQ"
)
_DUMMY_HASH = (
    _hasher.hash("steward-dummy-password")
    if _hasher.check_needs_rehash(_PRECOMPUTED)
    else _PRECOMPUTED
)


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def verify_password(password_hash: str | None, password: str) -> bool:
    try:
        return _hasher.verify(password_hash or _DUMMY_HASH, password) and password_hash is not None
    except (VerificationError, InvalidHashError):
        return False
