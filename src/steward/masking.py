"""Replace the secret values a run uses by ``********`` in everything stored or streamed."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

MASK = "********"


def _variants(secret: str) -> set[str]:
    """The forms a value takes in Ansible output: raw, JSON-escaped, Python-repr-escaped."""
    forms = {secret, json.dumps(secret)[1:-1], json.dumps(secret, ensure_ascii=False)[1:-1]}
    forms.add(repr(secret)[1:-1])
    if "\n" in secret:  # multi-line secrets (private keys) also show up line by line
        forms.update(line.strip() for line in secret.splitlines() if len(line.strip()) >= 8)
    return {f for f in forms if f}


class Masker:
    def __init__(self, secrets: Iterable[str]) -> None:
        forms: set[str] = set()
        for secret in secrets:
            if secret:
                forms |= _variants(secret)
        # longest first, so a secret containing another is replaced whole
        ordered = sorted(forms, key=len, reverse=True)
        self._pattern = re.compile("|".join(map(re.escape, ordered))) if ordered else None

    def __bool__(self) -> bool:
        return self._pattern is not None

    def text(self, value: str) -> str:
        return self._pattern.sub(MASK, value) if self._pattern else value

    def data(self, value: Any) -> Any:
        """Mask every string inside a JSON-like structure (keys included)."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(str(k)): self.data(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.data(v) for v in value]
        return value
