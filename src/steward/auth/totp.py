"""Two-factor authentication for local and LDAP accounts: TOTP (RFC 6238) and one-time
recovery codes.

A user turns it on in two steps: their password starts an enrollment (a new secret, stored sealed
with the master key like every other secret, ``keys.crypto``), a code from their authenticator
app confirms it and returns ten recovery codes, shown once and stored as SHA-256 digests only.
An enrollment not confirmed within ``ENROLLMENT_SECONDS`` (15 minutes; the time it started is
sealed with the secret) expires: confirming it is refused (409, start again) and its secret is
dropped. Starting again replaces a pending enrollment.
From then on a password login also needs a current code or an unused recovery code.

- Codes: SHA1, 6 digits, 30 s steps, one step either side accepted. The last step accepted is
  remembered per user, so a code (or an older one) is never accepted twice: a code seen over a
  shoulder or in a log is worth nothing once used.
- API tokens are unaffected: a token is its own credential, and tokens made before TOTP was on
  keep working. The browser session that turns TOTP on stays valid, although it was opened with
  the password alone; turning TOTP on or off, and an admin's reset, end every OTHER browser
  session of the user, as a password change does (an admin's reset ends all of them, unless the
  admin resets their own).
- Wrong passwords and wrong codes count as failed logins (``auth.throttle``), wherever they are
  given: at login, or to confirm a change with a stolen session.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable

import pyotp
from sqlalchemy import delete, update
from sqlalchemy.orm import Session

from steward.access import policy
from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import sessions, throttle
from steward.auth.models import RecoveryCode, User
from steward.auth.passwords import verify_password
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import Conflict, InvalidInput, InvalidState, NotAuthenticated, PermissionDenied

ISSUER = "Steward"
DIGITS = 6
PERIOD = 30  # seconds
DRIFT_STEPS = 1  # steps accepted either side of the current one (clock drift, slow typing)
CODE_MAX = 32  # characters of a code field: a TOTP code or a recovery code, with blanks
RECOVERY_CODES = 10
RECOVERY_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"  # 32 symbols, no l/o/0/1: 60 bits a code
RECOVERY_GROUPS, RECOVERY_GROUP = 3, 4  # "abcd-efgh-ijkl"
ENROLLMENT_SECONDS = 15 * 60  # time to confirm an enrollment with a first code

OTP_REQUIRED = "otp_required"
OTP_INVALID = "otp_invalid"


class SecondFactorNeeded(NotAuthenticated):
    """A login with the right password that still needs (another) code: ``code`` says which."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _normalized(code: str) -> str:
    return "".join(code.split()).replace("-", "").lower()


def _digest(code: str) -> str:
    return hashlib.sha256(_normalized(code).encode()).hexdigest()


def _secret(cipher: KeyCipher, sealed: bytes) -> str:
    return str(cipher.decrypt(sealed)["totp"])


def _pending_expired(cipher: KeyCipher, sealed: bytes, now: float | None = None) -> bool:
    """Whether an enrollment (not confirmed yet) started more than ``ENROLLMENT_SECONDS`` ago.
    One sealed before enrollments were timed has no start: expired, so it cannot linger."""
    started = cipher.decrypt(sealed).get("started")
    if not isinstance(started, int | float):
        return True
    return (time.time() if now is None else now) - float(started) > ENROLLMENT_SECONDS


