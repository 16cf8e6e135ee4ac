"""What an hour of host metrics takes in the database, and how fast it reads back: a run-hour
of the controller and N target hosts written through the real storage path (``Lane.add``,
``Lane.take`` every 10 s, the rows inserted as ``Recording._flush`` does) into a real SQLite
and a real PostgreSQL, then read back and averaged through the API's service
(``metrics.service.read``) and exported whole (``metrics.export``).

    .venv/bin/python bench/metrics_storage.py [--hosts 10] [--real-seconds 60]

The values are real: ``--real-seconds`` samples of this machine taken once a second by the
controller's probe (psutil and /proc; a busy process tree carries the run's marker so the
``run.*`` series move), then repeated with their real jitter to fill the hour (each chunk is
compressed on its own, so repeating does not help compression). Target-host lanes hold the same
machine's values, shifted per host (PCP reports the same views). Measured: bytes of the metric
tables and their indexes (SQLite: ``dbstat``; PostgreSQL: ``pg_total_relation_size``, the
change over the hour), rows, and seconds to read. Prints a Markdown report and writes it to
bench/results/metrics_storage.md.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))  # the test suite's PostgreSQL

from sqlalchemy import func, select, text  # noqa: E402
from sqlalchemy.orm import Session, sessionmaker  # noqa: E402
from support.postgres import start_postgres  # noqa: E402

from steward import migrations  # noqa: E402
from steward.db import make_engine, make_session_factory  # noqa: E402
from steward.metrics import export, service  # noqa: E402
from steward.metrics.controller import ControllerProbe  # noqa: E402
from steward.metrics.lanes import Lane  # noqa: E402
from steward.metrics.models import MetricChunk, MetricGap  # noqa: E402
from steward.metrics.schemas import MetricsExport, MetricsQuery  # noqa: E402
from steward.metrics.series import LaneKind  # noqa: E402
from steward.projects.models import Project  # noqa: E402
from steward.runs.models import LaunchType, Run  # noqa: E402
from steward.runs.params import RunParams  # noqa: E402
from steward.runs.status import RunStatus  # noqa: E402

HOUR_S = 3600
INTERVAL_MS = 1000
FLUSH_S = 10  # metrics_flush_seconds' default
TABLES = ("run_metric_chunks", "run_metric_gaps")
Sample = tuple[int, dict[str, float]]  # ms after the first sample, values


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def real_samples(seconds: int) -> list[Sample]:
    """``seconds`` samples of this machine, once a second, with a busy marked process tree."""
    marker = {**os.environ, "STEWARD_RUN_UUID": "bench-storage"}
    busy = "import time\nwhile True:\n    sum(range(200000))\n    time.sleep(0.05)\n"
    children = [
        subprocess.Popen([sys.executable, "-c", busy], env=marker),
        subprocess.Popen(["sleep", str(seconds + 10)], env=marker),
    ]
    probe = ControllerProbe("bench-storage")
    taken: list[Sample] = []
    try:
        probe.sample()
        first = time.monotonic()
        due = first
        while len(taken) < seconds:
            due += 1.0
            time.sleep(max(0.0, due - time.monotonic()))
            values = probe.sample()
            if values is not None:
                taken.append((int((time.monotonic() - first) * 1000), values))
    finally:
        for child in children:
            child.kill()
            child.wait()
    return taken


def _new_run(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        project = Project(name=f"storage-{time.monotonic_ns()}")
        session.add(project)
        session.flush()
        params = RunParams(playbook="site.yml", repository_id=1, inventory_id=1)
        run = Run(
            project_id=project.id,
            status=RunStatus.SUCCESSFUL,
            launch_type=LaunchType.API,
            params=params.model_dump(),
        )
        session.add(run)
        session.commit()
        return run.id


def write_hour(sessions: sessionmaker[Session], run_id: int, real: list[Sample], hosts: int) -> int:
    """An hour of the controller and ``hosts`` hosts, flushed every 10 s as a run does; rows."""
    start_ms = int(time.time() * 1000) - HOUR_S * 1000
    lanes = [Lane(LaneKind.CONTROLLER, "controller.example.org", INTERVAL_MS)]
    lanes += [Lane(LaneKind.HOST, f"web-{n:03d}.example.org", INTERVAL_MS) for n in range(hosts)]
    rows = 0
    for second in range(0, HOUR_S, FLUSH_S):
        for n, lane in enumerate(lanes):
            for k in range(second, second + FLUSH_S):
                offset, values = real[(k + 7 * n) % len(real)]
                jitter = offset % INTERVAL_MS  # the real sample's lateness
                lane.add(start_ms + k * INTERVAL_MS + jitter, values)
        written: list[MetricChunk | MetricGap] = []
        for lane in lanes:
            chunk, gaps = lane.take(run_id)
            written += gaps if chunk is None else [chunk, *gaps]
        with sessions() as session:  # as Recording._flush
            session.add_all(written)
            session.commit()
        rows += len(written)
    return rows


def _sqlite_bytes(path: Path) -> int:
    with sqlite3.connect(path) as db:
        names = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE tbl_name IN (?, ?)", TABLES
            ).fetchall()
        ]
        marks = ",".join("?" for _ in names)
        total = db.execute(f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({marks})", names)  # noqa: S608
        return int(total.fetchone()[0] or 0)


def _postgres_bytes(sessions: sessionmaker[Session]) -> int:
    with sessions() as session:
        total = 0
        for table in TABLES:
            total += int(
                session.scalar(text("SELECT pg_total_relation_size(:t)"), {"t": table}) or 0
            )
        return total


def measure(url: str, real: list[Sample], hosts: int, size: Any) -> dict[str, Any]:
    engine = make_engine(url)
    sessions = make_session_factory(engine)
    run_id = _new_run(sessions)
    before = size(sessions)
    started = time.monotonic()
    rows = write_hour(sessions, run_id, real, hosts)
    write_s = time.monotonic() - started
    after = size(sessions)
    with sessions() as session:
        samples, blob = session.execute(
            select(func.sum(MetricChunk.count), func.sum(func.length(MetricChunk.data))).where(
                MetricChunk.run_id == run_id
            )
        ).one()
    reads: dict[str, float] = {}
    for points in (500, 5000):
        started = time.monotonic()
        with sessions() as session:
            answer = service.read(session, run_id, MetricsQuery(points=points))
        reads[f"read_{points}"] = time.monotonic() - started
        assert len(answer.lanes) == hosts + 1
        assert all(len(lane.times) == min(points, HOUR_S) for lane in answer.lanes)
    started = time.monotonic()
    with sessions() as session:
        answer = service.read(
            session, run_id, MetricsQuery(points=500, kind=LaneKind.CONTROLLER, series="cpu.user")
        )
    reads["read_one_series"] = time.monotonic() - started
    query = MetricsExport()
    started = time.monotonic()
    exported = sum(
        len(piece) for piece in export.csv_text(sessions, run_id, query, service.window(query))
    )
    reads["export_csv"] = time.monotonic() - started
    engine.dispose()
    lanes = hosts + 1
    return {
        "lanes": lanes,
        "rows": rows,
        "samples": int(samples),
        "blob": int(blob),
        "bytes": after - before,
        "write_s": write_s,
        "export_bytes": exported,
        **reads,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=10, help="target hosts beside the controller")
    parser.add_argument("--real-seconds", type=int, default=60, help="real samples to repeat")
    parser.add_argument("--only", choices=["sqlite", "postgresql"])
    args = parser.parse_args()
    load_before = "/".join(f"{v:.2f}" for v in os.getloadavg())
    _log(f"{args.real_seconds} real samples, once a second")
    real = real_samples(args.real_seconds)
    results: dict[str, dict[str, Any]] = {}
    root = Path(tempfile.mkdtemp(prefix="steward-bench-metrics-storage-"))
    try:
        if args.only in (None, "sqlite"):
            path = root / "steward.db"
            url = f"sqlite:///{path}"
            migrations.upgrade(url)
            _log("SQLite: an hour")
            results["SQLite"] = measure(url, real, args.hosts, lambda _: _sqlite_bytes(path))
        if args.only in (None, "postgresql"):
            pg_dir = Path(tempfile.mkdtemp(prefix="steward-bench-pg-"))  # chowned when root
            postgres = start_postgres(pg_dir)
            try:
                url = postgres.url(postgres.create_database())
                migrations.upgrade(url)
                _log("PostgreSQL: an hour")
                results["PostgreSQL"] = measure(url, real, args.hosts, _postgres_bytes)
            finally:
                postgres.stop()
                shutil.rmtree(pg_dir, ignore_errors=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    report = _report(args, results, load_before)
    print(report)
    out = BENCH / "results"
    out.mkdir(exist_ok=True)
    (out / "metrics_storage.md").write_text(report)
    return 0


def _report(args: argparse.Namespace, results: dict[str, dict[str, Any]], load: str) -> str:
    rows = []
    for name, r in results.items():
        per_lane = r["bytes"] / r["lanes"]
        rows.append(
            f"| {name} | {r['lanes']} | {r['rows']:,} | {r['samples']:,} "
            f"| **{r['bytes'] / 1024:,.0f} KiB** | {per_lane / 1024:,.0f} KiB "
            f"| {r['bytes'] / r['samples']:.1f} ({r['blob'] / r['samples']:.1f}) "
            f"| {r['write_s']:.1f} | {r['read_500']:.2f} / {r['read_5000']:.2f} "
            f"| {r['read_one_series']:.2f} | {r['export_csv']:.2f} "
            f"({r['export_bytes'] / 2**20:.0f} MiB) |"
        )
    after = "/".join(f"{v:.2f}" for v in os.getloadavg())
    return "\n".join(
        [
            f"# Host metrics: one run-hour in the database ({time.strftime('%Y-%m-%d %H:%M')})",
            "",
            f"The controller and {args.hosts} target hosts, a sample a second each for an hour, "
            f"written in chunks of {FLUSH_S} s as a run does; values from {args.real_seconds} "
            f"real samples of this machine. Load average before {load}, after {after}; "
            f"{os.cpu_count()} CPUs. PostgreSQL: the test suite's server (fsync off).",
            "",
            "| database | lanes | rows | samples | tables + indexes | per lane-hour "
            "| bytes a sample (blob alone) | write s | read, averaged to 500 / 5000 points, s "
            "| read one series of the controller, s | CSV export of every sample, s |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )


if __name__ == "__main__":
    sys.exit(main())
