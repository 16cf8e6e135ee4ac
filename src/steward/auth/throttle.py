"""Throttling: logins, counted from the audit trail's ``auth:login_failed`` records, and
previews (``Rate``), counted in memory.

Logins have no state of their own: the failures are already recorded (in the database), so the
limits hold across restarts and across every server process. A successful login clears the
account's count (failures before it no longer count) but never the source address's.

A preview or test (a recurrence's next occurrences, a webhook's test delivery, an unsaved
inventory) evaluates what the caller typed and records nothing: ``Rate`` counts them per user in
the process's memory, a sliding window of the last minute. Both refuse with ``TooManyRequests``
(429 and Retry-After) until the oldest counted event leaves the window.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime as dt
import math
import threading
import time
from collections.abc import Callable

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session

from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord
from steward.config import Settings
from steward.db import utcnow
from steward.errors import TooManyRequests

LOGIN_FAILED = AuditAction.AUTH_LOGIN_FAILED
LOGIN = AuditAction.AUTH_LOGIN


@dataclasses.dataclass(frozen=True)
class Limits:
    per_account: int
    per_ip: int
    window: dt.timedelta

    @classmethod
    def from_settings(cls, settings: Settings) -> Limits:
        return cls(
            per_account=settings.login_max_failures_per_account,
            per_ip=settings.login_max_failures_per_ip,
            window=dt.timedelta(seconds=settings.login_window_seconds),
        )


def _last_success(session: Session, user_id: int | None) -> dt.datetime | None:
    if user_id is None:
        return None
    return session.scalar(
        select(AuditRecord.created_at)
        .where(
            AuditRecord.action == LOGIN,
            AuditRecord.object_type == "user",
            AuditRecord.object_id == user_id,
        )
        .order_by(AuditRecord.created_at.desc())
        .limit(1)
    )


def _locked_until(
    session: Session,
    match: ColumnElement[bool],
    since: dt.datetime,
    limit: int,
    window: dt.timedelta,
) -> dt.datetime | None:
    """When the failures matching ``match`` fall back under ``limit``; None if they are under.

    The ``limit``-th newest failure in the window is the one whose ageing-out ends the lock.
    """
    oldest_counted = session.scalar(
        select(AuditRecord.created_at)
        .where(AuditRecord.action == LOGIN_FAILED, AuditRecord.created_at >= since, match)
        .order_by(AuditRecord.created_at.desc())
        .offset(limit - 1)
        .limit(1)
    )
    return oldest_counted + window if oldest_counted is not None else None


def check(
    session: Session, limits: Limits, *, username: str, user_id: int | None, source_ip: str
) -> None:
    """Raise TooManyRequests (with the seconds to wait) when the account or address is locked."""
    now = utcnow()
    since = now - limits.window
    account_since = max(since, _last_success(session, user_id) or since)
    locks = [
        (
            _locked_until(
                session,
                AuditRecord.object_name == username[:64],
                account_since,
                limits.per_account,
                limits.window,
            ),
            f"too many failed logins for '{username[:64]}'",
        ),
    ]
    if source_ip:
        locks.append(
            (
                _locked_until(
                    session,
                    AuditRecord.source_ip == source_ip,
                    since,
                    limits.per_ip,
                    limits.window,
                ),
                "too many failed logins from this address",
            )
        )
    active = [(until, why) for until, why in locks if until is not None and until > now]
    if active:
        until, why = max(active)
        raise _refusal(why, (until - now).total_seconds())


def _refusal(why: str, seconds: float) -> TooManyRequests:
    wait = max(1, math.ceil(seconds))
    return TooManyRequests(f"{why}; try again in {wait} seconds", retry_after=wait)


class Rate:
    """At most ``limit`` events per key (a user id) in any ``window`` seconds, in this process.

    ``what`` names the limit in the refusal (``previews and tests``, with its setting)."""

    def __init__(
        self,
        limit: int,
        what: str,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit, self.what, self.window, self._clock = limit, what, window, clock
        self._events: dict[int, collections.deque[float]] = {}
        self._lock = threading.Lock()

    def take(self, key: int) -> None:
        """Count one event of ``key``, or raise ``TooManyRequests`` (not counted) when it
        already had ``limit`` in the window."""
        now = self._clock()
        with self._lock:
            events = self._events.setdefault(key, collections.deque())
            while events and events[0] <= now - self.window:
                events.popleft()
            if len(events) >= self.limit:
                raise _refusal(
                    f"too many {self.what}: at most {self.limit} in {self.window:g} seconds",
                    events[0] + self.window - now,
                )
            events.append(now)
            if len(self._events) > 10_000:  # keys seen long ago: forgotten
                self._events = {
                    k: v for k, v in self._events.items() if v and v[-1] > now - self.window
                }
