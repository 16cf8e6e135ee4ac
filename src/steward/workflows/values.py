"""A workflow's node launch values: secret survey answers sealed together by node key (in the
workflow, and copied into each of its runs), and turned back into a launch body."""

from __future__ import annotations

from typing import Any

from steward.crypto import KeyCipher
from steward.templates.launch import LaunchOverrides
from steward.triggers import values


def secret_answers(cipher: KeyCipher, sealed: bytes | None) -> dict[str, dict[str, Any]]:
    """Secret survey answers, by node key."""
    if sealed is None:
        return {}
    answers: dict[str, dict[str, Any]] = cipher.decrypt(sealed).get("nodes", {})
    return answers


def stored_launch(
    cipher: KeyCipher, launch: dict[str, Any], key: str, sealed: bytes | None
) -> LaunchOverrides:
    """A node's launch body as saved, secret answers included (to launch, or check again)."""
    return values.body_of(launch, secret_answers(cipher, sealed).get(key, {}))
