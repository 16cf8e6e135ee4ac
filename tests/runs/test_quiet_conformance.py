"""The quiet rule exists twice: on the server (``runs.quiet``, the ``host_quiet`` notification)
and in the console (``progress.ts``: ``applyProgress`` and ``quietHosts``, the run page's flag).
Both are held to one set of cases, ``frontend/src/features/runs/lib/quiet-cases.json``: recorded
events, a threshold and the quiet hosts expected. Here the events are stored as the recorder
stores them and ``runs.quiet`` must find those hosts; the progress events the server sends for
them must be the case's ``progress``, which the console's test
(``quiet-conformance.test.ts``) feeds to ``quietHosts`` for the same answer.

A case added or a change of what the stream sends: ``STEWARD_WRITE_QUIET_CASES=1`` writes the
cases' ``progress`` from the server's answer (format it with
``npx prettier --write`` in frontend/ and read the diff before committing it)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy.orm import Session
from support.recorded import recorded

from steward.runs import output, quiet
from steward.runs.status import RunStatus

CASES_FILE = Path(__file__).parents[2] / "frontend/src/features/runs/lib/quiet-cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text())
NOW = dt.datetime(2026, 1, 1, 12, 0, tzinfo=dt.UTC)  # the cases' "now"; the console's too


def _utc(iso: str) -> str:
    """SQLite gives naive datetimes back (stored as UTC), PostgreSQL aware ones."""
    when = dt.datetime.fromisoformat(iso)
    return (when if when.tzinfo else when.replace(tzinfo=dt.UTC)).isoformat()


def _stored(session: Session, case: dict[str, Any]) -> int:
    raw = [
        {
            **{k: v for k, v in e.items() if k != "seconds_ago"},
            "created": (NOW - dt.timedelta(seconds=e["seconds_ago"])).isoformat(),
        }
        for e in case["events"]
    ]
    return recorded(session, RunStatus.RUNNING, raw).id


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_server_finds_the_cases_quiet_hosts_and_sends_their_progress(
    db_session: Session, case: dict[str, Any]
) -> None:
    run_id = _stored(db_session, case)
    heard_before = NOW - dt.timedelta(seconds=case["threshold_seconds"])
    found = [
        [h.host, h.task, int((NOW - h.heard_at).total_seconds())]
        for h in quiet.quiet_hosts(db_session, [run_id], heard_before)
    ]
    assert sorted(found) == sorted(case["quiet"])
    sent = [
        {**event, "at": _utc(str(event["at"]))}
        for event in output.progress(db_session, run_id, 0, 10_000)
    ]
    if os.environ.get("STEWARD_WRITE_QUIET_CASES") == "1":
        case["progress"] = sent
        CASES_FILE.write_text(json.dumps(CASES, indent=1) + "\n")
    assert sent == case.get("progress"), "the stream's progress differs from the console's cases"


def test_the_cases_cover_each_way_out_of_quiet() -> None:
    """A case for each thing that makes a busy host not quiet, and controls where it is."""
    names = " ".join(c["name"] for c in CASES)
    for reason in ("recap", "failed", "ignored", "unreachable", "loop", "longer"):
        assert reason in names
    assert any(c["quiet"] for c in CASES)
    assert any(not c["quiet"] for c in CASES)
