"""What one API request costs the server: CPU and wall per request, with realistic data.

    .venv/bin/python bench/api.py [--runs N] [--requests N] [--database sqlite|postgresql|both]

On each database (both by default, as `make bench` runs it: SQLite in the server's data
directory, then a throwaway PostgreSQL on 127.0.0.1, stopped by its PID at the end), starts a
real `steward serve`, makes 50 templates and 20 users through the API, inserts N finished runs
(with per-host rows) straight into its database, then sends each kind of request the console,
the CLI and scripts send, one after another on one kept-alive connection: health, an
authenticated read with a token and with a console cookie, one run with its recap, a run read
answered 304 by its ETag, the runs list at 50 and 500, a launch (queued behind a run that holds
the project's one slot: the launch, not ansible-playbook starting beside the requests) and the
SSE stream's first event. For each: the server's CPU per request (its process's user + system
time over the batch, less what it spends idle in as long; on PostgreSQL the database's CPU
beside, its postmaster and backends alike, as SQLite's is inside the server's), and wall p50,
p95, p99 and the worst three. Then the idle RSS and the time from start to ready. Prints a
Markdown table per database with the targets of issue 29 beside. For the rows whose target is no
outlier over 3x the median, each request's time on a CPU comes from the scheduler (per thread,
/proc/<pid>/task/*/sched): an outlier is told as the server working longer (and in which thread)
or waiting (preempted; what the rest of the machine used during the batch).

Each row that misses its target is then profiled (with ``py-spy``: ``--py-spy``, else the one on
the PATH, else the dev dependencies' beside this Python; the samples of the thread holding the
GIL, so CPU only) while the same requests are sent again: where the server's time goes by
library (own time: SQL, validation, HTTP and routing, worker-thread hops, the access log,
Steward's own code) and Steward's functions that take the most (inclusive). A profile, not a
guess. py-spy needs ptrace: where it is refused, the row says so in py-spy's words.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import datetime as dt
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import httpx2
from harness import (
    ADMIN_PASSWORD,
    Api,
    Database,
    Server,
    cpu_seconds,
    database,
    insert_finished_runs,
    machine_busy_seconds,
    restart_template,
    rss_mib,
    threads_on_cpu,
    tree_cpu_seconds,
)

PROFILE_SECONDS = 8
# where a frame's own time goes, by the file it runs in (the first pattern that matches)
AREAS = (
    ("worker-thread hops (anyio, threading, queue)", r"\banyio/|\bthreading\.py|\bqueue\.py"),
    ("SQL (SQLAlchemy, sqlite3, psycopg)", r"\bsqlalchemy/|\bsqlite3/|\bpsycopg"),
    ("validation and JSON (pydantic, json)", r"\bpydantic|\bjson/"),
    ("the access log (logging)", r"\blogging/"),
    (
        "HTTP, routing, dependencies (uvicorn, starlette, fastapi)",
        r"\b(uvicorn|starlette|fastapi)/",
    ),
    ("Steward's own code", r"\bsteward/"),
    ("the event loop (asyncio)", r"\basyncio/"),
)


@dataclasses.dataclass(frozen=True)
class Target:
    """Issue 29's target of a row; a bound left None is not checked (``missed``)."""

    text: str
    cpu_ms: float | None = None  # server CPU per request
    p50_ms: float | None = None  # wall
    p95_ms: float | None = None
    no_outlier: bool = False  # none over 3x the median


Send = Callable[[], httpx2.Response]
CHEAP_READ = Target("≤ 0.7 ms", cpu_ms=0.7)
# what takes the project's one slot while the launches are timed (``_occupy``)
SLOW_PLAYBOOK = """\
- hosts: localhost
  gather_facts: false
  tasks:
    - ansible.builtin.pause:
        seconds: 3600
"""


