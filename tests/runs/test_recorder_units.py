"""The recorder's pure part: the executor's events in, the rows to store out (no database)."""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import pytest
from sqlalchemy.orm import Session, sessionmaker

from steward.execution import recorder as recorder_module
from steward.execution.ansible import playbook
from steward.execution.recorder import (
    BATCH_SECONDS,
    BUSY_BATCH_SECONDS,
    CHUNK_CHARS,
    MAX_DATA_BYTES,
    BatchRows,
    Lease,
    Numbering,
    Recorder,
    batch_deadline,
    batch_rows,
    commit_parts,
    event_row,
    output_chunks,
    recap_rows,
)
from steward.masking import MASK, Masker

RUN = 7
NO_SECRETS = Masker([])
START = Numbering()


def _event(
    counter: int, stdout: str = "", kind: str = "runner_on_ok", **data: Any
) -> dict[str, Any]:
    return {
        "counter": counter,
        "event": kind,
        "uuid": f"uuid-{counter}",
        "parent_uuid": "parent",
        "stdout": stdout,
        "created": "2026-11-23T10:00:00.000001",
        "event_data": data,
    }


def _lines(n: int, prefix: str = "line") -> str:
    return "\n".join(f"{prefix} {i}" for i in range(n))


def _batch(
    events: list[dict[str, Any]],
    numbering: Numbering = START,
    known: frozenset[str] = frozenset(),
    masker: Masker = NO_SECRETS,
) -> BatchRows:
    return batch_rows(RUN, events, masker, numbering, known)


# ---- output chunks -------------------------------------------------------------------------


def _check_chunks(chunks: list[dict[str, Any]], text: str, first_line: int) -> None:
    """Chunks hold whole consecutive lines, numbered on, and give the text back exactly."""
    assert chunks[0]["first_line"] == first_line
    assert chunks[-1]["last_line"] == first_line + text.count("\n")
    for before, after in itertools.pairwise(chunks):
        assert after["first_line"] == before["last_line"] + 1
    for chunk in chunks:
        assert len(chunk["text"].split("\n")) == chunk["last_line"] - chunk["first_line"] + 1
    assert "\n".join(c["text"] for c in chunks) == text
    assert {(c["run_id"], c["counter"]) for c in chunks} == {(RUN, 3)}


@pytest.mark.parametrize("width", [1, 9, 100, CHUNK_CHARS - 1, CHUNK_CHARS, CHUNK_CHARS + 1])
@pytest.mark.parametrize("count", [1, 2, 3, 1000])
def test_an_events_lines_are_cut_into_chunks_of_whole_lines(width: int, count: int) -> None:
    text = "\n".join(str(i % 10) * width for i in range(count))
    chunks = output_chunks(RUN, 3, 10, text)
    _check_chunks(chunks, text, 10)
    for chunk in chunks:  # none bigger than it must be: a longer line only is a chunk alone
        assert len(chunk["text"]) <= CHUNK_CHARS or "\n" not in chunk["text"]
    assert len(chunks) <= len(text) // CHUNK_CHARS + count


def test_a_chunk_is_cut_at_the_last_whole_line_that_fits() -> None:
    line = "x" * 99  # 100 characters with its newline
    text = "\n".join([line] * 1000)
    chunks = output_chunks(RUN, 3, 0, text)
    _check_chunks(chunks, text, 0)
    per_chunk = (CHUNK_CHARS + 1) // 100
    assert [c["last_line"] - c["first_line"] + 1 for c in chunks[:-1]] == [per_chunk] * (
        len(chunks) - 1
    )


@pytest.mark.parametrize(
    "text",
    ["\n", "\n\n\n", "a\n", "\na", "\n" * (CHUNK_CHARS + 5), "é\n" * CHUNK_CHARS],
    ids=["newline", "three-newlines", "line", "leading-newline", "chunk-of-newlines", "chunk-of-é"],
)
def test_empty_lines_and_edges_keep_their_numbers(text: str) -> None:
    _check_chunks(output_chunks(RUN, 3, 5, text), text, 5)


def test_empty_lines_count_and_an_empty_stdout_has_no_chunk() -> None:
    assert output_chunks(RUN, 1, 0, "") == []
    blank = output_chunks(RUN, 1, 4, "\n")  # one empty line, then the empty rest: two lines
    assert [(c["first_line"], c["last_line"], c["text"]) for c in blank] == [(4, 5, "\n")]


# ---- one event -----------------------------------------------------------------------------


