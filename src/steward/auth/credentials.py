"""What an API token or a console session resolved to, kept for a few seconds.

Every authenticated request resolves its credential: a token or a session cookie is a lookup by
its digest and then its user's row, two queries and a worker-thread hop before the request's
own work. A poller asking every second does it every second for the same answer. A credential
resolved once is kept here for ``STEWARD_AUTH_CACHE_SECONDS`` (default 5): a hit costs a dict
lookup and no I/O, so authentication runs on the event loop.

Revocation stays bounded: on this server, any commit that changes a user, a token or a session
(revoke, log out, deactivate, a password or TOTP change, an admin ending sessions) forgets every
kept credential at once; on another server of a cluster it takes effect within the setting's
seconds. Expiry is checked on every hit. Only digests are kept, never a secret.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import time
from typing import Any, Literal

from sqlalchemy import event
from sqlalchemy.orm import ORMExecuteState, Session, sessionmaker
from sqlalchemy.orm.session import make_transient_to_detached

from steward.auth import api_tokens, sessions, tokens
from steward.auth.models import ApiToken, TokenScope, User, WebSession
from steward.db import utcnow

MOST_KEPT = 10_000  # credentials kept at once; past it the oldest half is forgotten
_CHANGED = "steward.credentials_changed"  # a session's info: it changed a credential's row
_WATCHED = (User, ApiToken, WebSession)

type Kind = Literal["t", "s"]
TOKEN: Kind = "t"  # noqa: S105 - a kind of credential: an API token (Authorization: Bearer)
SESSION: Kind = "s"  # a console session (its cookie)


@dataclasses.dataclass(frozen=True)
class Resolved:
    """A credential's answer: its user (a detached copy, merged into each request's session
    without a query) and what the request needs of the token or session."""

    user: User
    scope: TokenScope
    token_name: str = ""
    token_id: int | None = None
    csrf_token: str = ""
    expires_at: dt.datetime | None = None
    kept_until: float = 0.0  # time.monotonic()

    def for_session(self, session: Session) -> User:
        return session.merge(self.user, load=False)


class Credentials:
    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._kept: dict[str, Resolved] = {}

    def watch(self, factory: sessionmaker[Session]) -> None:
        """Forget everything when a session of ``factory`` commits a change to a user, a token
        or a web session (a flush of such a row, or an UPDATE/DELETE statement on their tables)."""
        event.listen(factory, "after_flush", _flushed)
        event.listen(factory, "do_orm_execute", _executed)
        event.listen(factory, "after_commit", self._committed)
        event.listen(factory, "after_rollback", _rolled_back)

    def clear(self) -> None:
        self._kept.clear()

    def kept(self, kind: Kind, secret: str) -> Resolved | None:
        """What ``secret`` resolved to lately, or None: no I/O."""
        return self._hit(kind + tokens.digest(secret))

    def resolve(self, kind: Kind, session: Session, secret: str) -> Resolved:
        """Resolve ``secret`` in the database (refused: ``NotAuthenticated``) and keep it."""
        if kind == TOKEN:
            token = api_tokens.resolve_token(session, secret)
            user, fields = (
                token.user,
                {
                    "scope": TokenScope(token.scope),
                    "token_name": token.name,
                    "token_id": token.id,
                    "expires_at": token.expires_at,
                },
            )
        else:
            web = sessions.resolve_session(session, secret)
            user, fields = (
                web.user,
                {
                    "scope": TokenScope.WRITE,
                    "csrf_token": web.csrf_token,
                    "expires_at": web.expires_at,
                },
            )
        return self._keep(kind + tokens.digest(secret), user, **fields)

    def _hit(self, key: str) -> Resolved | None:
        kept = self._kept.get(key)
        if kept is None:
            return None
        if kept.kept_until < time.monotonic() or (
            kept.expires_at is not None and kept.expires_at <= utcnow()
        ):
            self._kept.pop(key, None)  # resolved again: says why it is refused, or keeps it anew
            return None
        return kept

    def _keep(self, key: str, user: User, **fields: Any) -> Resolved:
        resolved = Resolved(
            user=_detached_copy(user), kept_until=time.monotonic() + self._seconds, **fields
        )
        if self._seconds > 0:
            if len(self._kept) >= MOST_KEPT:
                for old in list(self._kept)[: MOST_KEPT // 2]:
                    self._kept.pop(old, None)
            self._kept[key] = resolved
        return resolved

    def _committed(self, session: Session) -> None:
        if session.info.pop(_CHANGED, False):
            self.clear()


def _detached_copy(user: User) -> User:
    """The user's columns in an object of no session: each request merges it into its own."""
    copy = User(
        **{column.key: getattr(user, column.key) for column in User.__mapper__.column_attrs}
    )
    make_transient_to_detached(copy)
    return copy


def _flushed(session: Session, _context: object) -> None:
    rows = (*session.new, *session.dirty, *session.deleted)
    if any(isinstance(row, _WATCHED) for row in rows):
        session.info[_CHANGED] = True


def _executed(state: ORMExecuteState) -> None:
    if (state.is_update or state.is_delete) and any(
        mapper.class_ in _WATCHED for mapper in state.all_mappers
    ):
        state.session.info[_CHANGED] = True


def _rolled_back(session: Session) -> None:
    session.info.pop(_CHANGED, None)
