"""A template's stats and a runs comparison with 100,000 runs of that template in the database.

    .venv/bin/python bench/template_stats.py [--runs N]

Starts a real `steward serve`, creates one project and template through the API, inserts N
finished runs of the template straight into its SQLite database, all within the last 30 days
(one every 25 s: the worst case for the 30 days' success rate, which counts every one of them),
and, for the newest 200, 20 tasks on 2 hosts each (their results, as the recorder stores them).
Then times ``GET …/templates/{id}/stats`` for several ``last`` and ``GET …/runs/compare`` of 4
runs, and prints SQLite's plan of a 30 days' count (it must read a range of the index alone).
Prints a Markdown table (median and worst of the repetitions, in milliseconds).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any, cast

from harness import Api, Server, finished_run_row, restart_template
from sqlalchemy import Table

from steward.db import make_engine
from steward.runs.models import Run, RunEvent, RunHost

REPEAT = 7
BATCH = 10_000
WITH_TASKS = 200  # the newest runs get task results
TASKS = 20
HOSTS = ("db01", "db02")


def _results(run_id: int, started: dt.datetime) -> list[dict[str, Any]]:
    rows, at, counter = [], started, 0
    for task in range(TASKS):
        seconds = 1 + (task * 7 + run_id) % 5  # a few tasks slower than the others
        task_uuid = str(uuid.uuid4())
        for host in HOSTS:
            counter += 1
            rows.append(
                {
                    "run_id": run_id,
                    "counter": counter,
                    "event": "runner_on_ok",
                    "uuid": str(uuid.uuid4()),
                    "parent_uuid": task_uuid,
                    "host": host,
                    "play": "restart",
                    "task": f"task {task}",
                    "started_at": at,
                    "ended_at": at + dt.timedelta(seconds=seconds),
                    "duration": float(seconds),
                    "data": {},
                }
            )
        at += dt.timedelta(seconds=seconds)
    return rows


def _fill(database: Path, project: int, template: int, count: int) -> None:
    engine = make_engine(f"sqlite:///{database}")
    runs = cast(Table, Run.__table__)
    hosts, events = cast(Table, RunHost.__table__), cast(Table, RunEvent.__table__)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=25 * count + 3600)
    with engine.begin() as conn:
        for first in range(0, count, BATCH):
            rows: list[dict[str, Any]] = []
            for n in range(first, min(first + BATCH, count)):
                at = start + dt.timedelta(seconds=n * 25)
                rows.append(finished_run_row(project, template, n, at, 20 + n % 7))
            conn.execute(runs.insert(), rows)
        newest = [
            (row[0], row[1])
            for row in conn.execute(
                runs.select()
                .with_only_columns(runs.c.id, runs.c.started_at)
                .order_by(runs.c.id.desc())
                .limit(WITH_TASKS)
            )
        ]
        results = [r for run_id, started in newest for r in _results(run_id, started)]
        conn.execute(events.insert(), results)
        conn.execute(
            hosts.insert(),
            [
                {"run_id": run_id, "host": host, "ok": TASKS}
                for run_id, _ in newest
                for host in HOSTS
            ],
        )
    engine.dispose()


def _measure(api: Api, path: str, **params: Any) -> tuple[float, float, int]:
    samples, size = [], 0
    for _ in range(REPEAT):
        began = time.perf_counter()
        body = api.get(path, **params)
        samples.append((time.perf_counter() - began) * 1000)
        size = len(body.get("runs", []))
    return statistics.median(samples), max(samples), size


def _plan(database: Path, template: int) -> str:
    since = (dt.datetime.now(dt.UTC) - dt.timedelta(days=30)).isoformat(" ")
    with sqlite3.connect(database) as conn:
        rows = conn.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM runs"
            " WHERE template_id = ? AND status = 'successful' AND created_at >= ?",
            (template, since),
        ).fetchall()
    return "; ".join(str(row[-1]) for row in rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="steward-bench-stats-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = restart_template(api, workdir / "repo", "template-stats")
                began = time.perf_counter()
                database = server.data_dir / "steward.db"
                _fill(database, project, template, args.runs)
                print(
                    f"inserted {args.runs} runs in {time.perf_counter() - began:.1f} s",
                    file=sys.stderr,
                )
                stats = f"/projects/{project}/templates/{template}/stats"
                newest = api.get(f"/projects/{project}/runs", limit=4)["items"]
                ids = ",".join(str(r["id"]) for r in newest)
                cases = {
                    "stats last=20": _measure(api, stats, last=20),
                    "stats last=50 (the page's default)": _measure(api, stats, last=50),
                    "stats last=200": _measure(api, stats, last=200),
                    "compare 4 runs (20 tasks x 2 hosts)": _measure(
                        api, f"/projects/{project}/runs/compare", ids=ids
                    ),
                }
                body = api.get(stats, last=50)
                plan = _plan(database, template)
            finally:
                api.close()
    print(
        f"\n### Template stats with {args.runs:,} runs of one template (SQLite, ms per request)\n"
    )
    print("| request | median ms | worst ms | runs in the answer |")
    print("|---|---|---|---|")
    for name, (median, worst, size) in cases.items():
        print(f"| {name} | {median:.1f} | {worst:.1f} | {size} |")
    days = body["success_30_days"]
    print(f"\n30 days: {days['finished']:,} ended runs, rate {days['rate']}; plan: {plan}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
