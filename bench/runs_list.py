"""How the runs list pages with 100,000 runs in the database (keyset paging, filters).

    .venv/bin/python bench/runs_list.py [--runs N]

Starts a real `steward serve`, creates one project and template through the API, inserts N
finished runs (with per-host rows) straight into its SQLite database, then times the list
endpoints the console uses: first page, deep pages reached by following ``next_before_id``,
and the filters (status, host, template, launcher, time range), project-scoped and across
projects. Prints a Markdown table (median and worst of the repetitions, in milliseconds).
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness import Api, Server, insert_finished_runs, restart_template

REPEAT = 7


def _fill(database_url: str, project: int, template: int, count: int) -> None:
    """``count`` finished runs, one every 5 minutes; 1 in 10 failed, 1 in 100 touched db09."""
    insert_finished_runs(
        database_url,
        project,
        [template],
        count,
        dt.timedelta(seconds=300),
        lambda i: [{"run_id": i, "host": "db09" if i % 100 == 0 else "db01"}],
    )


def _time(api: Api, path: str, **params: Any) -> tuple[float, dict[str, Any]]:
    began = time.perf_counter()
    body = api.get(path, **params)
    return (time.perf_counter() - began) * 1000, body


def _measure(api: Api, path: str, **params: Any) -> tuple[float, float, int]:
    samples, items = [], 0
    for _ in range(REPEAT):
        ms, body = _time(api, path, **params)
        samples.append(ms)
        items = len(body["items"])
    return statistics.median(samples), max(samples), items


def _deep_pages(api: Api, path: str, pages: int) -> tuple[float, float, int]:
    """Follow next_before_id ``pages`` times (the "older runs" button), timing each page."""
    samples, before = [], None
    for _ in range(pages):
        params: dict[str, Any] = {"limit": 50}
        if before is not None:
            params["before_id"] = before
        ms, body = _time(api, path, **params)
        samples.append(ms)
        before = body["next_before_id"]
    return statistics.median(samples), max(samples), pages


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="steward-bench-list-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = restart_template(api, workdir / "repo", "runs-list")
                began = time.perf_counter()
                _fill(server.database_url, project, template, args.runs)
                print(
                    f"inserted {args.runs} runs in {time.perf_counter() - began:.1f} s",
                    file=sys.stderr,
                )
                runs = f"/projects/{project}/runs"
                month = (dt.datetime.now(dt.UTC) - dt.timedelta(days=200)).isoformat()
                cases = {
                    "first page (50)": _measure(api, runs, limit=50),
                    "200 pages deep, by next_before_id": _deep_pages(api, runs, 200),
                    "status=failed": _measure(api, runs, limit=50, status="failed"),
                    "host=db09 (1 run in 100)": _measure(api, runs, limit=50, host="db09"),
                    "template + launcher": _measure(
                        api, runs, limit=50, template_id=template, launched_by_id=1
                    ),
                    "time range (30 days, 200 days ago)": _measure(
                        api,
                        runs,
                        limit=50,
                        since=month,
                        until=(
                            dt.datetime.fromisoformat(month) + dt.timedelta(days=30)
                        ).isoformat(),
                    ),
                    "dashboard /runs (all projects)": _measure(api, "/runs", limit=20),
                }
            finally:
                api.close()
    print(f"\n### Runs list with {args.runs:,} runs (SQLite, ms per request)\n")
    print("| request | median ms | worst ms | items |")
    print("|---|---|---|---|")
    for name, (median, worst, items) in cases.items():
        print(f"| {name} | {median:.1f} | {worst:.1f} | {items} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