@dataclasses.dataclass
class Result:
    name: str
    cpu_ms: float
    walls: list[float]
    target: Target
    send: Send
    database_cpu_ms: float | None = None  # PostgreSQL's, per request (SQLite's is in cpu_ms)
    # per request when outliers are the point: each of the server's threads' time on a CPU
    # (ms) and how many times it was preempted; None where the kernel does not say
    on_cpu: list[dict[int, tuple[float, int]]] | None = None
    others_cores: float = 0.0  # what the rest of the machine used during the batch, in cores

    def row(self) -> str:
        walls = sorted(self.walls)
        p = statistics.quantiles(walls, n=100)
        worst = ", ".join(f"{w:.1f}" for w in walls[-3:][::-1])
        database = "in server" if self.database_cpu_ms is None else f"{self.database_cpu_ms:.2f}"
        return (
            f"| {self.name} | {self.cpu_ms:.2f} | {database} | {p[49]:.2f} | {p[94]:.2f} |"
            f" {p[98]:.2f} | {worst} | {self.target.text}{' ✗' if self.missed() else ''} |"
        )

    def missed(self) -> list[str]:
        walls = sorted(self.walls)
        p = statistics.quantiles(walls, n=100)
        t, missed = self.target, []
        if t.cpu_ms is not None and self.cpu_ms > t.cpu_ms:
            missed.append(f"CPU {self.cpu_ms:.2f} ms > {t.cpu_ms}")
        if t.p50_ms is not None and p[49] > t.p50_ms:
            missed.append(f"p50 {p[49]:.1f} ms > {t.p50_ms}")
        if t.p95_ms is not None and p[94] > t.p95_ms:
            missed.append(f"p95 {p[94]:.1f} ms > {t.p95_ms}")
        if t.no_outlier and walls[-1] > 3 * p[49]:
            missed.append(f"worst {walls[-1]:.1f} ms > 3x the median")
        return missed

    def outliers(self, threads: dict[int, str], shown: int = 5) -> str:
        """Where the requests over 3x the median went: the server on a CPU, or waiting."""
        median = statistics.median(self.walls)
        over = sorted(
            (i for i, wall in enumerate(self.walls) if wall > 3 * median),
            key=lambda i: -self.walls[i],
        )
        head = (
            f"#### {self.name}: {len(over)} of {len(self.walls)} requests over 3x the median"
            f" ({median:.1f} ms); the rest of the machine used {self.others_cores:.2f} cores"
            " during the batch\n"
        )
        if self.on_cpu is None:
            return head + "the kernel does not say how long the server was on a CPU\n"
        totals = [sum(cpu for cpu, _ in request.values()) for request in self.on_cpu]
        cpu_median = statistics.median(totals)
        lines = [f"the server's threads on a CPU: {cpu_median:.1f} ms per request (median)"]
        waited = 0
        for i in over:
            request = self.on_cpu[i]
            preempted = sum(n for _, n in request.values())
            # off CPU: most of what it took over the median, it was not on a CPU
            off = totals[i] - cpu_median < (self.walls[i] - median) / 2
            waited += off
            busiest = sorted(request.items(), key=lambda item: -item[1][0])[:3]
            by_thread = ", ".join(
                f"{threads.get(tid, tid)} {cpu:.1f}" for tid, (cpu, _) in busiest if cpu >= 0.1
            )
            if len(lines) <= shown:
                lines.append(
                    f"  {self.walls[i]:.1f} ms: on a CPU {totals[i]:.1f} ms ({by_thread}),"
                    f" preempted {preempted} times:"
                    f" {'off CPU (waiting)' if off else 'on CPU (its own work)'}"
                )
        lines.append(
            f"{waited} of {len(over)} spent most of their time over the median off a CPU: the"
            " server waited (preempted by the machine's other processes, or for its database)"
            f" rather than worked; in the other {len(over) - waited} it worked longer (the"
            " profile below shows on what)"
        )
        return head + "\n".join(lines) + "\n"


