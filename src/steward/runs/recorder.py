"""Turn ansible-runner events into stored rows: events, output lines, per-host recap.

ansible-runner calls ``add`` from its pexpect loop; a writer thread masks, converts and inserts
in batches (one transaction every few tens of milliseconds), so a slow database never slows the
playbook, and output shows up in the API within a fraction of a second. ``close`` drains
everything before the run's final status is written.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Table, update
from sqlalchemy.orm import Session, sessionmaker

from steward.db import utcnow
from steward.runner.masking import Masker
from steward.runs.models import Run, RunEvent, RunHost, RunOutput

log = logging.getLogger(__name__)

BATCH_SECONDS = 0.05
CHUNK_LINES = 500  # lines per stored output chunk
COMMIT_LINES = 20000  # a huge output is committed in parts of this size, so readers see it arrive
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
_STOP = object()


def _timestamp(value: Any) -> dt.datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.UTC)


def _trim(data: dict[str, Any]) -> dict[str, Any]:
    """Keep event data reasonably small: the full text is in run_output already."""
    if len(json.dumps(data, default=str)) <= MAX_DATA_BYTES:
        return data
    res = data.get("res")
    kept = {k: v for k, v in data.items() if k != "res"}
    if isinstance(res, dict):
        small = {k: v for k, v in res.items() if len(json.dumps(v, default=str)) < 4096}
        kept["res"] = {**small, "_truncated": True}
    return kept


class Recorder:
    def __init__(
        self,
        sessions: sessionmaker[Session],
        run_id: int,
        masker: Masker,
        *,
        heartbeat: Callable[[Session], None],
        heartbeat_seconds: float,
    ) -> None:
        self._sessions = sessions
        self._run_id = run_id
        self._masker = masker
        self._heartbeat = heartbeat
        self._heartbeat_seconds = heartbeat_seconds
        self._queue: queue.Queue[object] = queue.Queue()
        self._next_line = 0
        self._events = 0
        self._hosts: set[str] = set()
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._loop, name=f"recorder-{run_id}", daemon=True)
        self._thread.start()

    @property
    def line_count(self) -> int:
        return self._next_line

    def add(self, event: dict[str, Any]) -> None:
        if self._error is not None:
            raise RuntimeError("the run's output can no longer be stored") from self._error
        self._queue.put(event)

    def close(self) -> None:
        """Store everything received so far; raise if storing failed."""
        self._queue.put(_STOP)
        self._thread.join()
        if self._error is not None:
            raise RuntimeError("the run's output could not be stored") from self._error

    def _loop(self) -> None:
        last_beat = time.monotonic()
        stop = False
        while not stop:
            batch: list[dict[str, Any]] = []
            try:
                item = self._queue.get(timeout=self._heartbeat_seconds)
            except queue.Empty:
                item = None
            deadline = time.monotonic() + BATCH_SECONDS
            while item is not None:
                if item is _STOP:
                    stop = True
                    break
                if isinstance(item, dict):
                    batch.append(item)
                try:
                    item = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
                except queue.Empty:
                    item = None
            beat = time.monotonic() - last_beat >= self._heartbeat_seconds
            if batch or beat:
                try:
                    self._store(batch, beat=beat)
                except Exception as exc:
                    log.exception("storing events of run %s failed", self._run_id)
                    self._error = exc
                    return
                if beat:
                    last_beat = time.monotonic()

    def _store(self, batch: list[dict[str, Any]], *, beat: bool) -> None:
        events: list[dict[str, Any]] = []
        chunks: list[dict[str, Any]] = []
        new_hosts: list[dict[str, Any]] = []
        recap: dict[str, dict[str, int]] = {}
        for raw in batch:
            row, text = self._convert(raw)
            start = self._next_line
            if text:
                lines = text.split("\n")
                for first in range(0, len(lines), CHUNK_LINES):
                    part = lines[first : first + CHUNK_LINES]
                    chunks.append(
                        {
                            "run_id": self._run_id,
                            "first_line": start + first,
                            "last_line": start + first + len(part) - 1,
                            "counter": row["counter"],
                            "text": "\n".join(part),
                        }
                    )
                self._next_line = start + len(lines)
            row["start_line"], row["end_line"] = start, self._next_line
            events.append(row)
            host = row["host"]
            if host and host not in self._hosts:
                self._hosts.add(host)
                new_hosts.append({"run_id": self._run_id, "host": host})
            if raw.get("event") == "playbook_on_stats":
                recap = self._recap(raw.get("event_data", {}))
        self._events += len(events)
        # Core inserts (executemany), not ORM bulk inserts: 2-3x less CPU on big outputs.
        with self._sessions() as session:
            if events:
                session.execute(EVENTS.insert(), events)
            part_start = 0
            for i, chunk in enumerate(chunks):
                stored = chunk["last_line"] + 1
                part_lines = stored - chunks[part_start]["first_line"]
                if part_lines >= COMMIT_LINES or i == len(chunks) - 1:
                    session.execute(OUTPUT.insert(), chunks[part_start : i + 1])
                    part_start = i + 1
                    if stored < self._next_line:
                        self._progress(session, stored)
                        session.commit()
            if new_hosts:
                session.execute(HOSTS.insert(), new_hosts)
            for host, counts in recap.items():
                if host not in self._hosts:
                    self._hosts.add(host)
                    session.execute(HOSTS.insert(), [{"run_id": self._run_id, "host": host}])
                session.execute(
                    update(RunHost)
                    .where(RunHost.run_id == self._run_id, RunHost.host == host)
                    .values(**counts)
                )
            self._progress(session, self._next_line)
            if beat:
                self._heartbeat(session)
            session.commit()

    def _progress(self, session: Session, lines: int) -> None:
        # a Core update: the ORM's costs 3x more CPU, and this runs on every batch
        session.execute(
            RUNS.update()
            .where(RUNS.c.id == self._run_id)
            .values(line_count=lines, event_count=self._events)
        )

    def _convert(self, raw: dict[str, Any]) -> tuple[dict[str, Any], str]:
        data = self._masker.data(raw.get("event_data") or {})
        kind = str(raw.get("event", ""))
        # the pseudo-terminal ansible-runner reads through turns every "\n" into "\r\n"
        text = self._masker.text(str(raw.get("stdout") or "").replace("\r\n", "\n"))
        res = data.get("res") if isinstance(data.get("res"), dict) else {}
        row = {
            "run_id": self._run_id,
            "counter": int(raw.get("counter", self._events + 1)),
            "event": kind[:64],
            "uuid": str(raw.get("uuid", ""))[:36],
            "parent_uuid": str(raw.get("parent_uuid", ""))[:36],
            "host": str(data.get("host") or "")[:255],
            "play": str(data.get("play") or "")[:500],
            "task": str(data.get("task") or "")[:500],
            "task_action": str(data.get("task_action") or "")[:200],
            "role": str(data.get("role") or "")[:200],
            "changed": bool(res.get("changed")) if kind.startswith("runner_on") else False,
            "failed": kind in FAILED_EVENTS and not data.get("ignore_errors"),
            "created_at": _timestamp(raw.get("created")) or utcnow(),
            "started_at": _timestamp(data.get("start")),
            "ended_at": _timestamp(data.get("end")),
            "duration": data.get("duration")
            if isinstance(data.get("duration"), int | float)
            else None,
            "data": _trim(data),
        }
        return row, text

    @staticmethod
    def _recap(data: dict[str, Any]) -> dict[str, dict[str, int]]:
        per_host: dict[str, dict[str, int]] = {}
        for source, column in RECAP_FIELDS.items():
            for host, count in (data.get(source) or {}).items():
                per_host.setdefault(str(host), {})[column] = int(count)
        return per_host
