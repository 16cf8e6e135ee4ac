"""The hosts view with 100,000 runs and 1,000 hosts in one project (issue 27's target: the host
page answers in <= 100 ms p95).

    .venv/bin/python bench/hosts_view.py [--runs N] [--hosts N] [--pages N] [--metrics-every N]

Starts a real `steward serve`, creates a project whose static inventory lists the hosts
(db0000 … db0999, in 10 groups) through the API, then inserts N finished runs straight into its
SQLite database: each reaches 5 hosts, with two events per host (one changed), and keeps
``project_hosts`` as the recorder would. Every ``--metrics-every``-th run (10: one in ten) has
host metrics of its 5 hosts (3 chunks of 10 samples each, a 30 s run); each host has current
facts (~4 KB) and 20 points of their history (keyframes and deltas, as ``hosts.facts`` keeps
them), a latest health check and a week of hourly checks. Then opens host pages for random hosts
— every request the console's host page makes: the host, its runs (50), the tasks that changed
it (50), its health (7 days), its metrics per run (30 runs), its facts, their history (50) and
its drift — and the hosts list, and prints p50/p95/worst in milliseconds (wall, client side,
the server beside it on this machine).

Measured 2026-11-28 (2 cores, load average 10-12 from other sessions, SQLite), 100,000 runs, 1,000
hosts, 100 pages: every request p95 <= 66 ms (metrics per run 54-56 ms); the eight one after
another p50 89-113 ms, p95 261-336 ms. Details: bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from harness import Api, Server, finished_run_row, restart_template
from sqlalchemy import Table, text

from steward.db import make_engine
from steward.health.models import HostCheck, HostHealth
from steward.hosts import factdiff
from steward.hosts.models import HostFactPoint, HostFacts
from steward.metrics import packing
from steward.metrics.models import MetricChunk
from steward.metrics.series import HOST_SERIES, stored_names
from steward.runs.models import Run, RunEvent, RunHost

BATCH = 5_000
HOSTS_PER_RUN = 5
CHUNKS_PER_LANE = 3  # a 30 s run, flushed every 10 s
SAMPLES_PER_CHUNK = 10
FACT_POINTS = 20
HEALTH_HOURS = 7 * 24


def _inventory(hosts: int) -> str:
    groups: dict[int, list[str]] = {}
    for n in range(hosts):
        groups.setdefault(n % 10, []).append(f"db{n:04d} tier=t{n % 3}")
    return "".join(f"[g{g}]\n" + "\n".join(members) + "\n" for g, members in groups.items())


def _chunk_blob(pick: random.Random) -> bytes:
    """One chunk of a host lane: 10 samples a second apart of every host series."""
    times = list(range(0, SAMPLES_PER_CHUNK * 1000, 1000))
    columns = [[pick.uniform(0, 100) for _ in times] for _ in HOST_SERIES]
    return packing.pack(0, times, columns)


def _fill(
    database: Path, project: int, template: int, count: int, hosts: int, metrics_every: int
) -> None:
    engine = make_engine(f"sqlite:///{database}")
    runs = cast(Table, Run.__table__)
    run_hosts, events = cast(Table, RunHost.__table__), cast(Table, RunEvent.__table__)
    chunks = cast(Table, MetricChunk.__table__)
    blobs = [_chunk_blob(random.Random(n)) for n in range(8)]  # noqa: S311 - figures, no secret
    layout = stored_names(HOST_SERIES)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=365)
    pick = random.Random(27)  # noqa: S311 - a fixed sample, not a secret
    with engine.begin() as conn:
        for first in range(0, count, BATCH):
            rows = []
            for n in range(first, min(first + BATCH, count)):
                at = start + dt.timedelta(seconds=n * 300)
                rows.append(
                    finished_run_row(project, template, n, at, event_count=2 * HOSTS_PER_RUN)
                )
            conn.execute(runs.insert(), rows)
            ids = [
                r[0]
                for r in conn.execute(
                    runs.select()
                    .with_only_columns(runs.c.id)
                    .order_by(runs.c.id.desc())
                    .limit(len(rows))
                )
            ]
            host_rows, event_rows, chunk_rows = [], [], []
            for run_id in ids:
                for h in pick.sample(range(hosts), HOSTS_PER_RUN):
                    name = f"db{h:04d}"
                    host_rows.append({"run_id": run_id, "host": name, "ok": 2, "changed": 1})
                    if metrics_every and run_id % metrics_every == 0:
                        begin = int(start.timestamp() * 1000) + run_id * 300_000
                        for c in range(CHUNKS_PER_LANE):
                            at_ms = begin + c * SAMPLES_PER_CHUNK * 1000
                            chunk_rows.append(
                                {
                                    "run_id": run_id,
                                    "kind": "host",
                                    "host": name,
                                    "start_ms": at_ms,
                                    "end_ms": at_ms + (SAMPLES_PER_CHUNK - 1) * 1000,
                                    "count": SAMPLES_PER_CHUNK,
                                    "series": layout,
                                    "data": blobs[(run_id + c) % len(blobs)],
                                }
                            )
                    for c, changed in ((2 * h, False), (2 * h + 1, True)):
                        event_rows.append(
                            {
                                "run_id": run_id,
                                "counter": c,
                                "event": "runner_on_ok",
                                "host": name,
                                "task": "apply patch" if changed else "check",
                                "changed": changed,
                                "data": {},
                            }
                        )
            conn.execute(run_hosts.insert(), host_rows)
            conn.execute(events.insert(), event_rows)
            if chunk_rows:
                conn.execute(chunks.insert(), chunk_rows)
        conn.execute(  # what the recorder keeps as recaps arrive (revision 0004's backfill)
            text(
                "INSERT INTO project_hosts (project_id, name, first_seen_at, last_seen_at,"
                " last_run_id, last_outcome, runs) SELECT r.project_id, h.host,"
                " MIN(r.created_at), MAX(r.created_at), MAX(r.id), 'changed', COUNT(*)"
                " FROM run_hosts h JOIN runs r ON r.id = h.run_id GROUP BY r.project_id, h.host"
            )
        )
    engine.dispose()


def _facts(n: int, h: int) -> dict[str, Any]:
    """A host's facts at its ``n``-th point: about 4 KB, its kernel and a package move."""
    return {
        "ansible_kernel": f"6.1.{n}",
        "ansible_hostname": f"db{h:04d}",
        "ansible_distribution": "Debian",
        "ansible_distribution_version": "12",
        "ansible_memtotal_mb": 16_384,
        "ansible_processor_vcpus": 8,
        "ansible_mounts": [
            {"mount": m, "device": f"/dev/sd{m[-1]}", "fstype": "ext4", "size_total": 10**11}
            for m in ("/", "/boot", "/u01", "/u02", "/var")
        ],
        "ansible_interfaces": ["lo", "eth0", "eth1"],
        "packages": {f"pkg{p}": [{"version": f"1.{p}.{n if p == 7 else 0}"}] for p in range(60)},
    }