def test_event_row_takes_the_fields_of_the_event_and_its_data() -> None:
    raw = _event(
        4,
        "ok: [web1]\r\n",
        host="web1",
        play="site",
        task="install",
        task_action="apt",
        role="base",
        res={"changed": True},
        start="2026-11-23T10:00:01+00:00",
        end="2026-11-23T10:00:03",
        duration=2.5,
    )
    row, text = event_row(RUN, raw, NO_SECRETS, default_counter=99)
    assert text == "ok: [web1]\n"  # the pseudo-terminal's \r\n back to \n
    assert row["counter"] == 4
    assert (row["run_id"], row["event"], row["uuid"], row["parent_uuid"]) == (
        RUN,
        "runner_on_ok",
        "uuid-4",
        "parent",
    )
    assert (row["host"], row["play"], row["task"], row["task_action"], row["role"]) == (
        "web1",
        "site",
        "install",
        "apt",
        "base",
    )
    assert row["changed"] is True
    assert row["failed"] is False
    assert row["created_at"] == dt.datetime(2026, 11, 23, 10, 0, 0, 1, tzinfo=dt.UTC)
    assert row["started_at"] == dt.datetime(2026, 11, 23, 10, 0, 1, tzinfo=dt.UTC)
    assert row["ended_at"] == dt.datetime(2026, 11, 23, 10, 0, 3, tzinfo=dt.UTC)  # naive: UTC
    assert row["duration"] == 2.5
    assert row["data"]["res"] == {"changed": True}
    assert "start_line" not in row  # numbering is the batch's business


def test_event_row_without_stdout_counter_or_dates() -> None:
    raw = {
        "event": "playbook_on_start",
        "stdout": None,
        "created": "not a date",
        "event_data": None,
    }
    row, text = event_row(RUN, raw, NO_SECRETS, default_counter=12)
    assert text == ""
    assert row["counter"] == 12
    assert row["host"] == row["task"] == ""
    assert row["started_at"] is row["ended_at"] is row["duration"] is None
    assert row["created_at"].tzinfo is not None  # received now
    assert row["data"] == {}


@pytest.mark.parametrize(
    ("kind", "data", "failed", "changed"),
    [
        ("runner_on_failed", {}, True, False),
        ("runner_on_failed", {"ignore_errors": True}, False, False),
        ("runner_on_unreachable", {}, True, False),
        ("runner_item_on_failed", {}, True, False),
        ("runner_on_ok", {"res": {"changed": True}}, False, True),
        ("runner_item_on_ok", {"res": {"changed": True}}, False, False),
        ("playbook_on_task_start", {"res": {"changed": True}}, False, False),
        ("runner_on_ok", {"res": "not a dict"}, False, False),
    ],
)
def test_failed_and_changed(kind: str, data: dict[str, Any], failed: bool, changed: bool) -> None:
    row, _ = event_row(RUN, _event(1, kind=kind, **data), NO_SECRETS, default_counter=1)
    assert (row["failed"], row["changed"]) == (failed, changed)


def test_long_fields_are_cut_to_their_columns() -> None:
    raw = _event(1, kind="e" * 100, host="h" * 300, task="t" * 600, role="r" * 300)
    raw["uuid"] = "u" * 50
    row, _ = event_row(RUN, raw, NO_SECRETS, default_counter=1)
    assert (len(row["event"]), len(row["uuid"]), len(row["host"])) == (64, 36, 255)
    assert (len(row["task"]), len(row["role"])) == (500, 200)


def test_oversized_event_data_keeps_the_small_results_only() -> None:
    raw = _event(1, res={"stdout": "x" * MAX_DATA_BYTES, "rc": 0}, host="web1")
    row, _ = event_row(RUN, raw, NO_SECRETS, default_counter=1)
    assert row["data"]["res"] == {"rc": 0, "_truncated": True}
    assert row["data"]["host"] == "web1"


def test_secrets_are_masked_in_stdout_and_everywhere_in_the_data() -> None:
    masker = Masker(["s3cret-Pa55"])
    raw = _event(
        1,
        "password is s3cret-Pa55\r\nand again s3cret-Pa55",
        host="web1",
        task="use s3cret-Pa55",
        res={
            "cmd": ["login", "--password", "s3cret-Pa55"],
            "s3cret-Pa55": {"nested": "s3cret-Pa55"},
        },
    )
    rows = _batch([raw], masker=masker)
    event, chunks = rows.events[0], rows.chunks
    assert chunks[0]["text"] == f"password is {MASK}\nand again {MASK}"
    assert event["task"] == f"use {MASK}"
    assert event["data"]["res"] == {
        "cmd": ["login", "--password", MASK],
        MASK: {"nested": MASK},
    }
    assert "s3cret-Pa55" not in repr(rows)


