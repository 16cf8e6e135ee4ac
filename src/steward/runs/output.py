"""A run's recorded output: pages of lines and events, recap, timeline, text, live stream."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Iterator, Sequence
from typing import Any

import anyio
from sqlalchemy import ColumnElement, and_, or_, select
from sqlalchemy.orm import QueryableAttribute, Session, aliased, sessionmaker

from steward.ansi import ANSI
from steward.db import icontains
from steward.execution.recorder import REQUIREMENTS_EVENT, STATS_EVENT
from steward.runs.bell import BELL
from steward.runs.models import Run, RunEvent, RunHost, RunOutput
from steward.runs.schemas import (
    EventFilters,
    HostParams,
    HostRecap,
    LineFilters,
    TimelineEntry,
    TimelineParams,
)
from steward.runs.status import RunStatus

FAILED_KINDS = ("runner_on_failed", "runner_on_unreachable", "runner_item_on_failed")
RESULT_STATUS = {
    "runner_on_ok": "ok",
    "runner_on_failed": "failed",
    "runner_on_unreachable": "unreachable",
    "runner_on_skipped": "skipped",
}
TASK_HEADERS = ("playbook_on_task_start", "playbook_on_handler_task_start")
PLAY_HEADER = "playbook_on_play_start"
STREAM_BATCH = 2000  # lines per live-stream message
FETCH_CHUNKS = 200  # stored chunks read per query (each about 16 KiB of whole lines)
# a stream reads at most this often while lines flow: the first line after a quiet spell is sent
# as soon as the bell rings, what follows within this interval comes in the next message
STREAM_INTERVAL_SECONDS = 0.25
# how long a stream waits for the bell before reading anyway (a change it cannot hear of)
STREAM_QUIET_SECONDS = 1.0


def _read(
    session: Session,
    run_id: int,
    after: int,
    limit: int,
    *,
    q: str | None = None,
    conditions: Sequence[ColumnElement[bool]] = (),
) -> list[tuple[int, int, str]]:
    """Up to ``limit`` (line_no, counter, text) after line ``after``, cut out of the stored
    chunks; with ``q``, only lines containing it (case-insensitive, like ILIKE)."""
    needle = q.lower() if q else None
    where = [RunOutput.run_id == run_id, *conditions]
    if q:
        where.append(icontains(RunOutput.text, q))
    found: list[tuple[int, int, str]] = []
    while len(found) < limit:
        query = select(
            RunOutput.first_line, RunOutput.last_line, RunOutput.counter, RunOutput.text
        ).where(*where, RunOutput.last_line > after)
        if needle is None and not conditions:
            # every line counts: exactly the chunks covering the page
            query = query.where(RunOutput.first_line <= after + limit - len(found))
        rows = session.execute(query.order_by(RunOutput.last_line).limit(FETCH_CHUNKS)).all()
        for first, _last, counter, text in rows:
            for n, line in enumerate(text.split("\n"), start=first):
                if n > after and (needle is None or needle in line.lower()):
                    found.append((n, counter, line))
                    if len(found) == limit:
                        return found
        if len(rows) < FETCH_CHUNKS:
            return found
        after = rows[-1][1]
    return found


def lines(session: Session, run: Run, filters: LineFilters) -> list[tuple[int, int, str]]:
    """(line_no, counter, text) rows: plain tuples, since a page holds up to 10,000 of them.

    Filtered by host or failure, the lines of the matching results come with the headers of
    their tasks and plays ("TASK [x] ***"), so that each result still says what it was."""
    conditions: list[ColumnElement[bool]] = []
    if filters.host or filters.failed:
        matching: list[ColumnElement[bool]] = [RunEvent.run_id == run.id]
        if filters.host:
            matching.append(RunEvent.host == filters.host)
        if filters.failed:
            matching.append(RunEvent.failed.is_(True))
        header = aliased(RunEvent)
        # a result's parent is its task; a task's parent is its play
        tasks = select(RunEvent.parent_uuid).where(*matching).scalar_subquery()
        plays = (
            select(header.parent_uuid)
            .where(header.run_id == run.id, header.event.in_(TASK_HEADERS), header.uuid.in_(tasks))
            .scalar_subquery()
        )
        is_header = or_(
            and_(RunEvent.event.in_(TASK_HEADERS), RunEvent.uuid.in_(tasks)),
            and_(RunEvent.event == PLAY_HEADER, RunEvent.uuid.in_(plays)),
        )
        event_match = [
            RunEvent.run_id == run.id,
            RunEvent.counter == RunOutput.counter,
            or_(and_(*matching[1:]), is_header),
        ]
        conditions.append(select(RunEvent.id).where(*event_match).exists())
    return _read(session, run.id, filters.after, filters.limit, q=filters.q, conditions=conditions)


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
        conditions.append(icontains(RunEvent.task, filters.q) | icontains(RunEvent.host, filters.q))
    query = select(RunEvent).where(*conditions).order_by(RunEvent.counter).limit(filters.limit)
    return list(session.scalars(query))


HOST_COLUMNS = (
    RunHost.host,
    RunHost.ok,
    RunHost.changed,
    RunHost.failed,
    RunHost.unreachable,
    RunHost.skipped,
    RunHost.rescued,
    RunHost.ignored,
)
TIMELINE_COLUMNS = (
    RunEvent.counter,
    RunEvent.event,
    RunEvent.changed,
    RunEvent.host,
    RunEvent.task,
    RunEvent.play,
    RunEvent.task_action,
    RunEvent.failed,
    RunEvent.started_at,
    RunEvent.ended_at,
    RunEvent.duration,
)


def _bytewise(session: Session, column: QueryableAttribute[str]) -> ColumnElement[str]:
    """``column`` ordered by code point on every database, as SQLite's default collation does
    (PostgreSQL's database collation would order "web-10"/"Web1" differently)."""
    expression = column.expression
    postgresql = session.get_bind().dialect.name == "postgresql"
    return expression.collate("C") if postgresql else expression


def hosts(session: Session, run: Run, page: HostParams) -> list[HostRecap]:
    """A page of the per-host recap, hosts with failures first, then by name (reading the
    recap's columns only)."""
    failures = RunHost.failed + RunHost.unreachable
    query = (
        select(*HOST_COLUMNS)
        .where(RunHost.run_id == run.id)
        .order_by(failures.desc(), _bytewise(session, RunHost.host))
        .limit(page.limit)
        .offset(page.offset)
    )
    return [HostRecap.model_validate(row) for row in session.execute(query)]


def timeline(session: Session, run: Run, page: TimelineParams) -> list[TimelineEntry]:
    """Up to ``page.limit`` host and task results after event ``page.after``, in order: where
    the time went, the install of the requirements first (``kind`` "requirements", no host).
    Reads the few columns it shows, never the events' data."""
    query = (
        select(*TIMELINE_COLUMNS)
        .where(
            RunEvent.run_id == run.id,
            RunEvent.event.in_([*RESULT_STATUS, REQUIREMENTS_EVENT]),
            RunEvent.counter > page.after,
        )
        .order_by(RunEvent.counter)
        .limit(page.limit)
    )
    return [
        TimelineEntry(
            host=e.host,
            task=e.task,
            play=e.play,
            task_action=e.task_action,
            status=_result_status(e.event, changed=e.changed, failed=e.failed),
            started_at=e.started_at,
            ended_at=e.ended_at,
            duration=e.duration,
            counter=e.counter,
            kind="requirements" if e.event == REQUIREMENTS_EVENT else "task",
        )
        for e in session.execute(query)
    ]


def _result_status(event: str, *, changed: bool, failed: bool) -> str:
    if event == REQUIREMENTS_EVENT:
        return "failed" if failed else "ok"
    return "changed" if changed and event == "runner_on_ok" else RESULT_STATUS[event]


def text(sessions: sessionmaker[Session], run_id: int, *, strip_ansi: bool) -> Iterator[bytes]:
    """The whole output as text, fetched in parts so memory stays flat for huge runs."""
    after = -1
    while True:
        with sessions() as session:
            rows = session.execute(
                select(RunOutput.last_line, RunOutput.text)
                .where(RunOutput.run_id == run_id, RunOutput.last_line > after)
                .order_by(RunOutput.last_line)
                .limit(FETCH_CHUNKS)
            ).all()
        if not rows:
            return
        body = "\n".join(t for _, t in rows) + "\n"
        yield (ANSI.sub("", body) if strip_ansi else body).encode()
        after = rows[-1][0]


# a loop's items: no result of the host's task yet, but the host is not quiet
ITEM_EVENTS = ("runner_item_on_ok", "runner_item_on_failed", "runner_item_on_skipped")
PROGRESS_KINDS = (PLAY_HEADER, *TASK_HEADERS, *RESULT_STATUS, *ITEM_EVENTS, STATS_EVENT)
PROGRESS_COLUMNS = (
    RunEvent.counter,
    RunEvent.event,
    RunEvent.host,
    RunEvent.task,
    RunEvent.play,
    RunEvent.changed,
    RunEvent.failed,
    RunEvent.created_at,
)


def _progress_kind(event: str) -> str:
    if event == PLAY_HEADER:
        return "play"
    if event in TASK_HEADERS:
        return "task"
    if event in ITEM_EVENTS:
        return "item"
    return "stats" if event == STATS_EVENT else "result"


def _progress_status(event: str, *, changed: bool, failed: bool) -> str | None:
    if event not in RESULT_STATUS:
        return None
    if event == "runner_on_failed" and not failed:
        return "ignored"  # a failure the task ignores
    return _result_status(event, changed=changed, failed=failed)


def progress(session: Session, run_id: int, after: int, limit: int) -> list[dict[str, object]]:
    """What the run page counts progress from, after event ``after``: play starts (with the
    play's hosts and its number of tasks), task starts, a loop's items (activity, not results),
    host results (ok, changed, failed, unreachable, skipped, ignored) and the recap, in order,
    as the live stream sends them.

    Reads the few columns it sends; the data only of play starts (one per play)."""
    rows = session.execute(
        select(*PROGRESS_COLUMNS)
        .where(
            RunEvent.run_id == run_id,
            RunEvent.counter > after,
            RunEvent.event.in_(PROGRESS_KINDS),
        )
        .order_by(RunEvent.counter)
        .limit(limit)
    ).all()
    plays = [r.counter for r in rows if r.event == PLAY_HEADER]
    play_data: dict[int, dict[str, Any]] = {}
    if plays:
        query = select(RunEvent.counter, RunEvent.data).where(
            RunEvent.run_id == run_id, RunEvent.counter.in_(plays)
        )
        play_data = {counter: data for counter, data in session.execute(query)}
    found: list[dict[str, object]] = []
    for r in rows:
        item: dict[str, object] = {
            "counter": r.counter,
            "kind": _progress_kind(r.event),
            "host": r.host,
            "task": r.task,
            "play": r.play,
            "at": r.created_at.isoformat(),
            "status": _progress_status(r.event, changed=r.changed, failed=r.failed),
        }
        data = play_data.get(r.counter)
        if data is not None:
            hosts = data.get("hosts")
            item["hosts"] = [str(h) for h in hosts] if isinstance(hosts, list) else None
            for key in ("host_count", "task_count"):
                value = data.get(key)
                item[key] = value if isinstance(value, int) else None
            item["play"] = str(data.get("name") or r.play)
        found.append(item)
    return found


def _sse(event: str, data: object, event_id: int | None = None) -> bytes:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, default=str)}\n\n".encode()


