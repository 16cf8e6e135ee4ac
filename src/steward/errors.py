"""User-actionable failures. Bugs stay ordinary exceptions and become 500s.

``api.problems`` is the one place these become HTTP responses (problem+json).
"""

from __future__ import annotations


class DomainError(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(DomainError):
    pass


class NotAuthenticated(DomainError):
    pass


class PermissionDenied(DomainError):
    pass


class Conflict(DomainError):
    pass


class InvalidState(DomainError):
    """The object exists but is in a state that forbids the action (cancel a finished run)."""


class Frozen(InvalidState):
    """A launch during a freeze window (``freezes``): names the window and its end."""


class InvalidInput(DomainError):
    """A request field is well-formed but wrong: names the field (dotted path) and the cause."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message


class Unreachable(InvalidInput):
    """A field is valid, but what it points at could not be reached now (a git server that does
    not answer, a ref it does not have): saving it anyway may still be the caller's choice."""


class TooManyRequests(DomainError):
    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class Unavailable(DomainError):
    """Something this server depends on does not answer (its database): try again later."""