@pytest.mark.parametrize(
    "secret",
    ['pa"ss\\word', "line1\nline2-long-enough", "pässwörd-ü", "tab\tand\x01control", "</script>"],
)
def test_secrets_that_json_escapes_are_masked_in_the_data_too(secret: str) -> None:
    """The data of an event is searched as JSON, where these secrets appear escaped."""
    raw = _event(1, host="web1", res={"msg": f"got {secret}!", secret: [1, {"k": secret}]})
    row, _ = event_row(RUN, raw, Masker([secret]), default_counter=1)
    assert row["data"]["res"] == {"msg": f"got {MASK}!", MASK: [1, {"k": MASK}]}


def test_data_without_a_secret_is_stored_as_it_came() -> None:
    raw = _event(1, host="web1", res={"msg": "nothing to hide", "rc": 0, "list": [1.5, None]})
    row, _ = event_row(RUN, raw, Masker(["s3cret-Pa55"]), default_counter=1)
    assert row["data"] == raw["event_data"]


# ---- the per-host recap --------------------------------------------------------------------


def test_recap_counts_every_status_per_host() -> None:
    stats = {
        "ok": {"web1": 5, "web2": 3},
        "changed": {"web1": 2},
        "failures": {"web2": 1},
        "dark": {"db1": 1},
        "skipped": {"web1": 4},
        "rescued": {"web2": 1},
        "ignored": {"web1": 1},
        "processed": {"web1": 1, "web2": 1, "db1": 1},
    }
    zero = dict.fromkeys(["ok", "changed", "failed", "unreachable", "skipped", "rescued"], 0)
    assert recap_rows(stats) == [
        {"host": "db1", **zero, "unreachable": 1, "ignored": 0},
        {"host": "web1", **zero, "ok": 5, "changed": 2, "skipped": 4, "ignored": 1},
        {"host": "web2", **zero, "ok": 3, "failed": 1, "rescued": 1, "ignored": 0},
    ]
    assert recap_rows({}) == recap_rows({"ok": None}) == []


def test_the_recap_comes_from_the_stats_event_and_adds_the_hosts_it_names() -> None:
    rows = _batch(
        [
            _event(1, "ok: [web1]", host="web1"),
            _event(2, "", kind="playbook_on_stats", ok={"web1": 1, "web2": 1}, failures={}),
        ],
        known=frozenset({"web2"}),
    )
    assert [h["host"] for h in rows.new_hosts] == ["web1"]  # web2 was stored before
    assert [(r["host"], r["ok"]) for r in rows.recap] == [("web1", 1), ("web2", 1)]
    only_recap = _batch([_event(3, kind="playbook_on_stats", dark={"db9": 1})])
    assert only_recap.new_hosts == [{"run_id": RUN, "host": "db9"}]
    assert _batch([_event(1, host="web1")]).recap == []


# ---- a batch, and batch after batch --------------------------------------------------------


def test_line_numbers_and_event_counts_continue_across_events_and_batches() -> None:
    big = "\n".join(["y" * 99] * 501)  # 50,100 characters: 4 chunks of 163, 163, 163, 12
    first = _batch([_event(1, _lines(3)), _event(2, ""), _event(3, big)])
    assert [(e["counter"], e["start_line"], e["end_line"]) for e in first.events] == [
        (1, 0, 3),
        (2, 3, 3),  # no stdout: an empty range where it would have been
        (3, 3, 504),
    ]
    assert CHUNK_CHARS == 16384
    assert [(c["counter"], c["first_line"], c["last_line"]) for c in first.chunks] == [
        (1, 0, 2),
        (3, 3, 165),
        (3, 166, 328),
        (3, 329, 491),
        (3, 492, 503),
    ]
    assert first.numbering == Numbering(next_line=504, events=3)

    second = _batch([_event(4, "one"), _event(5, _lines(2))], first.numbering)
    assert [(e["start_line"], e["end_line"]) for e in second.events] == [(504, 505), (505, 507)]
    assert [c["first_line"] for c in second.chunks] == [504, 505]
    assert second.numbering == Numbering(next_line=507, events=5)


def test_an_event_without_a_counter_is_numbered_after_the_events_so_far() -> None:
    events = [_event(0), _event(0)]
    for raw in events:
        del raw["counter"]
    rows = _batch(events, Numbering(next_line=0, events=10))
    assert [e["counter"] for e in rows.events] == [11, 12]


def test_each_new_host_is_added_once_and_the_known_hosts_are_left_alone() -> None:
    known = {"web1"}
    rows = batch_rows(
        RUN,
        [_event(1, host="web1"), _event(2, host="web2"), _event(3, host="web2"), _event(4)],
        NO_SECRETS,
        Numbering(),
        known,
    )
    assert rows.new_hosts == [{"run_id": RUN, "host": "web2"}]
    assert known == {"web1"}
    assert _batch([]) == BatchRows([], [], [], [], Numbering())


# ---- commits of a huge output --------------------------------------------------------------