@dataclasses.dataclass(slots=True)
class _Polled:
    lines: list[tuple[int, int, str]]
    status: RunStatus
    line_count: int
    event_count: int
    events: list[dict[str, object]]


def _poll(
    sessions: sessionmaker[Session], run_id: int, after: int, events: _EventCursor | None
) -> _Polled:
    """The lines after ``after``, the run's status and counts; and, when the stream sends
    progress (``events``) and the run has stored events since it last looked, the progress
    events after its position (one more query, only then)."""
    with sessions() as session:
        rows = _read(session, run_id, after, STREAM_BATCH)
        status, line_count, event_count = session.execute(
            select(Run.status, Run.line_count, Run.event_count).where(Run.id == run_id)
        ).one()
        found: list[dict[str, object]] = []
        if events is not None and event_count != events.seen:
            found = progress(session, run_id, events.after, STREAM_BATCH)
    return _Polled(rows, RunStatus(status), int(line_count), int(event_count), found)


@dataclasses.dataclass(slots=True)
class _EventCursor:
    after: int  # the last event counter sent
    seen: int = -1  # the run's event_count when its events were last read


async def stream(
    sessions: sessionmaker[Session],
    run_id: int,
    after: int,
    *,
    events_after: int | None = None,
    host_quiet_seconds: float | None = None,
    quiet: float = STREAM_QUIET_SECONDS,
    heartbeat: float = 15.0,
) -> AsyncIterator[bytes]:
    """Server-Sent Events: ``lines`` batches (id = last line_no, so a reconnect with
    Last-Event-ID resumes exactly), ``status`` on every change, ``end`` once all is sent.
    With ``events_after``: ``events`` too, the run's progress events (``progress``) after that
    counter, as they are stored (a reconnect may send some again: each has its ``counter``).

    Reads when ``bell`` rings for the run, at most every ``STREAM_INTERVAL_SECONDS``, and after
    ``quiet`` seconds without a ring."""
    last_status: RunStatus | None = None
    cursor = _EventCursor(events_after) if events_after is not None else None
    idle = 0.0
    yield b"retry: 1000\n\n"
    with BELL.listen(run_id) as rung:
        while True:
            rung.clear()  # a commit from now on rings again, even one during the read
            polled = await anyio.to_thread.run_sync(_poll, sessions, run_id, after, cursor)
            rows, status, line_count = polled.lines, polled.status, polled.line_count
            if rows:
                after = rows[-1][0]
                lines = [{"n": n, "c": c, "t": t} for n, c, t in rows]
                yield _sse("lines", {"first": rows[0][0], "lines": lines}, after)
                idle = 0.0
            more_events = False
            if cursor is not None:
                if polled.events:
                    cursor.after = int(str(polled.events[-1]["counter"]))
                    yield _sse("events", {"events": polled.events}, after)
                    idle = 0.0
                more_events = len(polled.events) == STREAM_BATCH
                # all read up to this count: the next read waits for more to be stored
                cursor.seen = -1 if more_events else polled.event_count
            if status != last_status:
                last_status = status
                told: dict[str, object] = {"status": status, "line_count": line_count}
                if host_quiet_seconds is not None:
                    told["host_quiet_seconds"] = host_quiet_seconds
                yield _sse("status", told, after)
            # the recorder stores every event before the final status: read once more, all is sent
            if status.is_finished and after >= line_count - 1 and not rows and not more_events:
                yield _sse("end", {"status": status, "line_count": line_count}, after)
                return
            if len(rows) == STREAM_BATCH or more_events:  # more stored: catching up goes on
                continue
            if rows:
                await anyio.sleep(STREAM_INTERVAL_SECONDS)
                continue
            started = anyio.current_time()
            with anyio.move_on_after(quiet):
                await rung.wait()
            idle += anyio.current_time() - started
            if idle >= heartbeat:
                idle = 0.0
                yield b": keep-alive\n\n"
