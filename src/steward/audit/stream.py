"""The audit stream's outbox: which records each sink still has to receive, who is sending
them, and how each sink fares.

``service.record`` adds a ``StreamRow`` per configured sink in the transaction of the record.
A streamer (``audit.streamer``, one per server process and sink) then repeatedly

- **claims** a batch (``claim``): the oldest due rows of the sink (on PostgreSQL read with
  ``FOR UPDATE SKIP LOCKED``, so two servers take different rows at once), then a conditional
  UPDATE that sets a lease (``claimed_until``) on those still free and returns the ids it took
  (on SQLite two servers may read the same rows: each row goes to one of them); a row claimed
  by another (its lease not expired) is never taken,
- sends them with no transaction open (``audit.sinks``), and
- **settles** (``settle``): the rows the sink acknowledged are deleted; the others are released
  with their error and one more attempt. A sink that failed as a whole (no connection, not
  2xx) waits ``backoff * 2**(failures-1)``, capped, before it is tried again; a record it
  refused by itself (an Elastic item error) waits alone, and the others go on.

Nothing is dropped: a row leaves the outbox only when acknowledged (or when the retention
removes its record). A streamer killed between the send and the settle leaves its rows
claimed: they are sent again once the lease expires, so delivery is at least once. The batch
in flight is the most that can arrive twice; with the Elastic format each document is created
with the record's id as ``_id``, so the index holds it once.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from steward.audit.models import AuditRecord, StreamRow, StreamSink
from steward.audit.schemas import AuditRead, StreamSinkRead

ERROR_MAX = 1000  # characters of an error kept


@dataclasses.dataclass(frozen=True)
class Claim:
    """The rows of ``sink`` this streamer took until ``until`` (its lease)."""

    sink: str
    until: dt.datetime
    event_ids: list[int]


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What a sink answered to a batch: the ids it acknowledged, the ones it refused one by one
    (with why), or, with ``error``, nothing acknowledged."""

    sent: Sequence[int] = ()
    refused: dict[int, str] = dataclasses.field(default_factory=dict)
    error: str = ""

    @classmethod
    def failed(cls, error: str) -> Outcome:
        return cls(error=error or "failed")


@dataclasses.dataclass(frozen=True)
class Backoff:
    """``base * 2**(n-1)`` seconds after the n-th failure in a row, at most ``cap``."""

    base: float
    cap: float

    def after(self, failures: int) -> dt.timedelta:
        exponent = min(max(failures - 1, 0), 32)
        return dt.timedelta(seconds=min(self.base * 2**exponent, self.cap))


def ensure_sinks(session: Session, sinks: Sequence[str]) -> None:
    """A state row for each of ``sinks`` (another server may be making it at the same time)."""
    for sink in sinks:
        if session.get(StreamSink, sink) is None:
            session.add(StreamSink(sink=sink))
            try:
                session.commit()
            except IntegrityError:
                session.rollback()


def claim(
    session: Session, sink: str, now: dt.datetime, *, limit: int, lease: dt.timedelta
) -> Claim | None:
    """Up to ``limit`` due rows of ``sink``, oldest records first, claimed until ``now +
    lease`` and committed; None when the sink waits after a failure or nothing is due."""
    waits_until = session.scalar(select(StreamSink.next_attempt_at).where(StreamSink.sink == sink))
    if waits_until is not None and waits_until > now:
        session.rollback()
        return None
    free = or_(StreamRow.claimed_until.is_(None), StreamRow.claimed_until < now)
    # two statements, not an UPDATE … IN (SELECT … LIMIT … SKIP LOCKED): PostgreSQL may run
    # such a subquery again for the UPDATE and take more than the limit
    due = session.scalars(
        select(StreamRow.event_id)
        .where(StreamRow.sink == sink, StreamRow.next_attempt_at <= now, free)
        .order_by(StreamRow.event_id)
        .limit(limit)
        .with_for_update(skip_locked=True)  # PostgreSQL: another server takes other rows
    ).all()
    if not due:
        session.rollback()
        return None
    until = now + lease
    # SQLite: two servers may have read the same rows; the UPDATE's WHERE lets one have each
    taken = session.scalars(
        update(StreamRow)
        .where(StreamRow.sink == sink, StreamRow.event_id.in_(due), free)
        .values(claimed_until=until)
        .returning(StreamRow.event_id)
        .execution_options(synchronize_session=False)
    ).all()
    session.commit()
    if not taken:
        return None
    return Claim(sink, until, sorted(taken))


def events(session: Session, event_ids: Sequence[int]) -> list[AuditRead]:
    """The records of ``event_ids``, oldest first, as the API and the export show them."""
    rows = session.scalars(
        select(AuditRecord).where(AuditRecord.id.in_(event_ids)).order_by(AuditRecord.id)
    )
    return [AuditRead.model_validate(row) for row in rows]


