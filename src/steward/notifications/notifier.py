"""The notifier: a background service of ``steward serve`` that delivers queued messages.

Never on the request path: a run's status change (``outbox``) and the "send test" button only
insert a ``Message`` row. Every ``notifier_tick_seconds`` the notifier

- queues a ``long_running`` message for each running run older than a subscription's
  ``long_running_minutes`` (once per run and destination: the table's unique constraint),
- queues a ``host_quiet`` message for each host of a running run that has been quiet on a task
  longer than a subscription's ``host_quiet_minutes`` (else the instance's), by the run page's
  rule (``runs.quiet``), once per run, host and destination (the same constraint), and
- claims due messages (``UPDATE … SET status='sending' WHERE id=:id AND status=:seen``: the
  row count says whether this process won), builds their content at the first attempt, sends
  them from a small thread pool with no transaction open, and records every attempt with its
  answer and error. A failure is retried after ``notify_backoff_seconds * 2**(attempts-1)`` up
  to ``notify_max_attempts``, then the message is ``failed``.

A message left ``sending`` by a process that died is claimed again once its claim is older than
``stale_after`` (a send never takes that long), so a crash loses nothing; at worst a message is
sent twice, and receivers can tell by ``X-Steward-Delivery``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import dataclasses
import datetime as dt
import functools
import logging
import smtplib
import threading
import time
from typing import Any

from sqlalchemy import Select, and_, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.keys import service as keys
from steward.keys.service import KeyMaterial
from steward.notifications import mail, messages, outbox, posts
from steward.notifications.delivery import Result
from steward.notifications.models import (
    Attempt,
    Destination,
    DestinationKind,
    Message,
    MessageStatus,
    RunEventKind,
    Subscription,
)
from steward.outbound import network
from steward.runs import quiet
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.runtime import Runtime
from steward.ticker import Ticker

log = logging.getLogger(__name__)

SENDERS = 4  # messages sent at once
DISABLED = "the destination is disabled"


@dataclasses.dataclass(frozen=True)
class Outgoing:
    """What one attempt needs, read in a short transaction before the network is touched."""

    message_id: int
    kind: DestinationKind
    config: dict[str, Any]
    content: dict[str, Any]
    secret: KeyMaterial | None = dataclasses.field(repr=False)
    enabled: bool


class Notifier:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        settings = runtime.settings
        # a send is bounded by its timeouts (connect, TLS, each read/write); a claim older than
        # this belongs to a process that is gone
        self.stale_after = dt.timedelta(seconds=max(60.0, 10 * settings.notify_timeout_seconds))
        self._ticker = Ticker("notifier", self.tick, lambda: settings.notifier_tick_seconds)
        self._pool: concurrent.futures.ThreadPoolExecutor | None = None
        self._in_flight: set[int] = set()
        self._lock = threading.Lock()
        self._quiet: quiet.Memo = {}  # what the timed passes read of running runs' tasks

    # lifecycle
    def start(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(SENDERS, thread_name_prefix="notify")
        self._ticker.start()

    def stop(self) -> None:
        """Stop claiming; sends under way finish (each bounded by its timeout)."""
        self._ticker.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)

    def tick(self) -> None:
        now = utcnow()
        settings = self.runtime.settings
        with self.runtime.sessions() as session:
            queue_long_running(session, now)
            queue_host_quiet(
                session,
                now,
                base_url=settings.url,
                default_minutes=settings.host_quiet_minutes,
                memo=self._quiet,
            )
        with self._lock:
            free = SENDERS - len(self._in_flight)
        if free <= 0 or self._pool is None:
            return
        with self.runtime.sessions() as session:
            claimed = claim_due(session, now, stale_after=self.stale_after, limit=free)
        for message_id, claimed_at in claimed:
            with self._lock:
                self._in_flight.add(message_id)
            future = self._pool.submit(self.deliver, message_id, claimed_at)
            future.add_done_callback(functools.partial(self._done, message_id))

    def _done(self, message_id: int, _future: concurrent.futures.Future[None]) -> None:
        with self._lock:
            self._in_flight.discard(message_id)

    # one message
    def deliver(self, message_id: int, claimed_at: dt.datetime) -> None:
        """One attempt at a claimed message, recorded whatever happens."""
        started = time.monotonic()
        secrets: list[str] = []
        try:
            outgoing = self._prepare(message_id)
            if outgoing is None:
                return
            secrets = _secrets(outgoing)
            result = self._send(outgoing) if outgoing.enabled else Result(False, "", DISABLED)
        except Exception as exc:
            log.exception("notification message %s could not be sent", message_id)
            result = Result(False, "", f"internal error: {type(exc).__name__}")
        elapsed_ms = int((time.monotonic() - started) * 1000)
        with self.runtime.sessions() as session:
            self._record(session, message_id, claimed_at, result.scrubbed(secrets), elapsed_ms)

    def _prepare(self, message_id: int) -> Outgoing | None:
        settings = self.runtime.settings
        with self.runtime.sessions() as session:
            message = session.get(Message, message_id)
            if message is None:  # its destination (or run) was deleted meanwhile
                return None
            destination = session.get(Destination, message.destination_id)
            if destination is None:
                return None
            if not message.content:
                if message.workflow_run_id is not None:
                    message.content = messages.for_approval(session, message, settings.url)
                elif message.event in messages.PLAN_EVENTS:
                    message.content = messages.for_plan(session, message, settings.url)
                else:
                    message.content = messages.for_run(session, message, settings.url, utcnow())
                session.commit()
            secret = (
                keys.reveal(
                    session, self.runtime.cipher, destination.secret_key_id, destination.project_id
                )
                if destination.secret_key_id is not None
                else None
            )
            return Outgoing(
                message_id=message.id,
                kind=DestinationKind(destination.kind),
                config=dict(destination.config),
                content=dict(message.content),
                secret=secret,
                # a test is asked for on purpose: it goes to a disabled destination too
                enabled=destination.enabled or message.event == messages.TEST_EVENT,
            )

    def _send(self, out: Outgoing) -> Result:
        import httpx2  # its exceptions: loaded with the first message sent

        timeout = self.runtime.settings.notify_timeout_seconds
        guard = network.Guard.of(self.runtime.settings)  # the settings of this very send
        try:
            if out.kind is DestinationKind.EMAIL:
                password = out.secret.secret if out.secret else ""
                username = out.config.get("username") or (out.secret.username if out.secret else "")
                return mail.send(
                    out.config,
                    username,
                    password,
                    out.content,
                    message_id=out.message_id,
                    timeout=timeout,
                    guard=guard,
                )
            secret = out.secret.secret if out.secret else ""
            if out.kind is DestinationKind.WEBHOOK:
                body = posts.webhook_body(out.content)
                headers = posts.webhook_headers(
                    out.config, secret, body, event=out.content["event"], message_id=out.message_id
                )
                url = str(out.config["url"])
            else:
                body = (
                    posts.slack_body if out.kind is DestinationKind.SLACK else posts.teams_body
                )(out.content)
                headers, url = {}, secret
            return posts.post_json(url, body, headers, timeout=timeout, guard=guard)
        except network.Refused as exc:
            return Result(False, "", f"refused: {exc}")
        except httpx2.HTTPError as exc:
            return posts.failure(exc)
        except (smtplib.SMTPException, OSError) as exc:  # ssl errors and timeouts are OSErrors
            return mail.failure(exc)

    def _record(
        self,
        session: Session,
        message_id: int,
        claimed_at: dt.datetime,
        result: Result,
        elapsed_ms: int,
    ) -> None:
        settings = self.runtime.settings
        message = session.get(Message, message_id)
        if message is None:
            return
        now = utcnow()
        attempts = message.attempts + 1
        values: dict[str, Any] = {"attempts": attempts, "last_error": result.error}
        if result.ok:
            values |= {"status": MessageStatus.SENT, "sent_at": now}
        elif attempts >= settings.notify_max_attempts or result.error == DISABLED:
            values["status"] = MessageStatus.FAILED
        else:
            delay = settings.notify_backoff_seconds * 2 ** (attempts - 1)
            values |= {
                "status": MessageStatus.PENDING,
                "next_attempt_at": now + dt.timedelta(seconds=delay),
            }
        # still our claim: a late answer after a reclaim is recorded, but leaves the status be
        session.execute(
            update(Message)
            .where(
                Message.id == message_id,
                Message.status == MessageStatus.SENDING,
                Message.claimed_at == claimed_at,
            )
            .values(values)
        )
        session.add(
            Attempt(
                message_id=message_id,
                at=now,
                ok=result.ok,
                status=result.status,
                error=result.error,
                duration_ms=elapsed_ms,
            )
        )
        session.commit()
        if not result.ok:
            log.info("notification message %s: attempt %s failed", message_id, attempts)


def _secrets(out: Outgoing) -> list[str]:
    """What no error may show: the key's secret, and for an incoming-webhook URL its path
    (errors may quote only part of a URL)."""
    if out.secret is None:
        return []
    values = out.secret.secret_values()
    if out.kind in (DestinationKind.SLACK, DestinationKind.TEAMS) and values:
        with contextlib.suppress(network.Refused):  # not a URL: the whole value is masked
            values.append(network.parse_url(out.secret.secret).rest)
    return [v for v in values if len(v) > 1]


def claim_due(
    session: Session, now: dt.datetime, *, stale_after: dt.timedelta, limit: int
) -> list[tuple[int, dt.datetime]]:
    """Take up to ``limit`` messages due now (pending, or left sending by a dead process), each
    with a conditional UPDATE; the ids this call won and their claim times."""
    stale = now - stale_after
    candidates = session.execute(
        select(Message.id, Message.status, Message.claimed_at)
        .where(
            or_(
                and_(Message.status == MessageStatus.PENDING, Message.next_attempt_at <= now),
                and_(Message.status == MessageStatus.SENDING, Message.claimed_at < stale),
            )
        )
        .order_by(Message.next_attempt_at, Message.id)
        .limit(limit)
    ).all()
    won = []
    for message_id, status, claimed_at in candidates:
        seen = [Message.status == status]
        if status == MessageStatus.SENDING:  # two reclaimers: the one that saw this claim wins
            seen.append(Message.claimed_at == claimed_at)
        result = session.execute(
            update(Message)
            .where(Message.id == message_id, *seen)
            .values(status=MessageStatus.SENDING, claimed_at=now)
        )
        session.commit()
        if getattr(result, "rowcount", 0) == 1:
            won.append((message_id, now))
    return won


def _running_runs_subscriptions(*columns: Any) -> Select[Any]:
    """``columns`` of every running run with each subscription of its project that applies to
    it (``outbox.applies_to_run``): one row per run and subscription."""
    return (
        select(*columns)
        .select_from(Run)
        .join(Subscription, Subscription.project_id == Run.project_id)
        .join(Destination, Destination.id == Subscription.destination_id)
        .where(Run.status == RunStatus.RUNNING, outbox.applies_to_run())
    )


def queue_long_running(session: Session, now: dt.datetime) -> int:
    """A ``long_running`` message for every running run a subscription has waited for long
    enough, once per run and destination; how many were queued."""
    rows = session.execute(
        _running_runs_subscriptions(
            Run.id,
            Run.project_id,
            Run.started_at,
            Subscription.destination_id,
            Subscription.events,
            Subscription.long_running_minutes,
        ).where(Run.started_at.is_not(None), Subscription.long_running_minutes.is_not(None))
    ).all()
    due: dict[tuple[int, int], int] = {}  # (run, destination) -> project
    for run_id, project_id, started_at, destination_id, events, minutes in rows:
        late = started_at + dt.timedelta(minutes=minutes) <= now
        if late and RunEventKind.LONG_RUNNING in outbox.wanted(events):
            due[run_id, destination_id] = project_id
    if not due:
        return 0
    told = {
        (run_id, destination_id)
        for run_id, destination_id in session.execute(
            select(Message.run_id, Message.destination_id).where(
                Message.event == RunEventKind.LONG_RUNNING,
                Message.run_id.in_({run_id for run_id, _ in due}),
            )
        )
    }
    queued = 0
    for (run_id, destination_id), project_id in due.items():
        if (run_id, destination_id) in told:
            continue
        message = Message(
            project_id=project_id,
            destination_id=destination_id,
            run_id=run_id,
            event=RunEventKind.LONG_RUNNING,
        )
        queued += _queue_once(session, message)
    return queued


def queue_host_quiet(
    session: Session,
    now: dt.datetime,
    *,
    base_url: str,
    default_minutes: float,
    memo: quiet.Memo | None = None,
) -> int:
    """A ``host_quiet`` message for every host of a running run that has been quiet on a task
    (``runs.quiet``: no result, no loop item) for a subscription's ``host_quiet_minutes`` (else
    ``default_minutes``, the instance's), once per run, host and destination; how many were
    queued. Its content is built now: it tells the task and the quiet time found now.
    ``memo``: what the notifier's earlier passes read of the runs (``runs.quiet``)."""
    rows = session.execute(
        _running_runs_subscriptions(
            Run.id,
            Subscription.destination_id,
            Subscription.events,
            Subscription.host_quiet_minutes,
        )
    ).all()
    wants: dict[int, dict[int, float]] = {}  # run -> destination -> its shortest threshold
    for run_id, destination_id, events, minutes in rows:
        if RunEventKind.HOST_QUIET in outbox.wanted(events):
            mine = minutes if minutes is not None else default_minutes
            of_run = wants.setdefault(run_id, {})
            of_run[destination_id] = min(mine, of_run.get(destination_id, mine))
    if not wants:
        if memo is not None:
            memo.clear()
        return 0
    shortest = min(m for of_run in wants.values() for m in of_run.values())
    found = quiet.quiet_hosts(session, wants, now - dt.timedelta(minutes=shortest), memo)
    due = [
        (host, destination_id)
        for host in found
        for destination_id, minutes in wants[host.run_id].items()
        if host.heard_at + dt.timedelta(minutes=minutes) <= now
    ]
    if not due:
        return 0
    told = {
        (run_id, destination_id, host)
        for run_id, destination_id, host in session.execute(
            select(Message.run_id, Message.destination_id, Message.host).where(
                # the unique constraint's index: destination, run, event, host
                Message.destination_id.in_({d for _, d in due}),
                Message.run_id.in_({h.run_id for h, _ in due}),
                Message.event == RunEventKind.HOST_QUIET,
            )
        )
    }
    queued = 0
    for host, destination_id in due:
        if (host.run_id, destination_id, host.host) in told:
            continue
        message = Message(
            project_id=host.project_id,
            destination_id=destination_id,
            run_id=host.run_id,
            event=RunEventKind.HOST_QUIET,
            host=host.host,
        )
        message.content = messages.for_run(session, message, base_url, now, quiet=host)
        queued += _queue_once(session, message)
    return queued


def _queue_once(session: Session, message: Message) -> int:
    """Commit ``message``: 1, or 0 when another server's notifier queued it first (the unique
    constraint of what is told once)."""
    session.add(message)
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        return 0
    return 1
