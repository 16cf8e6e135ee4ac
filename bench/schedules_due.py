"""1,000 schedules due in the same minute: how long until each has launched its run, once.

    .venv/bin/python bench/schedules_due.py [--schedules N] [--tick SECONDS]

Starts a real `steward serve` (SQLite, STEWARD_SCHEDULER_TICK_SECONDS=--tick), creates one
project and template and N schedules through the API, all with the cron line ``M H * * *`` of
the same coming minute T (at least 20 s away, so every POST is done before it), waits for T,
then polls the database until N runs exist. Reports when the first and the last run were
created after T, and whether every schedule launched exactly one run. The template's playbook
is removed once the template is saved, so the runs end at once (``error``) instead of running
ansible beside the measurement; one run executes at a time.
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import psutil
from harness import Api, Server

PLAYBOOK = "- hosts: all\n  gather_facts: false\n  tasks: []\n"


def _template(api: Api, repo_dir: Path) -> tuple[int, int]:
    project = api.post("/projects", {"name": "schedules"})["id"]
    base = f"/projects/{project}"
    api.put(f"{base}/local-roots", {"local_roots": [str(repo_dir)]})
    repo = api.post(f"{base}/repositories", {"name": "r", "kind": "local", "url": str(repo_dir)})
    inventory = api.post(
        f"{base}/inventories",
        {"name": "i", "kind": "static", "format": "ini", "content": "localhost\n"},
    )
    template = api.post(
        f"{base}/templates",
        {
            "name": "nightly",
            "playbook": "site.yml",
            "repository_id": repo["id"],
            "inventory_id": inventory["id"],
        },
    )
    return int(project), int(template["id"])


def _coming_minute(lead: float) -> dt.datetime:
    """The first whole minute at least ``lead`` seconds away."""
    now = dt.datetime.now(dt.UTC)
    minute = now.replace(second=0, microsecond=0) + dt.timedelta(minutes=1)
    while (minute - now).total_seconds() < lead:
        minute += dt.timedelta(minutes=1)
    return minute


def _launched(database: Path) -> tuple[int, int, list[tuple[int, int]], str, str]:
    """(runs of schedules, schedules with one, any with more, first and last created_at)."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        total, first, last = db.execute(
            "select count(*), min(created_at), max(created_at) from runs"
            " where schedule_id is not null"
        ).fetchone()
        twice = db.execute(
            "select schedule_id, count(*) from runs where schedule_id is not null"
            " group by schedule_id having count(*) > 1"
        ).fetchall()
        once = db.execute(
            "select count(*) from (select schedule_id from runs where schedule_id is not null"
            " group by schedule_id having count(*) = 1)"
        ).fetchone()[0]
    return int(total), int(once), [(int(a), int(b)) for a, b in twice], first or "", last or ""


def _cpu(process: psutil.Process) -> float:
    """CPU seconds of the server process and its threads so far (user + system)."""
    times = process.cpu_times()
    return float(times.user + times.system)


def _stamp(text: str) -> dt.datetime:
    """A created_at as SQLite stores it (naive UTC)."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--schedules", type=int, default=1000)
    parser.add_argument("--tick", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    # what harness.Server passes on to `steward serve` (it inherits this environment)
    os.environ["STEWARD_SCHEDULER_TICK_SECONDS"] = str(args.tick)
    os.environ["STEWARD_MAX_PARALLEL_RUNS"] = "1"
    with tempfile.TemporaryDirectory(prefix="steward-bench-schedules-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text(PLAYBOOK)
        with Server(workdir) as server:
            api = Api(server.base_url)
            try:
                project, template = _template(api, workdir / "repo")
                (workdir / "repo" / "site.yml").unlink()
                # creating N schedules through the API takes a while on a busy machine
                due = _coming_minute(lead=20 + args.schedules * 0.05)
                url = f"/projects/{project}/templates/{template}/schedules"
                began = time.perf_counter()
                for n in range(args.schedules):
                    body = {
                        "name": f"s{n:04d}",
                        "kind": "cron",
                        "expression": f"{due.minute} {due.hour} * * *",
                    }
                    created = api.post(url, body)
                    assert created["next_fire_at"].startswith(due.strftime("%Y-%m-%dT%H:%M"))
                made = time.perf_counter() - began
                print(
                    f"created {args.schedules} schedules through the API in {made:.1f} s;"
                    f" all due at {due:%H:%M:%S} UTC",
                    file=sys.stderr,
                )
                process = psutil.Process(server.pid)
                time.sleep(max(0.0, (due - dt.datetime.now(dt.UTC)).total_seconds() - 0.5))
                cpu_before = _cpu(process)
                time.sleep(max(0.0, (due - dt.datetime.now(dt.UTC)).total_seconds()))
                database = server.data_dir / "steward.db"
                deadline = time.monotonic() + args.timeout
                total, cpu = 0, float("nan")
                load = os.getloadavg()[0]
                while time.monotonic() < deadline:
                    total = _launched(database)[0]
                    if total >= args.schedules:
                        cpu = _cpu(process) - cpu_before
                        break
                    time.sleep(0.05)
                time.sleep(max(2 * args.tick, 1.0))  # a second launch would show by now
                total, once, twice, first, last = _launched(database)
            finally:
                api.close()
    title = f"{args.schedules:,} schedules due at the same minute"
    print(f"\n### {title} (SQLite, tick {args.tick} s, load {load:.1f} at due)\n")
    print(
        "| runs | schedules with one run | with more | first run after due"
        " | last run after due | server CPU until then |"
    )
    print("|---|---|---|---|---|---|")
    first_after = (_stamp(first) - due).total_seconds() if first else float("nan")
    last_after = (_stamp(last) - due).total_seconds() if last else float("nan")
    print(
        f"| {total:,} | {once:,} | {len(twice)} | {first_after:.2f} s | {last_after:.2f} s"
        f" | {cpu:.2f} s |"
    )
    ok = total == args.schedules and once == args.schedules and not twice
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