def settle(
    session: Session, claimed: Claim, outcome: Outcome, now: dt.datetime, backoff: Backoff
) -> None:
    """Record ``outcome`` of the batch ``claimed``: acknowledged rows deleted, the others
    released with their error (each still claimed by this streamer: a streamer whose lease
    expired meanwhile leaves the rows to whoever took them), and the sink's state."""
    sent = [i for i in outcome.sent if i in set(claimed.event_ids)]
    if sent:  # delivered, whoever holds them now
        session.execute(
            delete(StreamRow).where(StreamRow.sink == claimed.sink, StreamRow.event_id.in_(sent))
        )
    mine = (StreamRow.sink == claimed.sink, StreamRow.claimed_until == claimed.until)
    for event_id, why in outcome.refused.items():
        attempts = session.scalar(
            select(StreamRow.attempts).where(*mine, StreamRow.event_id == event_id)
        )
        if attempts is None:
            continue
        session.execute(
            update(StreamRow)
            .where(*mine, StreamRow.event_id == event_id)
            .values(
                attempts=attempts + 1,
                next_attempt_at=now + backoff.after(attempts + 1),
                claimed_until=None,
                last_error=why[:ERROR_MAX],
            )
        )
    done = set(sent) | set(outcome.refused)
    rest = [i for i in claimed.event_ids if i not in done]
    if rest:  # not acknowledged: the whole batch after a failure, or what the answer left out
        error = outcome.error or "not acknowledged by the receiver"
        session.execute(
            update(StreamRow)
            .where(*mine, StreamRow.event_id.in_(rest))
            .values(
                attempts=StreamRow.attempts + 1, claimed_until=None, last_error=error[:ERROR_MAX]
            )
        )
    state = session.get(StreamSink, claimed.sink)
    if state is None:
        state = StreamSink(sink=claimed.sink)
        session.add(state)
    if outcome.error:
        state.failures += 1
        state.next_attempt_at = now + backoff.after(state.failures)
    else:
        state.failures = 0
        state.next_attempt_at = None
        state.last_success_at = now
        state.sent += len(sent)
    if outcome.error or outcome.refused:
        refused = f"{len(outcome.refused)} records refused: " if outcome.refused else ""
        first = outcome.error or next(iter(outcome.refused.values()))
        state.last_error = (refused + first)[:ERROR_MAX]
        state.last_error_at = now
    session.commit()


@dataclasses.dataclass(frozen=True)
class Backlog:
    sink: str
    pending: int
    oldest_at: dt.datetime | None


def backlog(session: Session) -> dict[str, Backlog]:
    """Rows waiting per sink and the oldest one's time, sinks with none left out."""
    rows = session.execute(
        select(StreamRow.sink, func.count(), func.min(StreamRow.created_at)).group_by(
            StreamRow.sink
        )
    ).all()
    return {
        sink: Backlog(sink, count, _aware(oldest) if oldest is not None else None)
        for sink, count, oldest in rows
    }


def states(session: Session) -> dict[str, StreamSink]:
    return {state.sink: state for state in session.scalars(select(StreamSink))}


def _aware(value: dt.datetime) -> dt.datetime:
    """``min()`` of a UTC column comes back without the column's type on SQLite: naive."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=dt.UTC)


def status(
    session: Session, configured: Sequence[tuple[str, str, str]], now: dt.datetime
) -> list[StreamSinkRead]:
    """Each sink of ``configured`` (name, kind, target), then any other one still holding
    records (configured no more), with its backlog and how it fares."""
    waiting, fared = backlog(session), states(session)
    known = {name for name, _, _ in configured}
    rows = [(name, kind, target, True) for name, kind, target in configured]
    rows += [(name, "", "", False) for name in sorted(set(waiting) - known)]
    found = []
    for name, kind, target, on in rows:
        pending = waiting.get(name)
        state = fared.get(name) or StreamSink(sink=name, failures=0, sent=0, last_error="")
        oldest = pending.oldest_at if pending else None
        found.append(
            StreamSinkRead(
                sink=name,
                kind=kind,
                target=target,
                configured=on,
                backlog=pending.pending if pending else 0,
                oldest_pending_at=oldest,
                oldest_pending_seconds=max((now - oldest).total_seconds(), 0.0) if oldest else None,
                sent=state.sent,
                last_success_at=state.last_success_at,
                failures=state.failures,
                next_attempt_at=state.next_attempt_at,
                last_error=state.last_error,
                last_error_at=state.last_error_at,
            )
        )
    return found
