"""The hosts view with 100,000 runs and 1,000 hosts in one project (issue 27's target: the host
page answers in <= 100 ms p95).

    .venv/bin/python bench/hosts_view.py [--runs N] [--hosts N] [--pages N]

Starts a real `steward serve`, creates a project whose static inventory lists the hosts
(db0000 … db0999, in 10 groups) through the API, then inserts N finished runs straight into its
SQLite database: each reaches 5 hosts, with two events per host (one changed), and keeps
``project_hosts`` as the recorder would. Then opens host pages for random hosts — the page's
three requests (the host, its runs, the tasks that changed it) — and the hosts list, and prints
p50/p95/worst in milliseconds (wall, client side, the server beside it on this machine).
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
from steward.runs.models import Run, RunEvent, RunHost

BATCH = 5_000
HOSTS_PER_RUN = 5


def _inventory(hosts: int) -> str:
    groups: dict[int, list[str]] = {}
    for n in range(hosts):
        groups.setdefault(n % 10, []).append(f"db{n:04d} tier=t{n % 3}")
    return "".join(f"[g{g}]\n" + "\n".join(members) + "\n" for g, members in groups.items())


def _fill(database: Path, project: int, template: int, count: int, hosts: int) -> None:
    engine = make_engine(f"sqlite:///{database}")
    runs = cast(Table, Run.__table__)
    run_hosts, events = cast(Table, RunHost.__table__), cast(Table, RunEvent.__table__)
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
            host_rows, event_rows = [], []
            for run_id in ids:
                for h in pick.sample(range(hosts), HOSTS_PER_RUN):
                    name = f"db{h:04d}"
                    host_rows.append({"run_id": run_id, "host": name, "ok": 2, "changed": 1})
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
        conn.execute(  # what the recorder keeps as recaps arrive (revision 0004's backfill)
            text(
                "INSERT INTO project_hosts (project_id, name, first_seen_at, last_seen_at,"
                " last_run_id, last_outcome, runs) SELECT r.project_id, h.host,"
                " MIN(r.created_at), MAX(r.created_at), MAX(r.id), 'changed', COUNT(*)"
                " FROM run_hosts h JOIN runs r ON r.id = h.run_id GROUP BY r.project_id, h.host"
            )
        )
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
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="steward-bench-hosts-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = restart_template(api, workdir / "repo", "hosts")
                api.post(
                    f"/projects/{project}/inventories",
                    {
                        "name": "fleet",
                        "kind": "static",
                        "format": "ini",
                        "content": _inventory(args.hosts),
                    },
                )
                began = time.perf_counter()
                _fill(server.data_dir / "steward.db", project, template, args.runs, args.hosts)
                print(
                    f"inserted {args.runs} runs in {time.perf_counter() - began:.1f} s",
                    file=sys.stderr,
                )
                base = f"/projects/{project}/hosts"
                pick = random.Random(1)  # noqa: S311 - a fixed sample, not a secret
                page: list[float] = []
                parts: dict[str, list[float]] = {"host": [], "runs (50)": [], "changes (50)": []}
                for _ in range(args.pages):
                    name = f"db{pick.randrange(args.hosts):04d}"
                    took = [
                        _ms(api, f"{base}/{name}"),
                        _ms(api, f"{base}/{name}/runs", limit=50),
                        _ms(api, f"{base}/{name}/changes", limit=50),
                    ]
                    for key, ms in zip(parts, took, strict=True):
                        parts[key].append(ms)
                    page.append(sum(took))
                listing = [_ms(api, base, limit=50) for _ in range(20)]
                searched = [_ms(api, base, limit=50, group="g3", var="tier=t1") for _ in range(20)]
            finally:
                api.close()
    print(f"\n### Hosts view: {args.runs:,} runs, {args.hosts:,} hosts (SQLite, ms per request)\n")
    print("| request | p50 ms | p95 ms | worst ms | requests |")
    print("|---|---|---|---|---|")
    print(_row("host page (the three requests together)", page))
    for key, samples in parts.items():
        print(_row(f"  host page: {key}", samples))
    print(_row("hosts list, first page (50)", listing))
    print(_row("hosts list, group + variable", searched))
    return 0


if __name__ == "__main__":
    sys.exit(main())