def _fill_hosts(database: Path, project: int, inventory: int, hosts: int) -> None:
    """Facts (current and 20 points), the latest health check and a week of hourly checks of
    every host, as the recorder and the periodic pass keep them."""
    engine = make_engine(f"sqlite:///{database}")
    now = dt.datetime.now(dt.UTC)
    with engine.begin() as conn:
        for first in range(0, hosts, 100):
            facts_rows, point_rows, latest_rows, check_rows = [], [], [], []
            for h in range(first, min(first + 100, hosts)):
                name = f"db{h:04d}"
                before: dict[str, Any] = {}
                for n in range(FACT_POINTS):
                    after = _facts(n, h)
                    chain = n % 16
                    data = factdiff.pack(after if chain == 0 else factdiff.delta(before, after))
                    point_rows.append(
                        {
                            "project_id": project,
                            "name": name,
                            "gathered_at": now - dt.timedelta(days=FACT_POINTS - n),
                            "digest": factdiff.digest(after),
                            "chain": chain,
                            "data": data,
                        }
                    )
                    before = after
                text = factdiff.canonical(before)
                facts_rows.append(
                    {
                        "project_id": project,
                        "name": name,
                        "data": factdiff.pack(before),
                        "size": len(text),
                        "dropped": [],
                        "updated_at": now,
                    }
                )
                latest_rows.append(
                    {
                        "inventory_id": inventory,
                        "host": name,
                        "checked_at": now,
                        "status": "refused" if h % 20 == 0 else "reachable",
                        "tcp_ms": 0.4,
                        "banner_ms": 3.1,
                        "reason": "",
                    }
                )
                for hour in range(HEALTH_HOURS):
                    check_rows.append(
                        {
                            "project_id": project,
                            "inventory_id": inventory,
                            "host": name,
                            "checked_at": now - dt.timedelta(hours=hour),
                            "status": "refused" if (h + hour) % 50 == 0 else "reachable",
                            "tcp_ms": 0.4,
                            "banner_ms": 3.1,
                            "reason": "",
                            "trigger": "periodic",
                        }
                    )
            conn.execute(cast(Table, HostFacts.__table__).insert(), facts_rows)
            conn.execute(cast(Table, HostFactPoint.__table__).insert(), point_rows)
            conn.execute(cast(Table, HostHealth.__table__).insert(), latest_rows)
            conn.execute(cast(Table, HostCheck.__table__).insert(), check_rows)
    engine.dispose()