def test_a_huge_output_is_committed_in_parts_of_at_least_the_given_lines() -> None:
    wide = "\n".join(["w" * 99] * 2600)  # chunks of 163 lines
    chunks = _batch([_event(1, wide), _event(2, _lines(10))]).chunks
    parts = commit_parts(chunks, 1000)
    assert [len(p) for p in parts] == [7, 7, 3]  # 7 x 163 = 1,141: the first to reach 1,000
    assert [(p[0]["first_line"], p[-1]["last_line"]) for p in parts] == [
        (0, 1140),
        (1141, 2281),
        (2282, 2609),
    ]
    assert [c for p in parts for c in p] == chunks
    assert commit_parts(chunks, 100_000) == [chunks]
    assert commit_parts([], 1000) == []


# ---- the lease -----------------------------------------------------------------------------


def test_the_lease_is_due_every_period() -> None:
    lease = Lease(10.0, renewed_at=100.0)
    assert not lease.due(109.9)
    assert lease.wait(104.0) == 6.0
    assert lease.due(110.0)
    assert lease.wait(120.0) == 0.0
    lease.renewed(110.0)
    assert not lease.due(115.0)


class _FakeSession:
    def __init__(self, log: list[str]) -> None:
        self.log = log

    def commit(self) -> None:
        self.log.append("commit")


def test_the_recorder_renews_the_lease_only_when_due() -> None:
    log: list[str] = []

    @contextmanager
    def sessions() -> Iterator[_FakeSession]:
        yield _FakeSession(log)

    def heartbeat(session: Session) -> None:
        log.append("heartbeat")

    recorder = Recorder(
        cast(sessionmaker[Session], sessions),
        RUN,
        NO_SECRETS,
        heartbeat=heartbeat,
        heartbeat_seconds=3600.0,
    )
    try:
        assert recorder.renew_lease_if_due(0.0) is False
        assert log == []
        # a second past the period: renewed_at + 3600.0 - renewed_at may round below 3600.0
        due = recorder._lease.renewed_at + 3601.0
        assert recorder.renew_lease_if_due(due) is True
        assert log == ["heartbeat", "commit"]
        assert recorder.renew_lease_if_due(due + 1.0) is False
    finally:
        recorder.close()
    assert log == ["heartbeat", "commit"]
    assert recorder.line_count == 0


def test_a_batch_after_a_quiet_spell_is_stored_at_once_a_busy_one_waits_its_turn() -> None:
    stored_at = 100.0
    quiet = stored_at + 5.0
    assert batch_deadline(quiet, stored_at) == quiet + BATCH_SECONDS
    busy = stored_at + 0.01
    assert batch_deadline(busy, stored_at) == stored_at + BUSY_BATCH_SECONDS
    assert BUSY_BATCH_SECONDS > BATCH_SECONDS


def test_the_recorder_sleeps_through_a_batch_and_close_wakes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # between a batch's first event and its deadline the writer sleeps (it does not wake for
    # every event); close() must not wait for that deadline, and nothing may be lost
    monkeypatch.setattr(recorder_module, "BATCH_SECONDS", 60.0)
    stored: list[list[int]] = []

    def store(self: Recorder, batch: list[dict[str, Any]], *, retry: bool = False) -> None:
        stored.append([event["counter"] for event in batch])

    monkeypatch.setattr(Recorder, "_store", store)

    @contextmanager
    def sessions() -> Iterator[_FakeSession]:
        yield _FakeSession([])

    recorder = Recorder(
        cast(sessionmaker[Session], sessions),
        RUN,
        NO_SECRETS,
        heartbeat=lambda session: None,
        heartbeat_seconds=3600.0,
    )
    waits: list[float | None] = []
    get = recorder._queue.get

    def counted(block: bool = True, timeout: float | None = None) -> object:
        if block:
            waits.append(timeout)
        return get(block, timeout)

    monkeypatch.setattr(recorder._queue, "get", counted)
    recorder.add({"event": "verbose", "counter": 1})
    time.sleep(0.3)  # the writer has taken the first event and sleeps towards its deadline
    for counter in range(2, 51):
        recorder.add({"event": "verbose", "counter": counter})
    started = time.monotonic()
    recorder.close()
    assert time.monotonic() - started < 10.0  # far below the 60 s deadline
    assert stored == [list(range(1, 51))]  # one batch, in order
    assert len(waits) <= 2, waits  # it waited for the first event only, not for each one


def test_the_executor_reads_a_first_batch_in_time_for_the_recorder() -> None:
    # the executor's pause between busy reads must end before the recorder stores the batch
    # that a first event opened, or the lines printed just after it (a play's header after
    # playbook_on_start) wait a whole busy interval: first-line lag 0.3 s instead of 0.05 s
    assert playbook.BUSY_READ_SECONDS * 2 <= BATCH_SECONDS
