"""A real `steward serve` in a subprocess (on SQLite, or on a throwaway PostgreSQL), and an API
client logged in with a token."""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import Any, Self, cast

BENCH = Path(__file__).resolve().parent
sys.path.append(str(BENCH.parent / "tests"))  # the tests' throwaway PostgreSQL (no pytest)

import httpx2  # noqa: E402
import psutil  # noqa: E402
from scenarios import Scenario  # noqa: E402
from sqlalchemy import Table, text  # noqa: E402
from support.postgres import throwaway_postgres  # noqa: E402

from steward.db import make_engine  # noqa: E402
from steward.runs.models import Run, RunHost  # noqa: E402

STEWARD = Path(sys.executable).parent / "steward"
ADMIN_PASSWORD = "bench-admin-password"
FINISHED = frozenset({"successful", "failed", "error", "canceled", "timed_out"})
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """A process's CPU so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def threads_on_cpu(pid: int) -> dict[int, tuple[float, int]] | None:
    """Each thread of a process (by its id): its time on a CPU so far, in ms to the nanosecond
    (the scheduler's ``se.sum_exec_runtime``), and how many times it was preempted
    (``nr_involuntary_switches``), from /proc/<pid>/task/*/sched; None where the kernel has no
    such file (no CONFIG_SCHED_DEBUG)."""
    if not Path(f"/proc/{pid}/sched").exists():
        return None
    threads = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            lines = (task / "sched").read_text().splitlines()
        except FileNotFoundError:  # the thread ended
            continue
        on_cpu, preempted = 0.0, 0
        for line in lines:
            key, _, value = line.partition(":")
            if key.strip() == "se.sum_exec_runtime":
                on_cpu = float(value)
            elif key.strip() == "nr_involuntary_switches":
                preempted = int(value)
        threads[int(task.name)] = (on_cpu, preempted)
    return threads


def machine_busy_seconds() -> float:
    """The CPU time of every process of the machine so far, and what the hypervisor gave to
    others (steal), from /proc/stat: user, nice, system, irq, softirq, steal."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / TICKS


def tree_cpu_seconds(pid: int) -> float:
    """The CPU so far of a process and its living descendants (PostgreSQL's postmaster and its
    backends); the time of descendants that ended is not in it."""
    total = 0.0
    root = psutil.Process(pid)
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


def rss_mib(pid: int) -> float:
    """A process's resident memory now, in MiB, from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclasses.dataclass(frozen=True)
class Database:
    """Where a benchmark's server keeps its data: ``url`` None is SQLite in its data directory;
    ``pid`` is PostgreSQL's postmaster (its backends are its children)."""

    kind: str
    url: str | None = None
    pid: int | None = None
    new: Callable[[], str] | None = None  # another empty database on the same server, its URL


@contextmanager
def database(kind: str) -> Iterator[Database]:
    """``sqlite``, or ``postgresql``: a throwaway PostgreSQL on 127.0.0.1 (the tests'
    ``support.postgres``: in /dev/shm when it can, durability off), with one empty database;
    stopped by its PID when the block ends, also on an error."""
    if kind == "sqlite":
        yield Database(kind)
        return
    if kind != "postgresql":
        raise ValueError(f"database {kind!r}: sqlite or postgresql")
    with throwaway_postgres(prefix="steward-bench-pg-") as postgres:

        def new() -> str:
            return postgres.url(postgres.create_database())

        yield Database(kind, new(), postgres.process.pid, new)


class Server:
    """``steward serve`` on 127.0.0.1:<free port> with its own data directory (and the database
    at ``database_url``, else SQLite in it); stopped by PID. ``argv``: another command that
    serves as ``steward serve`` does (bench/startup_probe.py)."""

    def __init__(
        self,
        workdir: Path,
        database_url: str | None = None,
        argv: Sequence[str] = (str(STEWARD), "serve"),
    ) -> None:
        self.argv = list(argv)
        self.data_dir = workdir / "data"
        self.database_url = database_url or f"sqlite:///{self.data_dir / 'steward.db'}"
        self.log = workdir / "server.log"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v1"

    def __enter__(self) -> Self:
        env = {
            **os.environ,
            "STEWARD_DATA_DIR": str(self.data_dir),
            "STEWARD_HOST": "127.0.0.1",
            "STEWARD_PORT": str(self.port),
            "STEWARD_ADMIN_PASSWORD": ADMIN_PASSWORD,
            # the local repository (the playbooks) is a directory of the workdir
            "STEWARD_LOCAL_REPOSITORY_ROOTS": str(self.data_dir.parent),
            "STEWARD_DATABASE_URL": self.database_url,
        }
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.argv, env=env, stdout=out, stderr=subprocess.STDOUT)
        self._wait_ready(timeout=180)  # a loaded machine compiles every import
        return self

    def __exit__(
        self, _t: type[BaseException] | None, _e: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.stop()

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx2.get(f"{self.base_url}/health", timeout=2).status_code == 200:
                    return
            except httpx2.TransportError:
                pass
            assert self.proc is not None
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"steward serve did not start; its log:\n{self.log.read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Api:
    """JSON over HTTP with a 'write' API token; every call checks the status code."""

    def __init__(self, base_url: str) -> None:
        login = httpx2.post(
            f"{base_url}/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}
        )
        login.raise_for_status()
        created = httpx2.post(
            f"{base_url}/users/me/tokens",
            json={"name": "bench", "scope": "write"},
            cookies=login.cookies,
            headers={"X-CSRF-Token": login.json()["csrf_token"]},
        )
        created.raise_for_status()
        self.http = httpx2.Client(
            base_url=base_url,
            headers={"Authorization": f"Bearer {created.json()['token']}"},
            timeout=httpx2.Timeout(60),
        )

    def close(self) -> None:
        self.http.close()

    def get(self, path: str, **params: Any) -> dict[str, Any]:
        return self._json(self.http.get(path, params=params))

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json(self.http.post(path, json=body))

    def put(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json(self.http.put(path, json=body))

    def patch(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json(self.http.patch(path, json=body))

    @staticmethod
    def _json(response: httpx2.Response) -> dict[str, Any]:
        if response.is_error:
            raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
        result: dict[str, Any] = response.json()
        return result


@dataclasses.dataclass(frozen=True)
class Project:
    """The benchmark project: its id and one template per scenario."""

    id: int
    templates: dict[str, int]

    def url(self, path: str) -> str:
        return f"/projects/{self.id}/{path}"


def create_project(
    api: Api, repo_dir: Path, scenarios: tuple[Scenario, ...], quick: bool
) -> Project:
    project = api.post("/projects", {"name": "bench"})["id"]
    base = f"/projects/{project}"
    api.put(f"{base}/local-roots", {"local_roots": [str(repo_dir)]})
    repository = api.post(
        f"{base}/repositories", {"name": "bench", "kind": "local", "url": str(repo_dir)}
    )["id"]
    templates = {}
    for scenario in scenarios:
        inventory = api.post(
            f"{base}/inventories",
            {
                "name": scenario.name,
                "kind": "static",
                "format": "ini",
                "content": scenario.inventory(sys.executable),
            },
        )["id"]
        template = {
            "name": scenario.name,
            "playbook": scenario.playbook,
            "repository_id": repository,
            "inventory_id": inventory,
            "forks": scenario.forks,
            "extra_vars": scenario.extra_vars(quick),
        }
        templates[scenario.name] = api.post(f"{base}/templates", template)["id"]
    return Project(id=project, templates=templates)


def restart_template(api: Api, repo_dir: Path, project_name: str) -> tuple[int, int]:
    """A project with one template ("restart" of site.yml on db01 and db02) for benchmarks that
    fill the runs table themselves; (project id, template id)."""
    project = api.post("/projects", {"name": project_name})["id"]
    base = f"/projects/{project}"
    api.put(f"{base}/local-roots", {"local_roots": [str(repo_dir)]})
    repo = api.post(f"{base}/repositories", {"name": "r", "kind": "local", "url": str(repo_dir)})
    inventory = api.post(
        f"{base}/inventories",
        {"name": "i", "kind": "static", "format": "ini", "content": "db01\ndb02\n"},
    )
    template = api.post(
        f"{base}/templates",
        {
            "name": "restart",
            "playbook": "site.yml",
            "repository_id": repo["id"],
            "inventory_id": inventory["id"],
        },
    )
    return int(project), int(template["id"])


def finished_run_row(
    project: int, template: int, n: int, at: dt.datetime, seconds: float = 30, **columns: Any
) -> dict[str, Any]:
    """The ``runs`` row of the ``n``-th finished run a benchmark inserts itself (1 in 10
    failed), created at ``at`` and ``seconds`` long; ``columns`` replace its defaults."""
    return {
        "uuid": str(uuid.uuid4()),
        "project_id": project,
        "template_id": template,
        "status": "failed" if n % 10 == 0 else "successful",
        "launched_by_id": 1,
        "launch_type": "api",
        "params": {"playbook": "site.yml", "repository_id": 1, "inventory_id": 1},
        "template_snapshot": {"name": "restart"},
        "created_at": at,
        "started_at": at,
        "finished_at": at + dt.timedelta(seconds=seconds),
        "line_count": 40,
        "event_count": 12,
        **columns,
    }


def insert_finished_runs(
    database_url: str,
    project: int,
    templates: Sequence[int],
    count: int,
    every: dt.timedelta,
    hosts_of: Callable[[int], Iterable[dict[str, Any]]],
) -> list[int]:
    """``count`` finished runs (``finished_run_row``) inserted straight into a server's database
    (SQLite or PostgreSQL: ``Server.database_url``), one ``every`` from a year ago, spread over
    ``templates`` in turn, each with the ``run_hosts`` rows ``hosts_of(run id)`` gives; their
    ids. PostgreSQL is then ANALYZEd, as autovacuum would soon after such a load."""
    engine = make_engine(database_url)
    runs, hosts = cast(Table, Run.__table__), cast(Table, RunHost.__table__)
    start = dt.datetime.now(dt.UTC) - dt.timedelta(days=365)
    with engine.begin() as conn:
        for first in range(0, count, 10_000):
            conn.execute(
                runs.insert(),
                [
                    finished_run_row(project, templates[n % len(templates)], n, start + every * n)
                    for n in range(first, min(first + 10_000, count))
                ],
            )
        ids = [r[0] for r in conn.execute(runs.select().with_only_columns(runs.c.id))]
        conn.execute(hosts.insert(), [row for i in ids for row in hosts_of(i)])
        if engine.dialect.name == "postgresql":
            conn.execute(text("ANALYZE runs, run_hosts"))
    engine.dispose()
    return ids