class Bench:
    def __init__(self, pid: int, requests: int, database_pid: int | None) -> None:
        self.pid = pid
        self.requests = requests
        self.database_pid = database_pid
        self.idle_cpu_per_s, self.idle_database_cpu_per_s = self._idle_rates()

    def _database_cpu(self) -> float:
        return 0.0 if self.database_pid is None else tree_cpu_seconds(self.database_pid)

    def _idle_rates(self) -> tuple[float, float]:
        """The server's and the database's CPU per second with nothing asked of them (the
        server's background loops, and their queries)."""
        began, cpu, database = time.perf_counter(), cpu_seconds(self.pid), self._database_cpu()
        time.sleep(3)
        elapsed = time.perf_counter() - began
        return (
            (cpu_seconds(self.pid) - cpu) / elapsed,
            (self._database_cpu() - database) / elapsed,
        )

    def measure(self, name: str, send: Send, target: Target) -> Result:
        for _ in range(20):  # warm: the first requests of a kind import and compile
            send()
        walls: list[float] = []
        # outside the timed part: a few /proc reads per request, while the server is idle
        trace = target.no_outlier and threads_on_cpu(self.pid) is not None
        on_cpu: list[dict[int, tuple[float, int]]] = []
        began, cpu, database = time.perf_counter(), cpu_seconds(self.pid), self._database_cpu()
        machine, own = machine_busy_seconds(), time.process_time()
        for _ in range(self.requests):
            before = threads_on_cpu(self.pid) if trace else None
            at = time.perf_counter()
            response = send()
            walls.append((time.perf_counter() - at) * 1000)
            after = threads_on_cpu(self.pid) if trace else None
            if before is not None and after is not None:
                on_cpu.append(
                    {
                        tid: (cpu - before[tid][0], preempted - before[tid][1])
                        for tid, (cpu, preempted) in after.items()
                        if tid in before and cpu > before[tid][0]
                    }
                )
            if response.is_error:
                raise RuntimeError(f"{name}: {response.status_code} {response.text}")
        elapsed = time.perf_counter() - began
        server = cpu_seconds(self.pid) - cpu
        spent = server - self.idle_cpu_per_s * elapsed
        result = Result(name, max(spent, 0.0) * 1000 / self.requests, walls, target, send)
        result.on_cpu = on_cpu if trace else None
        others = machine_busy_seconds() - machine - server - (time.process_time() - own)
        others -= self._database_cpu() - database
        result.others_cores = max(others, 0.0) / elapsed
        if self.database_pid is not None:
            spent = self._database_cpu() - database - self.idle_database_cpu_per_s * elapsed
            result.database_cpu_ms = max(spent, 0.0) * 1000 / self.requests
        return result


def _fill(database_url: str, project: int, templates: list[int], count: int) -> int:
    """``count`` finished runs, one every 50 minutes, spread over the templates, two hosts
    each; the last run's id."""
    ids = insert_finished_runs(
        database_url,
        project,
        templates,
        count,
        dt.timedelta(seconds=3000),
        lambda i: [{"run_id": i, "host": h, "ok": 5, "changed": 1} for h in ("db01", "db02")],
    )
    return int(max(ids))


def _cookie_client(base_url: str) -> httpx2.Client:
    login = httpx2.post(
        f"{base_url}/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}
    )
    login.raise_for_status()
    return httpx2.Client(base_url=base_url, cookies=login.cookies, timeout=60)


def _first_event(api: Api, path: str) -> httpx2.Response:
    with api.http.stream("GET", path, params={"after": -1}) as response:
        for line in response.iter_lines():
            if line.startswith("data:"):
                break
        return response


