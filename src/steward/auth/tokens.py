"""Opaque secrets for sessions and API tokens: random, shown once, stored as SHA-256."""

from __future__ import annotations

import hashlib
import secrets

TOKEN_PREFIX = "stw_"  # noqa: S105 - marks our tokens for secret scanners


def new_secret(prefix: str = "") -> str:
    return prefix + secrets.token_urlsafe(32)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()
