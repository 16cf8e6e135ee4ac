"""A run's metrics as files for the user's own tools: CSV (one row per sample, gap rows with
their reason) or JSON (lanes with their samples and gaps). Every sample, no averaging; streamed
lane by lane, a batch of chunks at a time."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Iterator

from sqlalchemy.orm import Session, sessionmaker

from steward.metrics import service
from steward.metrics.downsampling import shown
from steward.metrics.schemas import MetricsExport
from steward.metrics.series import UNITS

BATCH = 1000  # samples per piece of the answer


def _iso(ms: int) -> str:
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isoformat(timespec="milliseconds")


def _cell(value: float | None) -> str:
    return "" if value is None else repr(shown(value))


def csv_text(
    sessions: sessionmaker[Session], run_id: int, query: MetricsExport, win: service.Window
) -> Iterator[str]:
    buffer = io.StringIO()
    out = csv.writer(buffer, lineterminator="\n")

    def flushed() -> str:
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        return text

    out.writerow(["time", "kind", "host", *win.series, "gap_until", "gap_reason"])
    yield flushed()
    with sessions() as session:
        for lane in service.lanes(session, run_id, query):
            pending = service.gaps(session, run_id, lane, win)
            for n, (t, values) in enumerate(service.samples(session, run_id, lane, win)):
                while pending and pending[0].start <= t:
                    gap = pending.pop(0)
                    blanks = [""] * len(win.series)
                    out.writerow([_iso(gap.start), *lane, *blanks, _iso(gap.end), gap.reason])
                out.writerow([_iso(t), *lane, *(_cell(values[s]) for s in win.series), "", ""])
                if n % BATCH == BATCH - 1:
                    yield flushed()
            for gap in pending:
                blanks = [""] * len(win.series)
                out.writerow([_iso(gap.start), *lane, *blanks, _iso(gap.end), gap.reason])
            yield flushed()


def json_text(
    sessions: sessionmaker[Session], run_id: int, query: MetricsExport, win: service.Window
) -> Iterator[str]:
    units = {name: UNITS[name] for name in win.series}
    yield f'{{"run_id": {run_id}, "units": {json.dumps(units)}, "lanes": ['
    with sessions() as session:
        for n, lane in enumerate(service.lanes(session, run_id, query)):
            found = [g.model_dump() for g in service.gaps(session, run_id, lane, win)]
            head = {"kind": lane[0].value, "host": lane[1], "gaps": found}
            parts = [("," if n else "") + json.dumps(head)[:-1] + ', "samples": [']
            for i, (t, values) in enumerate(service.samples(session, run_id, lane, win)):
                row = {"time": t, **{s: shown(values[s]) for s in win.series}}
                parts.append(("," if i else "") + json.dumps(row))
                if len(parts) >= BATCH:
                    yield "".join(parts)
                    parts = []
            yield "".join(parts) + "]}"
    yield "]}\n"