def _scenario(
    server: Server, database: Database, api: Api, workdir: Path, args: argparse.Namespace
) -> tuple[list[Result], list[str]]:
    """The rows of the table, and a profile of each row that missed its target."""
    project, template = restart_template(api, workdir / "repo", "api")
    base = f"/projects/{project}"
    first = api.get(f"{base}/templates/{template}")
    body = {k: first[k] for k in ("playbook", "repository_id", "inventory_id")}
    templates = [template] + [
        api.post(f"{base}/templates", {**body, "name": f"t{n:02}"})["id"] for n in range(49)
    ]
    for n in range(20):
        api.post("/users", {"username": f"user{n:02}", "password": f"bench-password-{n:02}"})
    last = _fill(server.database_url, project, templates, args.runs)
    cookie = _cookie_client(server.base_url)
    bench = Bench(server.pid, args.requests, database.pid)
    print(
        f"[{database.kind}] idle CPU: server {bench.idle_cpu_per_s * 1000:.1f} ms/s,"
        f" PostgreSQL {bench.idle_database_cpu_per_s * 1000:.1f} ms/s",
        file=sys.stderr,
    )
    http = api.http
    run = f"{base}/runs/{last}"
    etag = http.get(run).headers.get("etag", "")
    reads: list[tuple[str, Send, Target]] = [
        ("health", lambda: http.get("/health"), Target("0.44 ms before")),
        ("authenticated read, token", lambda: http.get("/auth/me"), CHEAP_READ),
        ("authenticated read, cookie", lambda: cookie.get("/auth/me"), CHEAP_READ),
        (
            "a run with its recap",
            lambda: http.get(run),
            Target("≤ 1 ms (4.2 before; 3.46 on 11-28)", cpu_ms=1.0),
        ),
        (
            "a run, unchanged (If-None-Match)",
            lambda: http.get(run, headers={"If-None-Match": etag}),
            Target("almost nothing (1.60 on 11-28)"),
        ),
        (
            "runs list, 50",
            lambda: http.get(f"{base}/runs", params={"limit": 50}),
            Target("p95 ≤ 10 ms, no outlier > 3x", p95_ms=10, no_outlier=True),
        ),
        (
            "runs list, 500",
            lambda: http.get(f"{base}/runs", params={"limit": 500}),
            Target("p95 ≤ 40 ms, no outlier > 3x (157 before)", p95_ms=40, no_outlier=True),
        ),
    ]
    results, profiles = [], []
    for name, send, target in reads:  # each profiled at once: no later batch's runs beside it
        results.append(bench.measure(name, send, target))
        if results[-1].missed():
            profiles.append(_profile(server.pid, results[-1], args.py_spy))
    _occupy(api, base, template)
    launch = copy.copy(bench)
    launch.requests = max(args.requests // 10, 10)
    launches: list[tuple[str, Send, Target]] = [
        (
            "a launch, queued (wall is the target)",
            lambda: http.post(f"{base}/runs", json={"template_id": template}),
            Target("≤ 5 ms wall (15 before; 8.4 on 11-28)", p50_ms=5),
        ),
        (
            "SSE stream, first event",
            lambda: _first_event(api, f"{run}/stream"),
            Target("watch path ≤ 1.05x"),
        ),
    ]
    for name, send, target in launches:
        results.append(launch.measure(name, send, target))
        if results[-1].missed():
            profiles.append(_profile(server.pid, results[-1], args.py_spy))
    cookie.close()
    return results, profiles


def _occupy(api: Api, base: str, template: int) -> None:
    """The project's one slot taken by a run that waits an hour, so that the launches measured
    queue behind it: the rows time the launch, not ansible-playbook starting for each beside
    the requests (the runs' own cost: bench/run.py); the dispatcher still wakes on each and
    finds nothing to start."""
    api.patch(base, {"max_parallel_runs": 1})
    first = api.get(f"{base}/templates/{template}")
    slow = api.post(
        f"{base}/templates",
        {
            "name": "occupies the slot",
            "playbook": "slow.yml",
            **{k: first[k] for k in ("repository_id", "inventory_id")},
        },
    )
    waiting = api.post(f"{base}/runs", {"template_id": slow["id"]})
    deadline = time.monotonic() + 120
    while api.get(f"{base}/runs/{waiting['id']}")["status"] != "running":
        if time.monotonic() > deadline:
            raise RuntimeError("the run that occupies the slot never started")
        time.sleep(0.2)


def _profile(pid: int, result: Result, py_spy: str | None) -> str:
    """Where the server's CPU goes while ``result``'s requests are sent again for a while."""
    head = f"#### {result.name}: {'; '.join(result.missed())}\n"
    if not py_spy:
        return head + "no profile: no py-spy (make setup-test installs it; --py-spy PATH)\n"
    with tempfile.TemporaryDirectory(prefix="steward-bench-profile-") as tmp:
        out, said = Path(tmp) / "stacks.txt", Path(tmp) / "py-spy.log"
        with said.open("wb") as log:
            spy = subprocess.Popen(
                [
                    *(py_spy, "record", "--pid", str(pid), "--gil", "--rate", "250"),
                    *("--format", "raw", "--output", str(out), "--duration", str(PROFILE_SECONDS)),
                ],
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        time.sleep(0.5)  # attached
        while spy.poll() is None:
            result.send()
        if not out.exists():
            # ptrace refused (a container without CAP_SYS_PTRACE, yama's ptrace_scope): its words
            why = said.read_text(errors="replace").strip() or f"exit status {spy.returncode}"
            return head + f"no profile: py-spy could not attach: {why}\n"
        return head + _summary(out.read_text())


# what every request passes through (the server, the body limit, the routers' branches)
WRAPPERS = r"\bsteward/(cli/|api/limits\.py|api/branches\.py|server\.py:serve$)"
_FRAME = re.compile(r"(?P<function>.*) \((?P<file>.*?):\d+\)$")


def _summary(stacks: str, shown: int = 8) -> str:
    """py-spy's raw stacks (``frame;frame;… count``) as own time by area (``AREAS``) and
    Steward's functions by inclusive time, in percent of the samples."""
    areas: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    total = 0
    for line in stacks.splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        n, frames = int(count), [_FRAME.match(f) for f in stack.split(";")]
        total += n
        leaf = frames[-1]
        file = leaf["file"] if leaf else ""
        areas[
            next((a for a, p in AREAS if re.search(p, file)), "other (the standard library, C)")
        ] += n
        for name in {
            f"{f['file'].split('steward/', 1)[1]}:{f['function']}"
            for f in frames
            if f
            and re.search(r"\bsteward/", f["file"])
            and not re.search(WRAPPERS, f"{f['file']}:{f['function']}")
        }:
            ours[name] += n
    if not total:
        return "no samples\n"
    lines = [
        f"{total} samples of the thread holding the GIL; own time by area (a frame's own time"
        " holds the C it calls: pydantic-core's in Steward's frames, SQLite's in SQLAlchemy's;"
        " a queued run's dispatch and execution, if any, beside):"
    ]
    lines += [f"  {100 * n / total:5.1f} %  {area}" for area, n in areas.most_common()]
    lines.append("Steward's functions, inclusive (a function's callees count too):")
    lines += [f"  {100 * n / total:5.1f} %  {name}" for name, n in ours.most_common(shown)]
    return "\n".join(lines) + "\n"


def _start_to_ready(workdir: Path, database_url: str | None) -> float:
    """From ``steward serve`` to its first answered health check, on an existing data dir (and
    database)."""
    workdir.mkdir(exist_ok=True)
    began = time.perf_counter()
    with Server(workdir, database_url):
        return time.perf_counter() - began


NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL, a throwaway one on 127.0.0.1"}


def _report(kind: str, args: argparse.Namespace) -> str:
    """The table of one database, and the profiles of its rows that missed their target."""
    with database(kind) as db, tempfile.TemporaryDirectory(prefix="steward-bench-api-") as tmp:
        workdir = Path(tmp)
        (workdir / "repo").mkdir()
        (workdir / "repo" / "site.yml").write_text("- hosts: all\n  gather_facts: false\n")
        (workdir / "repo" / "slow.yml").write_text(SLOW_PLAYBOOK)
        start_url = db.new() if db.new else None
        ready = [_start_to_ready(workdir / "start", start_url) for _ in range(4)][1:]
        with Server(workdir, db.url) as server:
            api = Api(server.base_url)
            try:
                time.sleep(2)
                idle_rss = rss_mib(server.pid)
                results, profiles = _scenario(server, db, api, workdir, args)
                threads = _thread_names(server.pid, args.py_spy)
                loaded_rss = rss_mib(server.pid)
            finally:
                api.close()
    lines = [
        f"\n### The API with {args.runs:,} runs, 50 templates, 20 users ({NAMES[kind]})\n",
        "| request | server CPU ms | PostgreSQL CPU ms | p50 ms | p95 ms | p99 ms | worst 3 ms"
        " | target |",
        "|---|---|---|---|---|---|---|---|",
        *(result.row() for result in results),
        f"\nidle RSS {idle_rss:.0f} MiB (target ≤ 90; 141 before), after the batches"
        f" {loaded_rss:.0f} MiB; start to ready {min(ready):.2f} s best of 3 (target ≤ 1 s)",
    ]
    if kind == "sqlite":
        lines.append("SQLite runs inside the server: its CPU is in the server's.")
    else:
        lines.append(
            "PostgreSQL's CPU (postmaster and backends) is beside the server's, not in it; the"
            " targets are the server's."
        )
    outliers = [
        r.outliers(threads)
        for r in results
        if r.target.no_outlier and max(r.walls) > 3 * statistics.median(r.walls)
    ]
    if outliers:
        lines.append("\n### Where the outliers' time went\n")
        lines += outliers
    if profiles:
        lines.append("\n### Where the time of the rows that missed their target goes\n")
        lines += profiles
    return "\n".join(lines)


_THREAD = re.compile(r'^Thread (?P<tid>\d+) \(\w+\): "(?P<name>.*)"$', re.MULTILINE)


def _thread_names(pid: int, py_spy: str | None) -> dict[int, str]:
    """The server's threads by id: their Python names as py-spy tells them (the background
    loops name theirs), else the kernel's (all "steward")."""
    names = {
        int(task.name): (task / "comm").read_text().strip()
        for task in Path(f"/proc/{pid}/task").iterdir()
    }
    if py_spy:
        dump = subprocess.run(
            [py_spy, "dump", "--pid", str(pid)], capture_output=True, text=True, check=False
        )
        names |= {int(m["tid"]): m["name"] for m in _THREAD.finditer(dump.stdout)}
    return names


def _py_spy() -> str | None:
    """py-spy on the PATH, else the one the dev dependencies install beside this Python."""
    beside = Path(sys.executable).parent / "py-spy"
    return shutil.which("py-spy") or (str(beside) if beside.exists() else None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--py-spy", default=_py_spy(), help="profiles missed rows")
    parser.add_argument("--database", choices=(*NAMES, "both"), default="both")
    args = parser.parse_args()
    for kind in NAMES if args.database == "both" else (args.database,):
        print(_report(kind, args), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