def _matching_step(secret: str, code: str, now: float | None = None) -> int | None:
    """The time step whose code ``code`` is (the current one or one either side), else None."""
    code = "".join(code.split())
    if len(code) != DIGITS or not code.isascii() or not code.isdigit():
        return None
    totp = pyotp.TOTP(secret, digits=DIGITS, interval=PERIOD)
    current = int((time.time() if now is None else now) // PERIOD)
    found = None
    for step in range(current - DRIFT_STEPS, current + DRIFT_STEPS + 1):
        if hmac.compare_digest(totp.generate_otp(step), code):
            found = step  # no early exit: every candidate is computed, whichever matches
    return found


def _use_step(session: Session, user: User, step: int) -> bool:
    """Remember ``step`` as the user's last accepted one, unless it (or a later one) was used:
    one conditional UPDATE, so two requests racing with the same code cannot both win."""
    done = session.execute(
        update(User)
        .where(
            User.id == user.id,
            (User.totp_last_step.is_(None)) | (User.totp_last_step < step),
        )
        .values(totp_last_step=step)
        .execution_options(synchronize_session=False)
    )
    if int(getattr(done, "rowcount", 0) or 0) != 1:
        return False
    user.totp_last_step = step
    return True


def _use_recovery_code(session: Session, user: User, code: str) -> bool:
    """Mark one of the user's unused recovery codes used; False if ``code`` is none of them."""
    if len(_normalized(code)) != RECOVERY_GROUPS * RECOVERY_GROUP:
        return False
    done = session.execute(
        update(RecoveryCode)
        .where(
            RecoveryCode.user_id == user.id,
            RecoveryCode.code_hash == _digest(code),
            RecoveryCode.used_at.is_(None),
        )
        .values(used_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return int(getattr(done, "rowcount", 0) or 0) >= 1


def accept_code(session: Session, cipher: KeyCipher, user: User, code: str) -> bool:
    """Whether ``code`` is a current TOTP code not used before, or an unused recovery code; the
    code is spent (in the caller's transaction) when it is."""
    if not user.totp_enabled or user.totp_secret is None:
        return False
    step = _matching_step(_secret(cipher, user.totp_secret), code)
    if step is not None:
        return _use_step(session, user, step)
    return _use_recovery_code(session, user, code)


def check_login(
    session: Session,
    cipher: KeyCipher,
    user: User,
    otp: str | None,
    *,
    source_ip: str,
    user_agent: str,
) -> None:
    """The second factor of a login whose password was right (for a user with TOTP on).

    A missing or wrong code is recorded as a failed login, like a wrong password, and refused
    with 401 carrying ``code``: ``otp_required`` (none given) or ``otp_invalid``."""
    if not user.totp_enabled:
        return
    if otp is None:
        reason, code = "a code from the authenticator app is needed", OTP_REQUIRED
    elif accept_code(session, cipher, user, otp):
        return
    else:
        reason, code = "invalid or already used code", OTP_INVALID
    sessions.record_failure(
        session, user.username, user, reason, source_ip=source_ip, user_agent=user_agent
    )
    raise SecondFactorNeeded(
        f"otp: {reason}; give the current code of your authenticator app, or a recovery code",
        code,
    )


def _may_change(actor: Actor) -> None:
    policy.require_account_write(actor, "change two-factor authentication")


PasswordCheck = Callable[[User, str], bool]


def _local_password(user: User, password: str) -> bool:
    return user.is_local and verify_password(user.password_hash, password)


def _confirm_password(
    session: Session,
    actor: Actor,
    password: str,
    limits: throttle.Limits,
    why: str,
    password_matches: PasswordCheck | None,
) -> None:
    """The actor's password, checked like a login (throttled; a wrong one recorded, 403).

    ``password_matches`` checks it where it is kept (an LDAP user's in the directory:
    ``directory.ldap_login``); without it only a local password matches."""
    user = actor.user
    throttle.check(
        session, limits, username=user.username, user_id=user.id, source_ip=actor.source_ip
    )
    if not (password_matches or _local_password)(user, password):
        sessions.record_failure(
            session,
            user.username,
            user,
            f"wrong password when {why}",
            source_ip=actor.source_ip,
            user_agent=actor.user_agent,
        )
        raise PermissionDenied("password: is not your password")


def provisioning_uri(secret: str, username: str) -> str:
    return pyotp.TOTP(secret, digits=DIGITS, interval=PERIOD).provisioning_uri(
        name=username, issuer_name=ISSUER
    )


def start_enrollment(
    session: Session,
    cipher: KeyCipher,
    actor: Actor,
    password: str,
    *,
    limits: throttle.Limits,
    password_matches: PasswordCheck | None = None,
) -> tuple[str, str]:
    """A new secret for the actor (replacing an enrollment not confirmed yet): the secret and
    its ``otpauth://`` URI, returned here only. 409 if TOTP is already on."""
    _may_change(actor)
    user = actor.user
    if user.totp_enabled:
        raise Conflict("two-factor authentication is already on; turn it off first")
    why = "starting two-factor authentication"
    _confirm_password(session, actor, password, limits, why, password_matches)
    secret = pyotp.random_base32()
    user.totp_secret = cipher.encrypt({"totp": secret, "started": time.time()})
    user.totp_last_step = None
    session.commit()
    return secret, provisioning_uri(secret, user.username)


def _new_recovery_codes(session: Session, user: User) -> list[str]:
    session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))
    codes = []
    for _ in range(RECOVERY_CODES):
        chars = "".join(
            secrets.choice(RECOVERY_ALPHABET) for _ in range(RECOVERY_GROUPS * RECOVERY_GROUP)
        )
        groups = [chars[i : i + RECOVERY_GROUP] for i in range(0, len(chars), RECOVERY_GROUP)]
        codes.append("-".join(groups))
    session.add_all(RecoveryCode(user_id=user.id, code_hash=_digest(c)) for c in codes)
    return codes


def _end_other_sessions(session: Session, user: User, actor: Actor, current: str | None) -> int:
    same = actor.via == "session" and actor.user.id == user.id
    keep = sessions.session_id(session, current) if same else None
    return sessions.end_all(session, user, keep_session=keep)


def confirm_enrollment(
    session: Session, cipher: KeyCipher, actor: Actor, code: str, *, current_session: str | None
) -> list[str]:
    """Turn TOTP on with a code of the pending secret: the ten recovery codes (shown once).
    409 when no enrollment is pending or it expired (``ENROLLMENT_SECONDS``).

    The actor's other browser sessions end; the one of this request (if any) stays."""
    _may_change(actor)
    user = actor.user
    if user.totp_enabled:
        raise Conflict("two-factor authentication is already on")
    if user.totp_secret is None:
        raise InvalidState("no enrollment started: POST /users/me/totp with your password first")
    if _pending_expired(cipher, user.totp_secret):
        user.totp_secret = None  # a secret nobody confirmed in time is no use to keep
        user.totp_last_step = None
        session.commit()
        raise InvalidState(
            f"the enrollment expired (not confirmed within {ENROLLMENT_SECONDS // 60} minutes):"
            " start again with POST /users/me/totp and your password"
        )
    step = _matching_step(_secret(cipher, user.totp_secret), code)
    if step is None or not _use_step(session, user, step):
        raise InvalidInput("code", "is not the current code of your authenticator app")
    user.totp_enabled = True
    codes = _new_recovery_codes(session, user)
    ended = _end_other_sessions(session, user, actor, current_session)
    audit.record_change(
        session,
        actor,
        AuditAction.USER_TOTP_ENABLE,
        user,
        detail=f"two-factor authentication on; ended {ended} other sessions",
    )
    session.commit()
    return codes


def _clear(session: Session, user: User) -> None:
    user.totp_secret = None
    user.totp_enabled = False
    user.totp_last_step = None
    session.execute(delete(RecoveryCode).where(RecoveryCode.user_id == user.id))


def disable(
    session: Session,
    cipher: KeyCipher,
    actor: Actor,
    password: str,
    code: str,
    *,
    limits: throttle.Limits,
    current_session: str | None,
    password_matches: PasswordCheck | None = None,
) -> None:
    """Turn the actor's TOTP off, given their password and a code (or a recovery code).

    Either wrong counts as a failed login; the actor's other browser sessions end."""
    _may_change(actor)
    user = actor.user
    if not user.totp_enabled:
        raise InvalidState("two-factor authentication is not on")
    why = "turning two-factor authentication off"
    _confirm_password(session, actor, password, limits, why, password_matches)
    if not accept_code(session, cipher, user, code):
        sessions.record_failure(
            session,
            user.username,
            user,
            f"wrong code when {why}",
            source_ip=actor.source_ip,
            user_agent=actor.user_agent,
        )
        raise InvalidInput("code", "is not a current code of your authenticator app")
    _clear(session, user)
    ended = _end_other_sessions(session, user, actor, current_session)
    audit.record_change(
        session,
        actor,
        AuditAction.USER_TOTP_DISABLE,
        user,
        detail=f"two-factor authentication off; ended {ended} other sessions",
    )
    session.commit()


def reset(session: Session, actor: Actor, user: User, *, current_session: str | None) -> None:
    """An admin turns a user's TOTP off (a lost phone); the user's browser sessions end (the
    admin's own one stays when they reset themselves). The user can enroll again."""
    was = "on" if user.totp_enabled else "pending" if user.totp_secret is not None else "off"
    _clear(session, user)
    ended = _end_other_sessions(session, user, actor, current_session)
    audit.record_change(
        session,
        actor,
        AuditAction.USER_TOTP_RESET,
        user,
        detail=f"two-factor authentication reset (was {was}); ended {ended} sessions",
    )
    session.commit()
