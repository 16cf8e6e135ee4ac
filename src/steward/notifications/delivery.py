"""The outcome of one attempt to deliver a message, as recorded (``Attempt``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from steward.masking import Masker

ERROR_MAX = 1000  # characters of an attempt's error
STATUS_MAX = 100


@dataclasses.dataclass(frozen=True)
class Result:
    ok: bool
    status: str = ""  # the answer: "HTTP 200", "SMTP 250"; empty when there was none
    error: str = ""

    def scrubbed(self, secrets: Iterable[str]) -> Result:
        """With every form of ``secrets`` masked (an incoming-webhook URL, a password, a
        signing secret), and bounded: what may be stored and shown."""
        masker = Masker(secrets)
        error = masker.text(self.error)
        if len(error) > ERROR_MAX:
            error = error[: ERROR_MAX - 1] + "…"
        return Result(self.ok, masker.text(self.status)[:STATUS_MAX], error)
