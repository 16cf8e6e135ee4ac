"""Events ingested per second: a synthetic event flood through the real recorder
(``execution.recorder.Recorder``) into a real SQLite and a real PostgreSQL (issue 13: >= 5,000/s
sustained on 2 cores).

    .venv/bin/python bench/ingest.py [--events 100000] [--hosts 50] [--only sqlite|postgresql]

The flood is what a play over many hosts emits, in the executor's event dicts: per task a
``playbook_on_task_start`` (its "TASK [...]" banner, 2 lines), per host a ``runner_on_start``
(no text) and a result: ok (1 line), changed (1 line), failed (a "fatal: ... FAILED! => {...}"
of 4 lines, with a ``res`` of stdout/stderr) in a fixed mix; then a ``playbook_on_stats`` with
the recap of every host. A masker with two secrets runs over every event, as in a real run.

The events are handed to ``Recorder.add`` as fast as one producer thread makes them (a queue
put: the writer thread is what is measured). Sustained rate: events stored from the first
``add`` to ``close`` (every event stored), and the lowest and median rate over 1-second windows
(``runs.event_count`` polled on a connection of its own). At the end every event, line and host
is checked to be stored. CPU: this process's (producer, recorder, driver) and, for
PostgreSQL, the server's processes. PostgreSQL is the test suite's throwaway server
(``tests/support/postgres.py``: fsync and synchronous_commit off; the database on disk).
Prints a Markdown report and writes it to bench/results/ingest.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))  # the test suite's PostgreSQL

import psutil  # noqa: E402
from harness import tree_cpu_seconds  # noqa: E402
from sqlalchemy import func, select  # noqa: E402
from support.postgres import start_postgres  # noqa: E402

from steward import migrations  # noqa: E402
from steward.db import make_engine, make_session_factory  # noqa: E402
from steward.execution.recorder import Recorder  # noqa: E402
from steward.masking import Masker  # noqa: E402
from steward.projects.models import Project  # noqa: E402
from steward.runs.models import LaunchType, Run, RunEvent, RunHost, RunOutput  # noqa: E402
from steward.runs.params import RunParams  # noqa: E402
from steward.runs.status import RunStatus  # noqa: E402

SECRETS = ["s3cr3t-db-password", "tok-ABCDEF0123456789"]
# per host and task: what each result is, in turn (17 hosts in 20 ok, 2 changed, 1 failed)
MIX = ["ok"] * 17 + ["changed", "changed", "failed"]


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _load() -> str:
    return "/".join(f"{v:.2f}" for v in os.getloadavg())


class Flood:
    """The events of a play of ``hosts`` hosts, task after task, numbered from 1; counts what
    it made (events, lines, hosts) to check against what was stored."""

    def __init__(self, events: int, hosts: int) -> None:
        self.target = events
        self.hosts = [f"web-{n:03d}.example.org" for n in range(hosts)]
        self.events = 0
        self.lines = 0
        self._start = dt.datetime.now(dt.UTC)

    def _event(self, kind: str, stdout: str, data: dict[str, Any], parent: str) -> dict[str, Any]:
        self.events += 1
        if stdout:
            self.lines += stdout.count("\n") + 1
        created = (self._start + dt.timedelta(milliseconds=self.events)).isoformat()
        return {
            "event": kind,
            "counter": self.events,
            "uuid": f"00000000-0000-4000-8000-{self.events:012d}",
            "parent_uuid": parent,
            "stdout": stdout,
            "created": created,
            "runner_ident": "bench",
            "event_data": {
                "playbook": "site.yml",
                "play": "web servers",
                "play_uuid": "00000000-0000-4000-8000-000000000000",
                **data,
            },
        }

    def __iter__(self) -> Iterator[dict[str, Any]]:
        task = 0
        while True:
            task += 1
            name = f"configure service step {task}"
            head = f"00000000-0000-4000-9000-{task:012d}"
            banner = f"\nTASK [{name}] " + "*" * 60
            if self.events + 4 > self.target:
                break
            yield self._event("playbook_on_task_start", banner, {"task": name}, "")
            for i, host in enumerate(self.hosts):
                if self.events + 3 > self.target:
                    break
                common = {
                    "host": host,
                    "task": name,
                    "task_action": "ansible.builtin.template",
                    "role": "web",
                }
                yield self._event("runner_on_start", "", common, head)
                outcome = MIX[(task + i) % len(MIX)]
                timing = {"start": self._start.isoformat(), "end": self._start.isoformat()}
                if outcome == "failed":
                    res = {
                        "changed": False,
                        "msg": "non-zero return code",
                        "rc": 2,
                        "stdout": f"connecting with s3cr3t-db-password to {host}",
                        "stderr": "error: service did not start\nsee journalctl",
                    }
                    text = (
                        f'fatal: [{host}]: FAILED! => {{"changed": false, "rc": 2,\n'
                        f'    "msg": "non-zero return code",\n    "stderr": "error: service'
                        f' did not start",\n    "stdout": "connecting with ********"}}'
                    )
                    kind = "runner_on_failed"
                else:
                    changed = outcome == "changed"
                    res = {"changed": changed, "dest": "/etc/app.conf", "mode": "0644"}
                    text = f"{'changed' if changed else 'ok'}: [{host}]"
                    kind = "runner_on_ok"
                yield self._event(
                    kind, text, {**common, **timing, "res": res, "duration": 0.1}, head
                )
        recap = {h: 1 for h in self.hosts}
        stats = {"ok": recap, "changed": recap, "failures": {}, "dark": {}, "skipped": {}}
        yield self._event("playbook_on_stats", "\nPLAY RECAP " + "*" * 60, stats, "")


def _new_run(sessions: Any) -> int:
    with sessions() as session:
        project = Project(name=f"ingest-{time.monotonic_ns()}")
        session.add(project)
        session.flush()
        run = Run(
            project_id=project.id,
            status=RunStatus.RUNNING,
            launch_type=LaunchType.API,
            params=RunParams(playbook="site.yml", repository_id=1, inventory_id=1).model_dump(),
        )
        session.add(run)
        session.commit()
        return run.id


def _watch(
    sessions: Any, run_id: int, done: threading.Event
) -> tuple[list[tuple[float, int]], threading.Thread]:
    """(monotonic time, events stored) every second until ``done``, and the polling thread."""
    seen: list[tuple[float, int]] = [(time.monotonic(), 0)]

    def poll() -> None:
        while not done.wait(1.0):
            with sessions() as session:
                count = session.scalar(select(Run.event_count).where(Run.id == run_id))
            seen.append((time.monotonic(), int(count or 0)))

    thread = threading.Thread(target=poll, daemon=True)
    thread.start()
    return seen, thread


def ingest(url: str, events: int, hosts: int, server: psutil.Process | None) -> dict[str, Any]:
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    run_id = _new_run(sessions)
    recorder = Recorder(
        sessions, run_id, Masker(SECRETS), heartbeat=lambda s: None, heartbeat_seconds=60
    )
    flood = Flood(events, hosts)
    done = threading.Event()
    windows, watcher = _watch(sessions, run_id, done)
    cpu_server = _tree_cpu(server)
    cpu_self = time.process_time()
    started = time.monotonic()
    for event in flood:
        recorder.add(event)
    produced = time.monotonic() - started
    recorder.close()
    seconds = time.monotonic() - started
    cpu_self = time.process_time() - cpu_self
    cpu_server = _tree_cpu(server) - cpu_server
    done.set()
    watcher.join()
    windows.append((time.monotonic(), flood.events))
    stored = _stored(sessions, run_id)
    engine.dispose()
    rates = [
        (b[1] - a[1]) / (b[0] - a[0])
        for a, b in itertools.pairwise(windows)
        if b[0] - a[0] > 0.5 and b[1] < flood.events  # whole windows while the flood lasted
    ]
    expected = {"events": flood.events, "lines": flood.lines, "hosts": len(flood.hosts)}
    return {
        "made": expected,
        "stored": stored,
        "complete": all(stored[k] == v for k, v in expected.items()) and stored["numbered"],
        "seconds": seconds,
        "produced_in": produced,
        "events_per_second": flood.events / seconds,
        "lines_per_second": flood.lines / seconds,
        "window_min": min(rates) if rates else None,
        "window_median": statistics.median(rates) if rates else None,
        "cpu_self": cpu_self,
        "cpu_server": cpu_server,
    }


def _tree_cpu(process: psutil.Process | None) -> float:
    return 0.0 if process is None else tree_cpu_seconds(process.pid)


def _stored(sessions: Any, run_id: int) -> dict[str, Any]:
    with sessions() as session:
        events, low, high = session.execute(
            select(func.count(), func.min(RunEvent.counter), func.max(RunEvent.counter)).where(
                RunEvent.run_id == run_id
            )
        ).one()
        lines = session.scalar(
            select(func.sum(RunOutput.last_line - RunOutput.first_line + 1)).where(
                RunOutput.run_id == run_id
            )
        )
        last = session.scalar(
            select(func.max(RunOutput.last_line)).where(RunOutput.run_id == run_id)
        )
        hosts = session.scalar(select(func.count()).where(RunHost.run_id == run_id))
        recap_ok = session.scalar(select(func.sum(RunHost.ok)).where(RunHost.run_id == run_id))
        run = session.get_one(Run, run_id)
    return {
        "events": events,
        "lines": int(lines or 0),
        "hosts": hosts,
        # counters 1..n, lines 0..n-1 without a hole, the run's counts agree, the recap stored
        "numbered": low == 1
        and high == events == run.event_count
        and last is not None
        and last + 1 == run.line_count == int(lines or 0)
        and recap_ok == hosts,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--hosts", type=int, default=50)
    parser.add_argument("--only", choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    results: dict[str, dict[str, Any]] = {}
    load_before = _load()
    root = Path(tempfile.mkdtemp(prefix="steward-bench-ingest-"))
    try:
        if args.only in (None, "sqlite"):
            url = f"sqlite:///{root / 'steward.db'}"
            migrations.upgrade(url)
            _log(f"SQLite: {args.events} events, load {_load()}")
            results["SQLite"] = ingest(url, args.events, args.hosts, None)
        if args.only in (None, "postgresql"):
            pg_dir = Path(tempfile.mkdtemp(prefix="steward-bench-pg-"))  # chowned when root
            postgres = start_postgres(pg_dir)
            try:
                url = postgres.url(postgres.create_database())
                migrations.upgrade(url)
                _log(f"PostgreSQL: {args.events} events, load {_load()}")
                server = psutil.Process(postgres.process.pid)
                results["PostgreSQL"] = ingest(url, args.events, args.hosts, server)
            finally:
                postgres.stop()
                shutil.rmtree(pg_dir, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report = _report(args, results, load_before)
    print(report)
    out = BENCH / "results"
    out.mkdir(exist_ok=True)
    (out / "ingest.md").write_text(report)
    return 0 if all(r["complete"] for r in results.values()) else 1


def _report(args: argparse.Namespace, results: dict[str, dict[str, Any]], load: str) -> str:
    def rate(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f}"

    rows = [
        f"| {name} | {r['made']['events']:,} | {r['made']['lines']:,} | {r['seconds']:.2f} "
        f"| **{r['events_per_second']:,.0f}** | {r['lines_per_second']:,.0f} "
        f"| {rate(r['window_min'])} / {rate(r['window_median'])} "
        f"| {r['cpu_self']:.1f} + {r['cpu_server']:.1f} "
        f"| {r['made']['events'] / r['cpu_self']:,.0f} "
        f"| {'yes' if r['complete'] else 'NO'} |"
        for name, r in results.items()
    ]
    return "\n".join(
        [
            f"# Recorder ingest ({time.strftime('%Y-%m-%d %H:%M')})",
            "",
            "The recorder's writer is one thread (one core at most, the GIL); the events per "
            "CPU-second of this process (producer included) are what it does with a core of "
            "its own, whatever the load of the machine.",
            "",
            f"A flood of {args.events:,} events over {args.hosts} hosts through "
            "`execution.recorder.Recorder` (masking on); load average before "
            f"{load}, after {_load()}; {os.cpu_count()} CPUs.",
            "",
            "| database | events | lines | s | events/s | lines/s "
            "| 1-s windows min / median events/s | CPU s (this process + database) "
            "| events per CPU-second of this process | all stored |",
            "|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
