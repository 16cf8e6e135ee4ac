"""The audit streamer: a background service of ``steward serve`` sending the audit stream's
outbox (``audit.stream``) to each configured sink (``audit.sinks``).

One ticker per sink (a sink that hangs until its timeout never holds the other back). Every
``audit_stream_tick_seconds`` it claims a batch of ``audit_stream_batch`` records, sends it with
no transaction open and settles it; a full batch is followed by the next at once, so a backlog
drains at the receiver's pace, not one batch a tick. Several servers stream at once: each
claims other rows.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import logging

from steward.audit import sinks, stream
from steward.db import utcnow
from steward.runtime import Runtime
from steward.ticker import Ticker

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class Pass:
    claimed: int
    sent: int
    error: str = ""


class Streamer:
    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        settings = runtime.settings
        self.sinks = sinks.configured(settings)
        self.backoff = stream.Backoff(
            settings.audit_stream_backoff_seconds, settings.audit_stream_backoff_max_seconds
        )
        # a batch's sending is bounded by the timeout (connect, TLS, each write and read); a
        # claim older than this belongs to a process that is gone
        self.lease = dt.timedelta(seconds=3 * settings.audit_stream_timeout_seconds)
        self._tickers = {
            sink.name: Ticker(
                f"audit-stream-{sink.name}",
                functools.partial(self.drain, sink),
                lambda: settings.audit_stream_tick_seconds,
            )
            for sink in self.sinks
        }

    def start(self) -> None:
        if not self.sinks:
            return
        with self.runtime.sessions() as session:
            stream.ensure_sinks(session, [sink.name for sink in self.sinks])
        for ticker in self._tickers.values():
            ticker.start()
        log.info("audit stream: to %s", ", ".join(f"{s.kind} {s.target}" for s in self.sinks))

    def stop(self) -> None:
        for ticker in self._tickers.values():
            ticker.stopping.set()
        for ticker in self._tickers.values():
            ticker.stop()

    def drain(self, sink: sinks.Sink) -> int:
        """Batches while they come full and the sink accepts them; how many records were sent."""
        stopping = self._tickers[sink.name].stopping
        sent = 0
        batch = self.runtime.settings.audit_stream_batch
        while not stopping.is_set():
            done = self.send_batch(sink)
            sent += done.sent
            if done.error or done.claimed < batch:
                break
        return sent

    def send_batch(self, sink: sinks.Sink) -> Pass:
        """Claim, send and settle one batch of ``sink``."""
        settings = self.runtime.settings
        with self.runtime.sessions() as session:
            claimed = stream.claim(
                session, sink.name, utcnow(), limit=settings.audit_stream_batch, lease=self.lease
            )
            if claimed is None:
                return Pass(0, 0)
            records = stream.events(session, claimed.event_ids)
        try:
            outcome = sink.send(records) if records else stream.Outcome()
        except Exception as exc:
            log.exception("audit stream: a batch for %s could not be sent", sink.name)
            outcome = stream.Outcome.failed(f"internal error: {type(exc).__name__}")
        with self.runtime.sessions() as session:
            stream.settle(session, claimed, outcome, utcnow(), self.backoff)
        if outcome.error:
            log.warning("audit stream: %s failed: %s", sink.name, outcome.error)
        elif outcome.refused:
            log.warning("audit stream: %s refused %d records", sink.name, len(outcome.refused))
        return Pass(len(claimed.event_ids), len(outcome.sent), outcome.error)
