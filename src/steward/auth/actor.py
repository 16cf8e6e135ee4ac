from __future__ import annotations

import dataclasses

from steward.auth.models import TokenScope, User


@dataclasses.dataclass(frozen=True)
class Actor:
    """Who makes a request, through what, and from where."""

    user: User
    scope: TokenScope  # a browser session carries the full WRITE scope of its user
    via: str  # "session" | "token" | "cli"
    token_name: str = ""
    source_ip: str = ""
    user_agent: str = ""

    @property
    def label(self) -> str:
        return (
            f"{self.user.username} (token {self.token_name})"
            if self.token_name
            else (self.user.username)
        )
