"""The plan page of a plan of 200 hosts x 50 tasks: its summary in at most 1 s (issue 26).

    .venv/bin/python bench/plan_page.py [--hosts N] [--tasks N] [--repeat N] [--no-console]

Starts a real `steward serve` (the built console mounted), creates a project and template
through the API, inserts a finished plan straight into its SQLite database (a ``runs`` row of
kind plan, its ``plans`` row, and a ``run_changes`` row per host and task: a unified diff of a
config file each, two tasks whose outcome is unknown), then times the API requests of the plan
page (the plan read with the summary, the first page of tasks, one task's hosts with their
diffs), p50 and p95 over repeats, and, in Debian Chromium (frontend/e2e/plan-perf.spec.ts,
skipped unless STEWARD_PLAN_PERF=1), how long until the summary line and the first task are
visible. Prints a Markdown table with the target.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from harness import ADMIN_PASSWORD, Api, Server, finished_run_row, restart_template
from sqlalchemy import Table

from steward.db import make_engine
from steward.runs.models import Plan, Run, RunChange

FRONTEND = Path(__file__).resolve().parent.parent / "frontend"
TARGET_MS = 1000
UNKNOWN_TASKS = 2  # the first tasks' outcome cannot be predicted (skipped in check mode)


def _diff(host: str, task: int) -> str:
    """What Ansible reports for a template/copy task: a unified diff of a ~20-line file."""
    before = [f"# {host} task {task}", *(f"setting_{n} = {n}" for n in range(18))]
    after = [*before[:9], f"setting_9 = {task * 10}", *before[10:], "listen = 0.0.0.0"]
    lines = [
        f"--- before: /etc/app/conf.d/{task:02}.conf",
        f"+++ after: /etc/app/conf.d/{task:02}.conf",
    ]
    lines.append("@@ -1,19 +1,20 @@")
    lines += [f" {line}" for line in before[:9]]
    lines += [f"-{before[9]}", f"+{after[9]}"]
    lines += [f" {line}" for line in before[10:]]
    lines.append(f"+{after[-1]}")
    return "\n".join(lines) + "\n"


def _insert_plan(database: Path, project: int, template: int, hosts: int, tasks: int) -> int:
    engine = make_engine(f"sqlite:///{database}")
    runs, plans = cast(Table, Run.__table__), cast(Table, Plan.__table__)
    changes = cast(Table, RunChange.__table__)
    now = dt.datetime.now(dt.UTC)
    row = finished_run_row(project, template, 1, now - dt.timedelta(minutes=5), kind="plan")
    row["event_count"] = hosts * tasks + tasks + 2
    with engine.begin() as conn:
        inserted = conn.execute(runs.insert().values(**row)).inserted_primary_key
        assert inserted is not None
        run_id = int(inserted[0])
        conn.execute(plans.insert().values(run_id=run_id, expires_at=now + dt.timedelta(hours=24)))
        rows: list[dict[str, Any]] = []
        counter = 1
        for task in range(tasks):
            counter += 1  # the task's start event
            unknown = task < UNKNOWN_TASKS
            for host in range(hosts):
                counter += 1
                name = f"db{host:03}"
                rows.append(
                    {
                        "run_id": run_id,
                        "counter": counter,
                        "host": name,
                        "task": f"configure part {task}",
                        "task_path": f"roles/app/tasks/main.yml:{10 + task * 6}",
                        "occurrence": 1,
                        "action": "ansible.builtin.command"
                        if unknown
                        else "ansible.builtin.template",
                        "outcome": "unknown" if unknown else "change",
                        "reason": "skipped in check mode: the module does not support it"
                        if unknown
                        else "",
                        "diff": "" if unknown else _diff(name, task),
                        "unplanned": False,
                    }
                )
        conn.execute(changes.insert(), rows)
    engine.dispose()
    return run_id


def _percentiles(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return statistics.median(ordered), p95


def _measure(api: Api, path: str, repeat: int, **params: Any) -> tuple[float, float, int]:
    samples, size = [], 0
    for _ in range(repeat):
        began = time.perf_counter()
        response = api.http.get(path, params=params)
        samples.append((time.perf_counter() - began) * 1000)
        response.raise_for_status()
        size = len(response.content)
    return (*_percentiles(samples), size)


def _console(url: str, page: str) -> dict[str, Any]:
    env = {
        **os.environ,
        "STEWARD_PLAN_PERF": "1",
        "STEWARD_PLAN_PERF_URL": url,
        "STEWARD_PLAN_PERF_PASSWORD": ADMIN_PASSWORD,
        "STEWARD_PLAN_PERF_PAGE": page,
    }
    subprocess.run(
        ["npx", "playwright", "test", "e2e/plan-perf.spec.ts", "--workers=1"],
        cwd=FRONTEND,
        env=env,
        check=True,
    )
    figures: dict[str, Any] = json.loads(
        (FRONTEND / "test-artifacts" / "plan-perf.json").read_text()
    )
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hosts", type=int, default=200)
    parser.add_argument("--tasks", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--no-console", action="store_true", help="the API only (no Chromium)")
    args = parser.parse_args()
    if not args.no_console:
        subprocess.run(["npm", "run", "build"], cwd=FRONTEND, check=True, capture_output=True)
    with tempfile.TemporaryDirectory(prefix="steward-bench-plan-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = restart_template(api, workdir / "repo", "plan-page")
                run_id = _insert_plan(
                    server.data_dir / "steward.db", project, template, args.hosts, args.tasks
                )
                plan = f"/projects/{project}/runs/{run_id}/plan"
                summary = api.get(plan)["summary"]
                first = api.get(f"{plan}/tasks", limit=50)["items"]
                task = first[UNKNOWN_TASKS]["key"]  # the first task that would change
                cases = {
                    "plan read (summary, counts, hosts, first results)": _measure(
                        api, plan, args.repeat
                    ),
                    "first task page (50 tasks)": _measure(
                        api, f"{plan}/tasks", args.repeat, limit=50
                    ),
                    "one task's hosts (50 diffs)": _measure(
                        api, f"{plan}/tasks/{task}/hosts", args.repeat, limit=50
                    ),
                }
                root = server.base_url.removesuffix("/api/v1")
                console = (
                    {} if args.no_console else _console(root, f"/projects/{project}/runs/{run_id}")
                )
            finally:
                api.close()
    print(
        f"\n### Plan page of {args.hosts} hosts x {args.tasks} tasks"
        f" ({args.hosts * args.tasks:,} results; SQLite; {args.repeat} repeats)\n"
    )
    print(f"summary: {summary}\n")
    print("| measure | p50 ms | p95 ms | bytes | target |")
    print("|---|---|---|---|---|")
    for n, (name, (p50, p95, size)) in enumerate(cases.items()):
        target = f"≤ {TARGET_MS} ms" if n == 0 else ""  # the summary's request
        print(f"| {name} | {p50:.1f} | {p95:.1f} | {size:,} | {target} |")
    for name, value in console.items():
        shown = f"{value} ms" if name.endswith("_ms") else str(value)
        target = f"≤ {TARGET_MS} ms" if name.startswith("summary_visible_page") else ""
        print(f"| console: {name} | {shown} | | | {target} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