def _ms(api: Api, path: str, **params: Any) -> float:
    began = time.perf_counter()
    api.get(path, **params)
    return (time.perf_counter() - began) * 1000


def _row(name: str, samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[max(0, round(0.95 * len(ordered)) - 1)]
    median = statistics.median(ordered)
    return f"| {name} | {median:.1f} | {p95:.1f} | {ordered[-1]:.1f} | {len(ordered)} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--hosts", type=int, default=1_000)
    parser.add_argument("--pages", type=int, default=100, help="host pages opened")
    parser.add_argument(
        "--metrics-every", type=int, default=10, help="one run in N has host metrics (0: none)"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="steward-bench-hosts-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = restart_template(api, workdir / "repo", "hosts")
                inventory = api.post(
                    f"/projects/{project}/inventories",
                    {
                        "name": "fleet",
                        "kind": "static",
                        "format": "ini",
                        "content": _inventory(args.hosts),
                    },
                )
                began = time.perf_counter()
                database = server.data_dir / "steward.db"
                _fill(database, project, template, args.runs, args.hosts, args.metrics_every)
                _fill_hosts(database, project, inventory["id"], args.hosts)
                print(
                    f"inserted {args.runs} runs in {time.perf_counter() - began:.1f} s",
                    file=sys.stderr,
                )
                base = f"/projects/{project}/hosts"
                pick = random.Random(1)  # noqa: S311 - a fixed sample, not a secret
                page: list[float] = []
                parts: dict[str, list[float]] = {
                    "host": [],
                    "runs (50)": [],
                    "changes (50)": [],
                    "health (7 days)": [],
                    "metrics per run (30)": [],
                    "facts": [],
                    "facts history (50)": [],
                    "drift": [],
                }
                sampled = 0
                for _ in range(args.pages):
                    name = f"db{pick.randrange(args.hosts):04d}"
                    began = time.perf_counter()
                    metrics = api.get(f"{base}/{name}/metrics", limit=30)
                    metrics_ms = (time.perf_counter() - began) * 1000
                    sampled += len(metrics["runs"])
                    took = [
                        _ms(api, f"{base}/{name}"),
                        _ms(api, f"{base}/{name}/runs", limit=50),
                        _ms(api, f"{base}/{name}/changes", limit=50),
                        _ms(api, f"{base}/{name}/health", days=7),
                        metrics_ms,
                        _ms(api, f"{base}/{name}/facts"),
                        _ms(api, f"{base}/{name}/facts/history", limit=50),
                        _ms(api, f"{base}/{name}/drift"),
                    ]
                    for key, ms in zip(parts, took, strict=True):
                        parts[key].append(ms)
                    page.append(sum(took))
                listing = [_ms(api, base, limit=50) for _ in range(20)]
                searched = [_ms(api, base, limit=50, group="g3", var="tier=t1") for _ in range(20)]
            finally:
                api.close()
    print(f"\n### Hosts view: {args.runs:,} runs, {args.hosts:,} hosts (SQLite, ms per request)\n")
    print(f"(host metrics: {sampled / max(args.pages, 1):.1f} runs per host page on average)\n")
    print("| request | p50 ms | p95 ms | worst ms | requests |")
    print("|---|---|---|---|---|")
    print(_row("host page (its 8 requests one after another)", page))
    for key, samples in parts.items():
        print(_row(f"  host page: {key}", samples))
    print(_row("hosts list, first page (50)", listing))
    print(_row("hosts list, group + variable", searched))
    return 0


if __name__ == "__main__":
    sys.exit(main())
