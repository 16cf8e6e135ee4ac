"""Host and group variables as we show them: anything that looks like a secret is masked."""

from __future__ import annotations

from typing import Any

from steward.masking import MASK

SENSITIVE_PARTS = ("pass", "secret", "key", "token")


def is_sensitive(name: str) -> bool:
    lowered = name.lower()
    return any(part in lowered for part in SENSITIVE_PARTS)


def mask_vars(variables: dict[str, Any]) -> dict[str, Any]:
    """A copy of ``variables`` with sensitive names masked, in nested mappings too.

    The names stay, so a reader can see a password is set without seeing it. Vault-encrypted
    values (``{"__ansible_vault": ...}``) are masked whatever their name.
    """
    return {name: _masked(name, value) for name, value in variables.items()}


def _masked(name: str, value: Any) -> Any:
    if is_sensitive(name):
        return MASK
    if isinstance(value, dict):
        if "__ansible_vault" in value:
            return MASK
        return mask_vars(value)
    if isinstance(value, list):
        return [_masked("", item) for item in value]
    return value
