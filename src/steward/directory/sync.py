"""The directory sync: Steward's LDAP users checked against the directory, without waiting for
them to log in.

``sync`` looks up every active LDAP user (``directory.ldap.lookup``, by the entry's stable id,
or by the DN of an account of before the stable ids) and then, only once every lookup got a
clear answer:

- a user the directory no longer lets log in (the entry is gone, or no longer matches
  ``ldap_user_filter``) is disabled: their browser sessions end and their API tokens are revoked
  (``auth.sessions.end_all``, ``auth.api_tokens.revoke_all``, as an admin's disabling does),
  recorded as ``user:disable`` by the system with the reason. The last active admin is never
  disabled by a sync (recorded instead);
- a user still there is updated as their login would (``directory.provision``): username, name,
  e-mail, teams of their groups, admin flag; an account still known by its DN moves over to the
  stable id.

It never disables anyone on a doubtful answer: a directory that does not answer, or refuses a
search, changes nothing (``LdapUnavailable``); and when the directory finds none of Steward's
LDAP users although there are some (a wrong ``ldap_user_base`` or filter looks exactly like
that), the sync refuses to act and says so in the audit trail and the log. Each run is recorded
as ``directory:sync`` (the server loop's runs only when they disabled or failed someone, or
refused). Running it twice, or on two servers at once, does the same as once.

``DirectorySync`` runs it every ``ldap_sync_minutes`` on each server (0: off); ``steward
directory sync`` and ``POST /directory/sync`` (admins) run it now.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.auth import api_tokens, sessions
from steward.auth.models import AuthSource, User
from steward.config import Settings
from steward.directory.provision import USER_FIELDS, is_last_active_admin, provision
from steward.errors import Conflict, InvalidInput, InvalidState, NotAuthenticated
from steward.runtime import Runtime
from steward.ticker import Ticker

if TYPE_CHECKING:
    from steward.directory import ldap

log = logging.getLogger(__name__)

VIA = "sync"
DISABLE_FIELDS = (*USER_FIELDS, "is_active")


@dataclasses.dataclass
class SyncReport:
    checked: int = 0  # active LDAP users looked up
    present: int = 0  # still in the directory (updated as a login would)
    disabled: list[str] = dataclasses.field(default_factory=list)  # usernames
    kept: list[str] = dataclasses.field(default_factory=list)  # gone, but the last admin
    failed: list[str] = dataclasses.field(default_factory=list)  # "<username>: <why>"
    refused: str = ""  # why nothing was changed, when the sync refused to act

    def summary(self) -> str:
        if self.refused:
            return f"refused: {self.refused}"
        parts = [
            f"checked {self.checked} LDAP users",
            f"{self.present} in the directory",
            f"disabled {len(self.disabled)}",
        ]
        if self.disabled:
            parts[-1] += f" ({', '.join(self.disabled[:20])})"
        if self.kept:
            parts.append(f"kept the last admin {self.kept[0]} though gone")
        if self.failed:
            parts.append(f"{len(self.failed)} not updated ({'; '.join(self.failed[:5])})")
        return ", ".join(parts)


def _record_run(session: Session, actor: Actor | None, report: SyncReport) -> None:
    audit.record(
        session,
        actor,
        AuditAction.DIRECTORY_SYNC,
        object_type="directory",
        object_name="ldap",
        detail=report.summary(),
        source_ip=actor.source_ip if actor else "",
        user_agent=actor.user_agent if actor else "",
    )
    session.commit()


def _disable(session: Session, user_id: int, reason: str, report: SyncReport) -> None:
    """Disable a user the directory gave up (in one commit with the ended sessions, revoked
    tokens and the record), unless they changed meanwhile or are the last active admin."""
    user = session.get(User, user_id, with_for_update=True)
    if user is None or not user.is_active or user.auth_source != AuthSource.LDAP:
        session.rollback()
        return  # disabled, removed or changed by someone else meanwhile: nothing to do
    if is_last_active_admin(session, user):
        report.kept.append(user.username)
        audit.record_change(
            session,
            None,
            AuditAction.USER_UPDATE,
            user,
            detail=f"directory sync: {reason}, but kept active: the last active admin",
        )
        session.commit()
        return
    before = audit.snapshot(user, DISABLE_FIELDS)
    user.is_active = False
    ended, revoked = sessions.end_all(session, user), api_tokens.revoke_all(session, user)
    audit.record_change(
        session,
        None,
        AuditAction.USER_DISABLE,
        user,
        audit.diff(before, audit.snapshot(user, DISABLE_FIELDS)),
        detail=f"directory sync: {reason}; ended {ended} sessions, revoked {revoked} tokens",
    )
    session.commit()
    report.disabled.append(user.username)
    log.info("directory sync: disabled %s (%s)", user.username, reason)


def _update(session: Session, user_id: int, entry: ldap.DirectoryEntry, report: SyncReport) -> None:
    user = session.get(User, user_id)
    if user is None or not user.is_active:
        return
    try:
        provision(
            session,
            AuthSource.LDAP,
            entry,
            entry.admin,
            previous_external_id=user.external_id,
            via=VIA,
        )
    except (NotAuthenticated, Conflict, InvalidInput) as exc:
        # a username taken by another account, one Steward cannot hold, disabled meanwhile:
        # the user stays as they are, the run's record says why
        session.rollback()
        report.failed.append(f"{user.username}: {exc.message}")


def sync(session: Session, settings: Settings, actor: Actor | None = None) -> SyncReport:
    """Check every active LDAP user against the directory and act on the answers (see the
    module). ``actor``: the admin who asked, None for the server's own loop or the CLI."""
    from steward.directory import ldap  # ldap3: loaded where LDAP is used

    config = ldap.LdapConfig.from_settings(settings)
    if config is None:
        raise InvalidState("LDAP login is not configured on this server (STEWARD_LDAP_URL)")
    users = list(
        session.execute(
            select(User.id, User.username, User.external_id)
            .where(User.auth_source == AuthSource.LDAP, User.is_active.is_(True))
            .order_by(User.id)
        )
    )
    session.rollback()  # nothing held while the directory is asked
    report = SyncReport(checked=len(users))
    if not users:
        if actor is not None:
            _record_run(session, actor, report)
        return report
    try:
        answers = ldap.lookup(config, [u.external_id for u in users if u.external_id])
    except ldap.LdapUnavailable as exc:
        log.warning("directory sync: nothing changed: %s", exc.message)
        report.refused = f"the directory did not answer clearly, nothing changed ({exc.message})"
        _record_run(session, actor, report)
        raise
    present = {k: v for k, v in answers.items() if isinstance(v, ldap.DirectoryEntry)}
    if not present:
        report.refused = (
            f"the directory found none of the {len(users)} active LDAP users: that looks like"
            " a wrong ldap_user_base, ldap_user_filter or ldap_id_attribute, or a directory"
            " answering emptily; nobody was disabled (disable people by hand if they are"
            " really all gone)"
        )
        log.warning("directory sync: %s", report.refused)
        _record_run(session, actor, report)
        return report
    report.present = len(present)
    for user_id, username, external_id in users:
        answer = answers.get(external_id or "")
        if isinstance(answer, ldap.DirectoryEntry):
            _update(session, user_id, answer, report)
        elif isinstance(answer, ldap.Gone):
            _disable(session, user_id, answer.reason, report)
        else:  # no id, or one that is neither a stable id nor a DN: nothing to look up
            report.failed.append(f"{username}: no valid directory id stored, not looked up")
    if actor is not None or report.disabled or report.kept or report.failed:
        _record_run(session, actor, report)  # the loop's runs that changed nothing: logged only
    log.info("directory sync: %s", report.summary())
    return report


class DirectorySync:
    """A background service of ``steward serve``: the sync every ``ldap_sync_minutes`` (the
    first one a minute after start). Off when LDAP is not configured or the period is 0."""

    FIRST_DELAY_SECONDS = 60.0

    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._first = True
        self._ticker = Ticker("directory-sync", self.tick, self._seconds)

    def _seconds(self) -> float:
        return float(self._runtime.settings.ldap_sync_minutes * 60)

    @property
    def enabled(self) -> bool:
        settings = self._runtime.settings
        return settings.ldap_enabled and settings.ldap_sync_minutes > 0

    def start(self) -> None:
        if self.enabled:
            self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()

    def tick(self) -> SyncReport | None:
        from steward.directory import ldap

        if self._first:  # let the server come up first (and tests stop it before it runs)
            self._first = False
            if self._ticker.stopping.wait(self.FIRST_DELAY_SECONDS):
                return None
        try:
            with self._runtime.sessions() as session:
                return sync(session, self._runtime.settings)
        except ldap.LdapUnavailable:
            return None  # logged and recorded by sync; the next tick tries again
