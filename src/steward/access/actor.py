from __future__ import annotations

import dataclasses

from steward.auth.models import TokenScope, User


@dataclasses.dataclass(frozen=True)
class Actor:
    """Who makes a request, through what, and from where."""

    user: User
    scope: TokenScope  # a browser session carries the full WRITE scope of its user
    via: str  # "session" | "token" | "cli" | "schedule" | "webhook"
    token_name: str = ""  # the token's name; for a schedule or webhook: "schedule 3"
    source_ip: str = ""
    user_agent: str = ""
    token_id: int | None = None  # via "token": the API token of the request

    @classmethod
    def trigger(cls, owner: User, via: str, object_id: int, source_ip: str = "") -> Actor:
        """A schedule or webhook acting for its owner, with at most the rights of a run token."""
        return cls(
            user=owner,
            scope=TokenScope.RUN,
            via=via,
            token_name=f"{via} {object_id}",
            source_ip=source_ip,
        )

    @property
    def kind(self) -> str:
        """What the audit trail records as the actor's type."""
        return self.via if self.via in ("token", "schedule", "webhook") else "user"

    @property
    def label(self) -> str:
        if not self.token_name:
            return self.user.username
        if self.via == "token":
            return f"{self.user.username} (token {self.token_name})"
        return f"{self.user.username} (via {self.token_name})"
