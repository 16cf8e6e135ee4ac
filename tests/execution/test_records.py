"""The executor's reading side on its own: the plugin's records and the raw pipe, as they may
arrive (split anywhere, interleaved), in; events in the recorder's shape out."""

from __future__ import annotations

import json

from steward.execution.ansible.playbook import HEADER, Event, EventStream, Records


def _record(event: dict[str, object] | None, text: str) -> bytes:
    meta = json.dumps(event).encode() if event is not None else b""
    body = text.encode()
    return HEADER.pack(len(meta), len(body)) + meta + body


def test_records_split_at_every_byte_come_out_whole() -> None:
    data = _record({"event": "runner_on_ok"}, "ok: [h]\n") + _record(None, "warning\n")
    records = Records()
    found = []
    for i in range(len(data)):
        found += records.feed(data[i : i + 1])
    assert found == [(b'{"event": "runner_on_ok"}', b"ok: [h]\n"), (b"", b"warning\n")]
    assert records.pending == 0


def test_a_huge_record_arrives_in_parts() -> None:
    text = "".join(f"{n}\n" for n in range(200_000))
    data = _record({"event": "runner_on_ok"}, text)
    records = Records()
    parts = [records.feed(data[i : i + 65536]) for i in range(0, len(data), 65536)]
    assert [len(p) for p in parts].count(1) == 1
    assert parts[-1][0][1].decode() == text


def test_events_are_numbered_with_their_lines_and_bare_text_is_verbose() -> None:
    events: list[Event] = []
    stream = EventStream(events.append)
    stream.raw(b"before the plugin\npartial ")
    stream.record(b"", b"[WARNING]: bare\n")
    stream.record(json.dumps({"event": "playbook_on_task_start"}).encode(), b"\nTASK [x] ***\n")
    stream.raw(b"line\n")
    stream.record(json.dumps({"event": "runner_on_ok"}).encode(), b"ok: [h]\n\n")
    stream.raw(b"no newline at the end")
    stream.flush(final=True)
    assert [(e["counter"], e["event"], e["stdout"]) for e in events] == [
        (1, "verbose", "before the plugin\n[WARNING]: bare"),
        (2, "playbook_on_task_start", "\nTASK [x] ***"),
        (3, "verbose", "partial line"),
        (4, "runner_on_ok", "ok: [h]\n"),  # its empty last line is kept
        (5, "verbose", "no newline at the end"),
    ]
