"""How fast the home dashboard answers with 100,000 runs in the database, on SQLite and PostgreSQL.

    .venv/bin/python bench/home_dashboard.py [--runs N] [--spread-days D] [--only sqlite]

For each database: starts a real `steward serve` (SQLite in its data dir, or a throwaway
PostgreSQL cluster from the test support), creates 4 projects of 5 templates through the API,
a viewer of one project and a user holding a ``run`` grant on one template, then inserts N runs
straight into the database, spread evenly over the last ``--spread-days`` days (so the 90-day
dashboard aggregates all of them; 1 in 10 failed, 1 in 50 errored), plus 20 running and 30
queued runs; PostgreSQL is then ANALYZEd, as autovacuum would. Then times
``GET /api/v1/dashboard`` as each caller, after one untimed request (the setup of
bench/runs_list.py, with runs where the dashboard looks). Prints a Markdown table of p50 and
p95 in milliseconds and writes it to bench/results/home_dashboard.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent / "tests"))  # the real server and PostgreSQL of the tests

import httpx2  # noqa: E402
from sqlalchemy import Table, text  # noqa: E402
from support.postgres import throwaway_postgres  # noqa: E402
from support.processes import answers, wait_until_ready  # noqa: E402
from support.server import ADMIN_PASSWORD, STEWARD, Server  # noqa: E402

from steward import migrations  # noqa: E402
from steward.db import make_engine  # noqa: E402
from steward.runs.models import Run  # noqa: E402

REPEAT = 30
BATCH = 10_000
PROJECTS, TEMPLATES = 4, 5
PASSWORD = "bench-user-password"


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ok(response: httpx2.Response) -> Any:
    if response.is_error:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    return response.json() if response.content else None


def _client(server: Server, secret: str) -> httpx2.Client:
    return httpx2.Client(
        base_url=f"http://127.0.0.1:{server.port}/api/v1",
        headers={"Authorization": f"Bearer {secret}"},
        timeout=httpx2.Timeout(120),
    )


def _user(api: httpx2.Client, server: Server, username: str) -> tuple[int, str]:
    """A new user's id, and a read token of theirs."""
    user = _ok(api.post("/users", json={"username": username, "password": PASSWORD}))
    return int(user["id"]), _token(server, username, PASSWORD, "read")


def _token(server: Server, username: str, password: str, scope: str) -> str:
    """A token of ``username`` (a busy machine answers a login in more than httpx's 5 s)."""
    base = f"http://127.0.0.1:{server.port}/api/v1"
    login = httpx2.post(
        f"{base}/auth/login", json={"username": username, "password": password}, timeout=120
    )
    created = httpx2.post(
        f"{base}/users/me/tokens",
        json={"name": "bench", "scope": scope},
        cookies=login.cookies,
        headers={"X-CSRF-Token": _ok(login)["csrf_token"]},
        timeout=120,
    )
    return str(_ok(created)["token"])


def _objects(api: httpx2.Client, repo_dir: Path) -> list[tuple[int, int]]:
    """(project id, template id) of every template, projects in order."""
    pairs = []
    for p in range(PROJECTS):
        project = _ok(api.post("/projects", json={"name": f"dash-{p}"}))["id"]
        base = f"/projects/{project}"
        _ok(api.put(f"{base}/local-roots", json={"local_roots": [str(repo_dir)]}))
        repo = _ok(
            api.post(
                f"{base}/repositories", json={"name": "r", "kind": "local", "url": str(repo_dir)}
            )
        )
        inventory = _ok(
            api.post(
                f"{base}/inventories",
                json={"name": "i", "kind": "static", "format": "ini", "content": "db01\n"},
            )
        )
        for t in range(TEMPLATES):
            body = {
                "name": f"job-{t}",
                "playbook": "site.yml",
                "repository_id": repo["id"],
                "inventory_id": inventory["id"],
            }
            pairs.append((project, _ok(api.post(f"{base}/templates", json=body))["id"]))
    return pairs


def _status(n: int) -> str:
    return "failed" if n % 10 == 0 else "error" if n % 50 == 1 else "successful"


def _fill(url: str, pairs: list[tuple[int, int]], count: int, spread_days: int) -> None:
    engine = make_engine(url)
    runs = cast(Table, Run.__table__)
    now = dt.datetime.now(dt.UTC)
    step = dt.timedelta(days=spread_days) / count
    start = now - dt.timedelta(days=spread_days)

    def row(n: int, status: str, at: dt.datetime) -> dict[str, Any]:
        project, template = pairs[n % len(pairs)]
        done = status not in ("queued", "running")
        return {
            "uuid": str(uuid.uuid4()),
            "project_id": project,
            "template_id": template,
            "status": status,
            "launched_by_id": 1,
            "launch_type": "api",
            "params": {"limit": ""},
            "template_snapshot": {"name": f"job-{n % TEMPLATES}"},
            "created_at": at,
            "started_at": at if status != "queued" else None,
            "finished_at": at + dt.timedelta(seconds=30) if done else None,
            "line_count": 40,
            "event_count": 12,
            # running runs of a worker that stays alive: never reaped while measured
            "worker_id": "elsewhere:1:1" if status == "running" else "",
            "heartbeat_at": now + dt.timedelta(days=365) if status == "running" else None,
            "runner_group": "nowhere" if status == "queued" else "default",
        }

    with engine.begin() as conn:
        for first in range(0, count, BATCH):
            conn.execute(
                runs.insert(),
                [
                    row(n, _status(n), start + step * n)
                    for n in range(first, min(first + BATCH, count))
                ],
            )
        active = [row(n, "running", now) for n in range(20)]
        active += [row(n, "queued", now) for n in range(30)]
        conn.execute(runs.insert(), active)
    if engine.dialect.name == "postgresql":  # what autovacuum does soon after such a load
        with engine.connect() as conn:
            conn.execute(text("ANALYZE runs"))
    engine.dispose()


