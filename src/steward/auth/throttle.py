"""Login throttling, counted from the audit trail's ``auth:login_failed`` records.

No state of its own: the failures are already recorded (in the database), so the limits hold
across restarts and across every server process. A successful login clears the account's count
(failures before it no longer count) but never the source address's.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

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
        wait = max(1, math.ceil((until - now).total_seconds()))
        raise TooManyRequests(f"{why}; try again in {wait} seconds", retry_after=wait)
