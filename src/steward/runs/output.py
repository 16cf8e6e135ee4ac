"""A run's recorded output: pages of lines and events, recap, timeline, text, live stream."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator

import anyio
from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session, sessionmaker

from steward.runs.models import Run, RunEvent, RunHost, RunLine
from steward.runs.schemas import EventFilters, LineFilters, TimelineEntry
from steward.runs.status import RunStatus

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
FAILED_KINDS = ("runner_on_failed", "runner_on_unreachable", "runner_item_on_failed")
RESULT_STATUS = {
    "runner_on_ok": "ok",
    "runner_on_failed": "failed",
    "runner_on_unreachable": "unreachable",
    "runner_on_skipped": "skipped",
}
STREAM_BATCH = 2000
STREAM_POLL_SECONDS = 0.1


def _like(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def lines(session: Session, run: Run, filters: LineFilters) -> list[tuple[int, int, str]]:
    """(line_no, counter, text) rows: plain tuples, since a page holds up to 10,000 of them."""
    conditions: list[ColumnElement[bool]] = [
        RunLine.run_id == run.id,
        RunLine.line_no > filters.after,
    ]
    if filters.q:
        conditions.append(RunLine.text.ilike(_like(filters.q), escape="\\"))
    if filters.host or filters.failed:
        event_match = [RunEvent.run_id == run.id, RunEvent.counter == RunLine.counter]
        if filters.host:
            event_match.append(RunEvent.host == filters.host)
        if filters.failed:
            event_match.append(RunEvent.failed.is_(True))
        conditions.append(select(RunEvent.id).where(*event_match).exists())
    query = (
        select(RunLine.line_no, RunLine.counter, RunLine.text)
        .where(*conditions)
        .order_by(RunLine.line_no)
        .limit(filters.limit)
    )
    return [(n, c, t) for n, c, t in session.execute(query)]


def events(session: Session, run: Run, filters: EventFilters) -> list[RunEvent]:
    conditions: list[ColumnElement[bool]] = [
        RunEvent.run_id == run.id,
        RunEvent.counter > filters.after,
    ]
    if filters.host:
        conditions.append(RunEvent.host == filters.host)
    if filters.event:
        conditions.append(RunEvent.event == filters.event)
    if filters.failed is not None:
        conditions.append(RunEvent.failed.is_(filters.failed))
    if filters.changed is not None:
        conditions.append(RunEvent.changed.is_(filters.changed))
    if filters.q:
        pattern = _like(filters.q)
        conditions.append(
            RunEvent.task.ilike(pattern, escape="\\") | RunEvent.host.ilike(pattern, escape="\\")
        )
    query = select(RunEvent).where(*conditions).order_by(RunEvent.counter).limit(filters.limit)
    return list(session.scalars(query))


def hosts(session: Session, run: Run) -> list[RunHost]:
    """Per-host recap, hosts with failures first."""
    query = select(RunHost).where(RunHost.run_id == run.id)
    rows = list(session.scalars(query))
    return sorted(rows, key=lambda h: (-(h.failed + h.unreachable), h.host))


def timeline(session: Session, run: Run) -> list[TimelineEntry]:
    """One entry per host and task result, in order: where the time went."""
    query = (
        select(RunEvent)
        .where(RunEvent.run_id == run.id, RunEvent.event.in_(list(RESULT_STATUS)))
        .order_by(RunEvent.counter)
    )
    return [
        TimelineEntry(
            host=e.host,
            task=e.task,
            play=e.play,
            task_action=e.task_action,
            status="changed" if e.changed and e.event == "runner_on_ok" else RESULT_STATUS[e.event],
            started_at=e.started_at,
            ended_at=e.ended_at,
            duration=e.duration,
            counter=e.counter,
        )
        for e in session.scalars(query)
    ]


def text(sessions: sessionmaker[Session], run_id: int, *, strip_ansi: bool) -> Iterator[bytes]:
    """The whole output as text, fetched in chunks so memory stays flat for huge runs."""
    after = -1
    while True:
        with sessions() as session:
            chunk = session.execute(
                select(RunLine.line_no, RunLine.text)
                .where(RunLine.run_id == run_id, RunLine.line_no > after)
                .order_by(RunLine.line_no)
                .limit(STREAM_BATCH * 5)
            ).all()
        if not chunk:
            return
        body = "\n".join(ANSI.sub("", t) if strip_ansi else t for _, t in chunk) + "\n"
        yield body.encode()
        after = chunk[-1][0]


def _sse(event: str, data: object, event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, default=str)}\n\n".encode()


def _poll(
    sessions: sessionmaker[Session], run_id: int, after: int
) -> tuple[list[tuple[int, int, str]], RunStatus, int]:
    with sessions() as session:
        rows = session.execute(
            select(RunLine.line_no, RunLine.counter, RunLine.text)
            .where(RunLine.run_id == run_id, RunLine.line_no > after)
            .order_by(RunLine.line_no)
            .limit(STREAM_BATCH)
        ).all()
        status, line_count = session.execute(
            select(Run.status, Run.line_count).where(Run.id == run_id)
        ).one()
    return list(rows), RunStatus(status), int(line_count)


async def stream(
    sessions: sessionmaker[Session], run_id: int, after: int, *, heartbeat: float = 15.0
) -> AsyncIterator[bytes]:
    """Server-Sent Events: ``lines`` batches (id = last line_no, so a reconnect with
    Last-Event-ID resumes exactly), ``status`` on every change, ``end`` once all is sent."""
    last_status: RunStatus | None = None
    idle = 0.0
    yield b"retry: 1000\n\n"
    while True:
        rows, status, line_count = await anyio.to_thread.run_sync(_poll, sessions, run_id, after)
        if rows:
            after = rows[-1][0]
            payload = {"first": rows[0][0], "lines": [{"n": n, "c": c, "t": t} for n, c, t in rows]}
            yield _sse("lines", payload, after)
            idle = 0.0
        if status != last_status:
            last_status = status
            yield _sse("status", {"status": status, "line_count": line_count}, after)
        if status.is_finished and after >= line_count - 1 and not rows:
            yield _sse("end", {"status": status, "line_count": line_count}, after)
            return
        if not rows:
            await anyio.sleep(STREAM_POLL_SECONDS)
            idle += STREAM_POLL_SECONDS
            if idle >= heartbeat:
                idle = 0.0
                yield b": keep-alive\n\n"