def _measure(client: httpx2.Client, **params: Any) -> tuple[float, float, dict[str, Any]]:
    samples: list[float] = []
    body: dict[str, Any] = _ok(client.get("/dashboard", params=params))  # warm-up, not timed
    for _ in range(REPEAT):
        began = time.perf_counter()
        body = _ok(client.get("/dashboard", params=params))
        samples.append((time.perf_counter() - began) * 1000)
    return statistics.median(samples), _percentile(samples, 0.95), body


@contextmanager
def _running(server: Server) -> Iterator[Server]:
    """``server`` started, given 3 minutes to answer (30 s is short on a busy machine)."""
    with server.log.open("ab") as out:
        server.proc = subprocess.Popen(
            [str(STEWARD), "serve"], env=server.env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        wait_until_ready(server.proc, lambda: answers(server.port), server.log, timeout=180)
        yield server
    finally:
        server.stop()


@contextmanager
def _database(kind: str, root: Path) -> Iterator[dict[str, str]]:
    """The settings of the server's database: SQLite in its data dir, or a fresh PostgreSQL."""
    if kind == "sqlite":
        yield {}
        return
    with throwaway_postgres(prefix="steward-bench-pg-") as postgres:
        url = postgres.url(postgres.create_database())
        migrations.upgrade(url)
        yield {"database_url": url}


def bench(
    kind: str, root: Path, runs: int, spread_days: int
) -> dict[str, tuple[float, float, str]]:
    (root / "repo").mkdir(parents=True)
    (root / "repo" / "site.yml").write_text("- hosts: all\n  tasks: []\n")
    with _database(kind, root) as settings, _running(Server(root / "data", **settings)) as server:
        url = settings.get("database_url") or f"sqlite:///{server.data_dir / 'steward.db'}"
        admin = _client(server, _token(server, "admin", ADMIN_PASSWORD, "write"))
        pairs = _objects(admin, root / "repo")
        member, secret = _user(admin, server, "viewer")
        viewer = _client(server, secret)
        role = {"user_id": member, "role": "viewer"}
        _ok(admin.put(f"/projects/{pairs[0][0]}/members", json=role))
        holder, secret = _user(admin, server, "runner")
        runner = _client(server, secret)
        project, template = pairs[1]
        _ok(
            admin.post(
                f"/projects/{project}/templates/{template}/grants",
                json={"user_id": holder, "permission": "run"},
            )
        )
        began = time.perf_counter()
        _fill(url, pairs, runs, spread_days)
        print(
            f"[{kind}] inserted {runs} runs in {time.perf_counter() - began:.1f} s", file=sys.stderr
        )
        cases: dict[str, tuple[httpx2.Client, dict[str, Any]]] = {
            "admin, 14 days, UTC": (admin, {"days": 14}),
            "admin, 90 days, Europe/Berlin": (admin, {"days": 90, "tz": "Europe/Berlin"}),
            "viewer of 1 of 4 projects, 14 days": (viewer, {"days": 14}),
            "run grant on 1 of 20 templates, 90 days": (runner, {"days": 90}),
        }
        results = {}
        for name, (client, params) in cases.items():
            p50, p95, body = _measure(client, **params)
            t = body["totals"]
            results[name] = (p50, p95, f"{t['runs']} runs, {t['failing_templates']} failing")
        for client in (admin, viewer, runner):
            client.close()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100_000)
    parser.add_argument("--spread-days", type=int, default=90)
    parser.add_argument("--only", choices=("sqlite", "postgresql"))
    args = parser.parse_args()
    kinds = [args.only] if args.only else ["sqlite", "postgresql"]
    lines = [
        f"### Dashboard with {args.runs:,} runs over {args.spread_days} days"
        f" ({REPEAT} requests each, ms)",
        "",
        "| database | caller, window | p50 ms | p95 ms | answer |",
        "|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory(prefix="steward-bench-dash-") as tmp:
        for kind in kinds:
            for name, (p50, p95, what) in bench(
                kind, Path(tmp) / kind, args.runs, args.spread_days
            ).items():
                lines.append(f"| {kind} | {name} | {p50:.1f} | {p95:.1f} | {what} |")
    report = "\n".join(lines) + "\n"
    print("\n" + report)
    (BENCH / "results").mkdir(exist_ok=True)
    (BENCH / "results" / "home_dashboard.md").write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
