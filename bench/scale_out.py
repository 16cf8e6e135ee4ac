"""Scale-out benchmark: many small runs posted at once, drained by 2 Celery workers (PostgreSQL,
Redis) beside the embedded dispatcher (SQLite) in the same invocation; and the recorder's
sustained ingest of events into PostgreSQL.

    .venv/bin/python bench/scale_out.py [--runs 500] [--slots 2] [--events 50000]

Every process runs on 127.0.0.1 and is stopped by PID. Prints a Markdown report and writes it
to bench/results/scale_out.md. The issue asks for 500 runs; the default is smaller because each
run is a real ansible-playbook (about a second of CPU) and the machine has 2 cores.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime as dt
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))  # the cluster harness of tests/cluster

import httpx2  # noqa: E402
from cluster.harness import Cluster, Project, Redis, cluster_of  # noqa: E402
from support.postgres import PostgresServer, start_postgres  # noqa: E402
from support.server import Server  # noqa: E402

from steward import migrations  # noqa: E402
from steward.db import make_engine, make_session_factory  # noqa: E402
from steward.execution.recorder import Recorder  # noqa: E402
from steward.masking import Masker  # noqa: E402
from steward.projects.models import Project as ProjectRow  # noqa: E402
from steward.runs.models import LaunchType, Run  # noqa: E402
from steward.runs.params import RunParams  # noqa: E402
from steward.runs.status import RunStatus  # noqa: E402


def _log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _when(value: str) -> dt.datetime:
    return dt.datetime.fromisoformat(value)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def drain(api: httpx2.Client, root: Path, runs: int, label: str) -> dict[str, Any]:
    """Post ``runs`` runs of a one-task playbook at once (8 clients), wait for all to end;
    runs/minute from the first post to the last finish, queue->start latency percentiles."""
    project = Project.make(api, root, name=f"bench-{label}")
    template = project.template("ok.yml")
    posted_at = time.time()

    def post(_: int) -> int:
        run_id: int = project.launch(template)
        return run_id

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        ids = list(pool.map(post, range(runs)))
    post_seconds = time.time() - posted_at
    done: dict[int, dict[str, Any]] = {}
    while len(done) < len(ids):
        page = api.get(f"{project.base}/runs", params={"limit": 500}).json()["items"]
        for run in page:
            if run["finished_at"]:
                done[run["id"]] = run
        if len(done) < len(ids):
            time.sleep(1)
    finished = [done[i] for i in ids]
    statuses = {r["status"] for r in finished}
    first = min(_when(r["created_at"]) for r in finished)
    last = max(_when(r["finished_at"]) for r in finished)
    latency = [(_when(r["started_at"]) - _when(r["created_at"])).total_seconds() for r in finished]
    minutes = (last - first).total_seconds() / 60
    return {
        "mode": label,
        "runs": runs,
        "statuses": sorted(statuses),
        "post_seconds": post_seconds,
        "drain_seconds": (last - first).total_seconds(),
        "runs_per_minute": runs / minutes,
        "start_p50": _percentile(latency, 0.5),
        "start_p95": _percentile(latency, 0.95),
    }


def idle_latency(api: httpx2.Client, root: Path, label: str, runs: int = 5) -> float:
    """Median queue->start latency of runs posted one at a time to idle workers: the cost of
    the delivery itself (publish, Redis, claim) rather than of waiting for a slot."""
    project = Project.make(api, root, name=f"idle-{label.split()[0]}")
    template = project.template("ok.yml")
    latency = []
    for _ in range(runs):
        run = project.wait(project.launch(template), timeout=120)
        latency.append((_when(run["started_at"]) - _when(run["created_at"])).total_seconds())
    return statistics.median(latency)


def ingest(database_url: str, events: int) -> dict[str, Any]:
    """Feed ``events`` runner-like events (one stdout line each) to a Recorder as fast as they
    come and measure until every one is stored: the sustained rate of the writer thread."""
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    with sessions() as session:
        project = ProjectRow(name="ingest")
        session.add(project)
        session.flush()
        run = Run(
            project_id=project.id,
            status=RunStatus.RUNNING,
            launch_type=LaunchType.API,
            params=RunParams(playbook="x.yml", repository_id=1, inventory_id=1).model_dump(),
        )
        session.add(run)
        session.commit()
        run_id = run.id
    recorder = Recorder(
        sessions, run_id, Masker(["s3cret"]), heartbeat=lambda s: None, heartbeat_seconds=60
    )
    started = time.perf_counter()
    for n in range(1, events + 1):
        recorder.add(
            {
                "event": "runner_on_ok",
                "counter": n,
                "uuid": f"{n:036d}",
                "stdout": f"ok: [web{n % 50:02d}] => (item={n})",
                "event_data": {"host": f"web{n % 50:02d}", "task": "tick", "res": {"n": n}},
            }
        )
    recorder.close()
    seconds = time.perf_counter() - started
    with sessions() as session:
        stored = session.get_one(Run, run_id).event_count
    engine.dispose()
    return {"events": events, "stored": stored, "seconds": seconds, "per_second": events / seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--slots", type=int, default=2, help="concurrency of each of 2 workers")
    parser.add_argument("--events", type=int, default=50_000)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="steward-bench-cluster-"))
    results: list[dict[str, Any]] = []
    pg_dir = Path(tempfile.mkdtemp(prefix="steward-bench-pg-"))  # chowned to postgres as root
    postgres: PostgresServer = start_postgres(pg_dir)
    redis = Redis(root)
    redis.start()
    try:
        quiet = {"lease_seconds": "30", "heartbeat_seconds": "5", "redeliver_seconds": "10"}
        (root / "c").mkdir()
        with cluster_of(root / "c", postgres, redis, **quiet) as cluster:
            results.append(_cluster_drain(cluster, args.runs, args.slots))
        embedded_dir = root / "embedded"
        embedded_dir.mkdir()
        settings = {"max_parallel_runs": str(2 * args.slots), "local_repository_roots": str(root)}
        with Server(embedded_dir / "data", **settings).running() as server, server.api() as api:
            _log(f"embedded: {args.runs} runs, {2 * args.slots} slots")
            idle = idle_latency(api, root, "embedded")
            results.append({**drain(api, root, args.runs, "embedded (SQLite)"), "idle_start": idle})
        database = postgres.create_database()
        migrations.upgrade(postgres.url(database))
        _log(f"ingest: {args.events} events")
        ingested = ingest(postgres.url(database), args.events)
    finally:
        redis.stop()
        postgres.stop()
        shutil.rmtree(root, ignore_errors=True)
        shutil.rmtree(pg_dir, ignore_errors=True)
    report = _report(results, ingested, args)
    print(report)
    out = BENCH / "results"
    out.mkdir(exist_ok=True)
    (out / "scale_out.md").write_text(report)
    return 0


def _cluster_drain(cluster: Cluster, runs: int, slots: int) -> dict[str, Any]:
    server = cluster.server("api")
    for name in ("worker-a", "worker-b"):
        cluster.worker(name, concurrency=slots)
    with server.api() as api:
        _log(f"cluster: {runs} runs, 2 workers x {slots}")
        label = "cluster (PostgreSQL, Redis, 2 workers)"
        idle = idle_latency(api, cluster.root, label)
        return {**drain(api, cluster.root, runs, label), "idle_start": idle}


def _report(results: list[dict[str, Any]], ingested: dict[str, Any], args: Any) -> str:
    lines = [
        f"# Scale-out: {args.runs} small runs posted at once, 2 x {args.slots} slots",
        "",
        "| mode | runs | final statuses | post all (s) | drain (s) | runs/min"
        " | queue->start p50 (s) | p95 (s) | idle queue->start (s) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r['mode']} | {r['runs']} | {', '.join(r['statuses'])} | {r['post_seconds']:.1f}"
            f" | {r['drain_seconds']:.1f} | {r['runs_per_minute']:.0f} | {r['start_p50']:.1f}"
            f" | {r['start_p95']:.1f} | {r['idle_start']:.2f} |"
        )
    lines += [
        "",
        f"Recorder ingest into PostgreSQL: {ingested['events']} events ({ingested['stored']}"
        f" stored) in {ingested['seconds']:.1f} s = **{ingested['per_second']:.0f} events/s**"
        " sustained (one run's writer thread, batches of 50 ms, masking included).",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
