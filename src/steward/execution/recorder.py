"""Turn the playbook process's events into stored rows: events, output lines, per-host recap.

Two layers:

- pure functions (``event_row``, ``output_chunks``, ``recap_rows``, ``batch_rows``,
  ``commit_parts``, ``Lease``): an event (or a batch of them) and the numbering so far in, the
  row dicts to insert out. No database, no thread, no clock: unit-tested on their own.
- ``Recorder``, a thin shell over them: the executor calls ``add`` from its reading loop; a
  writer thread collects events for a few tens of milliseconds, turns the batch into rows and
  inserts them with Core ``executemany`` in one transaction, so a slow database never slows the
  playbook and output shows up in the API within a fraction of a second. Renewing the run's
  lease is a step of its own (``renew_lease_if_due``). ``close`` drains everything before the
  run's final status is written.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence, Set
from typing import Any, cast

from sqlalchemy import Table, bindparam, func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from steward.bounds import FACTS_MAX_BYTES
from steward.db import utcnow
from steward.hosts import facts as host_facts
from steward.hosts import seen
from steward.masking import Masker
from steward.runs.bell import BELL
from steward.runs.models import Run, RunEvent, RunHost, RunOutput

log = logging.getLogger(__name__)

# Events are stored in batches, one transaction each. The first event after a quiet spell is
# stored within BATCH_SECONDS (a watcher sees it at once); while events keep coming, batches are
# at least BUSY_BATCH_SECONDS apart: each transaction costs the server CPU beside ansible, and
# the live stream reads no more often than that anyway.
BATCH_SECONDS = 0.05
BUSY_BATCH_SECONDS = 0.25
BATCH_EVENTS = 2000  # at most this many events a transaction: a backlog is stored in steps
RETRY_PAUSE_SECONDS = 0.5  # between attempts to store a batch while the database is away
CHUNK_CHARS = 16 * 1024  # characters per stored output chunk, about: whole lines
COMMIT_LINES = 100_000  # a huge output is committed in parts of this size, so readers see it arrive
RUNS = cast(Table, Run.__table__)
EVENTS = cast(Table, RunEvent.__table__)
OUTPUT = cast(Table, RunOutput.__table__)
HOSTS = cast(Table, RunHost.__table__)
MAX_DATA_BYTES = 64 * 1024
RECAP_FIELDS = {
    "ok": "ok",
    "changed": "changed",
    "failures": "failed",
    "dark": "unreachable",
    "skipped": "skipped",
    "rescued": "rescued",
    "ignored": "ignored",
}
FAILED_EVENTS = {"runner_on_failed", "runner_on_unreachable", "runner_item_on_failed"}
STATS_EVENT = "playbook_on_stats"
# Steward's own event closing a run's install phase (execution/requirements.py); failed or not
REQUIREMENTS_EVENT = "steward_requirements"
_STOP = object()

Row = dict[str, Any]


# ---- pure: events in, rows out ---------------------------------------------------------------


def _timestamp(value: Any) -> dt.datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def _trim(data: dict[str, Any], size: int | None = None) -> dict[str, Any]:
    """Keep event data reasonably small: the full text is in run_output already (the callback
    plugin trims results the same way already). ``size``: the length of its JSON (or more)
    when known."""
    if (size if size is not None else len(json.dumps(data, default=str))) <= MAX_DATA_BYTES:
        return data
    res = data.get("res")
    kept = {k: v for k, v in data.items() if k != "res"}
    if isinstance(res, dict):
        small = {k: v for k, v in res.items() if len(json.dumps(v, default=str)) < 4096}
        kept["res"] = {**small, "_truncated": True}
    return kept


def _masked(data: dict[str, Any], masker: Masker) -> tuple[dict[str, Any], int | None]:
    """``data`` masked, and the length of its JSON when that is known.

    Most events hold no secret: their JSON (where every string, keys included, appears with
    JSON escapes, one of the forms the masker looks for) is searched once, instead of walking
    every string of the event; only an event where a secret shows is walked and masked."""
    if not masker:
        return data, None
    dumped = json.dumps(data, default=str)
    if masker.text(dumped) == dumped:
        return data, len(dumped)
    return masker.data(data), None


def event_row(
    run_id: int, raw: dict[str, Any], masker: Masker, *, default_counter: int
) -> tuple[Row, str]:
    """The ``run_events`` row of one event (without its line range) and its
    stdout, both masked; "\\r\\n" (the pseudo-terminal's) back to "\\n"."""
    data, size = _masked(raw.get("event_data") or {}, masker)
    if size is None:
        size = raw.get("json_bytes")  # the executor's: its event's JSON as received, at most
    kind = str(raw.get("event", ""))
    text = masker.text(str(raw.get("stdout") or "").replace("\r\n", "\n"))
    found = data.get("res")
    res: dict[str, Any] = found if isinstance(found, dict) else {}
    duration = data.get("duration")
    row = {
        "run_id": run_id,
        "counter": int(raw.get("counter", default_counter)),
        "event": kind[:64],
        "uuid": str(raw.get("uuid", ""))[:36],
        "parent_uuid": str(raw.get("parent_uuid", ""))[:36],
        "host": str(data.get("host") or "")[:255],
        "play": str(data.get("play") or "")[:500],
        "task": str(data.get("task") or "")[:500],
        "task_action": str(data.get("task_action") or "")[:200],
        "role": str(data.get("role") or "")[:200],
        "changed": bool(res.get("changed")) if kind.startswith("runner_on") else False,
        "failed": (kind in FAILED_EVENTS and not data.get("ignore_errors"))
        or (kind == REQUIREMENTS_EVENT and bool(data.get("failed"))),
        "created_at": _timestamp(raw.get("created")) or utcnow(),
        "started_at": _timestamp(data.get("start")),
        "ended_at": _timestamp(data.get("end")),
        "duration": duration if isinstance(duration, int | float) else None,
        "data": _trim(data, size),
    }
    return row, text


def output_chunks(run_id: int, counter: int, first_line: int, text: str) -> list[Row]:
    """The ``run_output`` rows of one event's stdout, its lines numbered from ``first_line``:
    whole lines, about ``CHUNK_CHARS`` a row (a longer line is a row of its own); none for an
    empty stdout. Cut and counted by ``str.rfind``/``str.count``: a million lines take
    milliseconds, where splitting them into a million strings took a tenth of a second."""
    if not text:
        return []
    chunks = []
    start, size, first = 0, len(text), first_line
    while True:
        if size - start <= CHUNK_CHARS:
            end = size
        else:
            end = text.rfind("\n", start, start + CHUNK_CHARS)
            if end < 0:  # a line longer than a chunk
                end = text.find("\n", start + CHUNK_CHARS)
                end = size if end < 0 else end
        last = first + text.count("\n", start, end)
        chunks.append(
            {
                "run_id": run_id,
                "first_line": first,
                "last_line": last,
                "counter": counter,
                "text": text[start:end],
            }
        )
        if end == size:
            return chunks
        start, first = end + 1, last + 1


def recap_rows(stats: dict[str, Any]) -> list[Row]:
    """Per-host counts of a ``playbook_on_stats`` event's data, one row per host (sorted), every
    count present: a host missing from a category of Ansible's stats has 0 of it."""
    per_host: dict[str, Row] = {}
    for source, column in RECAP_FIELDS.items():
        for host, count in (stats.get(source) or {}).items():
            name = str(host)
            row = per_host.get(name)
            if row is None:
                row = per_host[name] = {"host": name, **dict.fromkeys(RECAP_FIELDS.values(), 0)}
            row[column] = int(count)
    return [per_host[host] for host in sorted(per_host)]


@dataclasses.dataclass(frozen=True, slots=True)
class Numbering:
    """How far a run's recording has got: the next line number and the events so far."""

    next_line: int = 0
    events: int = 0


@dataclasses.dataclass(frozen=True, slots=True)
class BatchRows:
    """Everything one batch of events stores, and the numbering after it."""

    events: list[Row]
    chunks: list[Row]
    new_hosts: list[Row]  # run_hosts rows of hosts not known before this batch
    recap: list[Row]  # counts to set per host, from the batch's last playbook_on_stats
    numbering: Numbering
    facts: list[host_facts.Gathered] = dataclasses.field(default_factory=list)


def batch_rows(
    run_id: int,
    batch: Sequence[dict[str, Any]],
    masker: Masker,
    numbering: Numbering,
    known_hosts: Set[str],
) -> BatchRows:
    """The rows of a batch of events, numbered on from ``numbering``. Each event's lines follow
    the previous event's; ``known_hosts`` (not changed) are the hosts already stored."""
    events: list[Row] = []
    chunks: list[Row] = []
    new_hosts: list[Row] = []
    seen: set[str] = set()
    recap: list[Row] = []
    facts: list[host_facts.Gathered] = []
    next_line, count = numbering.next_line, numbering.events
    for raw in batch:
        count += 1
        gathered, raw = _facts(raw, masker)
        row, text = event_row(run_id, raw, masker, default_counter=count)
        if gathered is not None and row["host"]:
            facts.append(host_facts.Gathered(row["host"], *gathered))
        stored = output_chunks(run_id, row["counter"], next_line, text)
        chunks += stored
        row["start_line"] = next_line
        next_line = stored[-1]["last_line"] + 1 if stored else next_line
        row["end_line"] = next_line
        events.append(row)
        host = row["host"]
        if host and host not in known_hosts and host not in seen:
            seen.add(host)
            new_hosts.append({"run_id": run_id, "host": host})
        if raw.get("event") == STATS_EVENT:
            recap = recap_rows(raw.get("event_data") or {})
    for counts in recap:
        host = counts["host"]
        if host not in known_hosts and host not in seen:
            seen.add(host)
            new_hosts.append({"run_id": run_id, "host": host})
    return BatchRows(events, chunks, new_hosts, recap, Numbering(next_line, count), facts)


def _facts(
    raw: dict[str, Any], masker: Masker
) -> tuple[tuple[dict[str, Any], list[str]] | None, dict[str, Any]]:
    """The facts the callback sent beside an event (``facts``: masked, and the names it left
    out), and the event without them (its ``json_bytes`` less theirs)."""
    if "facts" not in raw:
        return None, raw
    found = raw.get("facts")
    rest = {k: v for k, v in raw.items() if k not in ("facts", "facts_bytes", "facts_dropped")}
    if isinstance(rest.get("json_bytes"), int):
        rest["json_bytes"] = max(0, rest["json_bytes"] - int(raw.get("facts_bytes") or 0))
    if not isinstance(found, dict):
        return None, rest
    dropped = raw.get("facts_dropped")
    names = [str(d) for d in dropped] if isinstance(dropped, list) else []
    return (masker.data(found) if masker else found, masker.data(names)), rest


def commit_parts(chunks: Sequence[Row], max_lines: int) -> list[list[Row]]:
    """``chunks`` in consecutive parts of at least ``max_lines`` lines (the last may be shorter),
    each committed on its own so readers see a huge output arrive."""
    parts: list[list[Row]] = []
    start = 0
    for i, chunk in enumerate(chunks):
        lines = chunk["last_line"] + 1 - chunks[start]["first_line"]
        if lines >= max_lines or i == len(chunks) - 1:
            parts.append(list(chunks[start : i + 1]))
            start = i + 1
    return parts


def batch_deadline(first_at: float, stored_at: float) -> float:
    """When a batch whose first event came at ``first_at`` is stored, the last batch having
    been stored at ``stored_at`` (monotonic seconds)."""
    return max(first_at + BATCH_SECONDS, stored_at + BUSY_BATCH_SECONDS)


class Lease:
    """When a running run's lease (``heartbeat_at``) is due for renewal; times are monotonic
    seconds given by the caller."""

    def __init__(self, every: float, renewed_at: float) -> None:
        self.every = every
        self.renewed_at = renewed_at

    def due(self, now: float) -> bool:
        return now - self.renewed_at >= self.every

    def wait(self, now: float) -> float:
        """Seconds until the next renewal is due (0 if it is)."""
        return max(0.0, self.renewed_at + self.every - now)

    def renewed(self, now: float) -> None:
        self.renewed_at = now


# ---- the shell: a thread, batches, the database ----------------------------------------------

# Core executemany, not ORM bulk operations: 2-3x less CPU on big outputs, and this is the hot
# path. The counts of each parameter set are what this update sets.
_SET_RECAP = HOSTS.update().where(
    HOSTS.c.run_id == bindparam("b_run_id"), HOSTS.c.host == bindparam("b_host")
)


def _counts(recap: Row) -> Row:
    return {column: recap[column] for column in RECAP_FIELDS.values()}


class Recorder:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        run_id: int,
        masker: Masker,
        *,
        heartbeat: Callable[[Session], None],
        heartbeat_seconds: float,
        retry_seconds: float = 60.0,
        facts_max_bytes: int = FACTS_MAX_BYTES,
    ) -> None:
        self._sessions = sessions
        self._facts_max_bytes = facts_max_bytes
        self._retry_seconds = retry_seconds
        self._run_id = run_id
        self._masker = masker
        self._heartbeat = heartbeat
        self._lease = Lease(heartbeat_seconds, time.monotonic())
        self._queue: queue.Queue[object] = queue.Queue()
        self._numbering = Numbering()
        self._hosts: set[str] = set()
        self._error: BaseException | None = None
        self._closing = threading.Event()  # set by close: no more waiting for a batch to fill
        self._stored_at = -BUSY_BATCH_SECONDS  # monotonic time the last batch was stored
        self._thread = threading.Thread(target=self._loop, name=f"recorder-{run_id}", daemon=True)
        self._thread.start()

    @property
    def line_count(self) -> int:
        return self._numbering.next_line

    def add(self, event: dict[str, Any]) -> None:
        if self._error is not None:
            raise RuntimeError("the run's output can no longer be stored") from self._error
        self._queue.put(event)

    def close(self) -> None:
        """Store everything received so far; raise if storing failed."""
        self._queue.put(_STOP)
        self._closing.set()
        self._thread.join()
        if self._error is not None:
            raise RuntimeError("the run's output could not be stored") from self._error

    def renew_lease_if_due(self, now: float) -> bool:
        """Renew the run's lease (its own small transaction) if ``heartbeat_seconds`` have passed
        since the last renewal; whether it did."""
        if not self._lease.due(now):
            return False
        with self._sessions() as session:
            self._heartbeat(session)
            session.commit()
        self._lease.renewed(now)
        return True

    def _loop(self) -> None:
        stop = False
        while not stop:
            batch, stop = self._collect(first_wait=self._lease.wait(time.monotonic()))
            try:
                if batch:
                    self._store_retrying(batch)
                    self._stored_at = time.monotonic()
                self._renew_unless_away()
            except Exception as exc:
                log.exception("storing events of run %s failed", self._run_id)
                self._error = exc
                return

    def _renew_unless_away(self) -> None:
        try:
            self.renew_lease_if_due(time.monotonic())
        except OperationalError:
            log.warning("run %s: the database is away; the lease is renewed later", self._run_id)

    def _store_retrying(self, batch: list[dict[str, Any]]) -> None:
        """Store ``batch``; while the database is away (a restart, a failover) try again for up
        to ``retry_seconds``, storing only what the failed attempt had not committed."""
        deadline = time.monotonic() + self._retry_seconds
        retry = False
        while True:
            try:
                self._store(batch, retry=retry)
                return
            except OperationalError:
                if time.monotonic() >= deadline:
                    raise
                log.warning("run %s: the database is away; storing output again", self._run_id)
                time.sleep(RETRY_PAUSE_SECONDS)
                retry = True

    def _collect(self, first_wait: float) -> tuple[list[dict[str, Any]], bool]:
        """The events received within ``BATCH_SECONDS`` of the first one (waited for up to
        ``first_wait``) and not before ``BUSY_BATCH_SECONDS`` after the last batch was stored,
        at most ``BATCH_EVENTS``, and whether ``close`` was called. Between the first event and
        the deadline the thread sleeps (``close`` wakes it) rather than waking for each event."""
        batch: list[dict[str, Any]] = []
        try:
            item = self._queue.get(timeout=first_wait)
        except queue.Empty:
            return batch, False
        self._closing.wait(batch_deadline(time.monotonic(), self._stored_at) - time.monotonic())
        while True:
            if item is _STOP:
                return batch, True
            if isinstance(item, dict):
                batch.append(item)
                if len(batch) >= BATCH_EVENTS:
                    return batch, False
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return batch, False

    def _store(self, batch: list[dict[str, Any]], *, retry: bool = False) -> None:
        rows = batch_rows(self._run_id, batch, self._masker, self._numbering, self._hosts)
        numbering = rows.numbering
        with self._sessions() as session:
            if retry:
                rows = self._not_stored(session, rows)
            if rows.events:
                session.execute(EVENTS.insert(), rows.events)
            parts = commit_parts(rows.chunks, COMMIT_LINES)
            for i, part in enumerate(parts):
                session.execute(OUTPUT.insert(), part)
                if i < len(parts) - 1:  # more to come: let readers see this much already
                    self._progress(session, Numbering(part[-1]["last_line"] + 1, numbering.events))
                    session.commit()
                    BELL.ring(self._run_id)
            if rows.new_hosts:
                session.execute(HOSTS.insert(), rows.new_hosts)
            if rows.recap:
                session.execute(
                    _SET_RECAP,
                    [
                        {"b_run_id": self._run_id, "b_host": r["host"], **_counts(r)}
                        for r in rows.recap
                    ],
                )
                seen.record(session, self._run_id, rows.recap, at=utcnow())
            if rows.facts:
                self._keep_facts(session, rows.facts)
            self._progress(session, numbering)
            session.commit()
        BELL.ring(self._run_id)
        self._numbering = numbering
        self._hosts.update(h["host"] for h in rows.new_hosts)

    def _keep_facts(self, session: Session, found: list[host_facts.Gathered]) -> None:
        """The batch's facts kept in a savepoint: facts that cannot be kept are logged, never
        a reason to lose the run's output (a database away is: the batch is stored again)."""
        try:
            with session.begin_nested():
                host_facts.record(
                    session, self._run_id, found, at=utcnow(), limit=self._facts_max_bytes
                )
        except OperationalError:
            raise
        except Exception:
            log.exception("run %s: the facts of a batch could not be kept", self._run_id)

    def _not_stored(self, session: Session, rows: BatchRows) -> BatchRows:
        """``rows`` less what an attempt that failed midway had committed (its first parts)."""
        run_id = self._run_id
        counter = session.scalar(
            select(func.max(EVENTS.c.counter)).where(EVENTS.c.run_id == run_id)
        )
        last = session.scalar(select(func.max(OUTPUT.c.last_line)).where(OUTPUT.c.run_id == run_id))
        hosts = set(session.scalars(select(HOSTS.c.host).where(HOSTS.c.run_id == run_id)))
        return dataclasses.replace(
            rows,
            events=[e for e in rows.events if counter is None or e["counter"] > counter],
            chunks=[c for c in rows.chunks if last is None or c["last_line"] > last],
            new_hosts=[h for h in rows.new_hosts if h["host"] not in hosts],
        )

    def _progress(self, session: Session, numbering: Numbering) -> None:
        # a Core update: the ORM's costs 3x more CPU, and this runs on every batch
        session.execute(
            RUNS.update()
            .where(RUNS.c.id == self._run_id)
            .values(line_count=numbering.next_line, event_count=numbering.events)
        )
