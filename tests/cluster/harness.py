"""A cluster on 127.0.0.1 from real processes: PostgreSQL and Redis that can be stopped and
started again on the same port, `steward serve` processes and `steward worker` processes.

Every process is started by PID and stopped by PID (``support.processes.stop``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from sqlalchemy import create_engine, text
from support.builders import PLAYBOOKS, localhost_project, post
from support.postgres import FAST_SETTINGS, PostgresServer, _run_as, _service_account
from support.processes import answers, free_port, stop, wait_until_ready
from support.server import STEWARD, Server
from support.waits import read_run, wait_until

TICKS = Path(__file__).with_name("ticks.yml")


class Redis:
    """redis-server on a fixed port, nothing persisted: stopping it loses every message."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        assert binary is not None, "install redis-server (make setup does it)"
        cmd = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        cmd += ["--appendonly", "no", "--dir", str(self.workdir)]
        log = self.workdir / "redis.log"
        with log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        wait_until_ready(self.proc, lambda: answers(self.port, b"PING\r\n", b"+PONG"), log)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)

    def flush(self) -> None:
        assert answers(self.port, b"FLUSHALL\r\n", b"+OK")


def restart_postgres(server: PostgresServer, down_seconds: float = 0.0) -> None:
    """Stop the server (fast shutdown: clients are disconnected) and start it again on the same
    port and data directory after ``down_seconds``."""
    stop(server.process, signal=signal.SIGINT)
    if server._admin is not None:
        server._admin.close()
    time.sleep(down_seconds)
    workdir = server.socket_dir.parent
    binaries = Path(str(server.process.args[0])).parent  # type: ignore[index]
    cmd = [str(binaries / "postgres"), "-D", str(workdir / "data"), "-p", str(server.port)]
    cmd += ["-k", str(server.socket_dir), "-c", "listen_addresses=127.0.0.1"]
    for setting in FAST_SETTINGS:
        cmd += ["-c", setting]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")} | {"LC_ALL": "C.UTF-8"}
    log = workdir / "postgres.log"
    with log.open("ab") as out:
        server.process = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, **_run_as(_service_account())
        )
    wait_until_ready(server.process, server.answers, log)


class Worker:
    """A `steward worker` process with its own data directory (its own run directories)."""

    def __init__(self, cluster: Cluster, name: str, queues: str, concurrency: int) -> None:
        self.cluster = cluster
        self.data_dir = cluster.root / name / "data"
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.log = cluster.root / name / "worker.log"
        self.args = ["worker", "--queues", queues, "--concurrency", str(concurrency)]
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        env = {**self.cluster.env(), "STEWARD_DATA_DIR": str(self.data_dir)}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(STEWARD), *self.args], env=env, stdout=out, stderr=subprocess.STDOUT
            )
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc, timeout=30)


@dataclass
class Cluster:
    root: Path
    postgres: PostgresServer
    redis: Redis
    database: str
    settings: dict[str, str] = field(default_factory=dict)
    servers: list[Server] = field(default_factory=list)
    workers: list[Worker] = field(default_factory=list)

    @property
    def database_url(self) -> str:
        return self.postgres.url(self.database)

    def env(self) -> dict[str, str]:
        common = {
            "STEWARD_DATABASE_URL": self.database_url,
            "STEWARD_BROKER_URL": self.redis.url,
            "STEWARD_LOCAL_REPOSITORY_ROOTS": str(self.root),
            **{f"STEWARD_{k.upper()}": v for k, v in self.settings.items()},
        }
        return {**os.environ, **common}

    def server(self, name: str) -> Server:
        settings = {"database_url": self.database_url, "broker_url": self.redis.url}
        srv = Server(self.root / name / "data", **settings, **self.settings)
        srv.data_dir.mkdir(parents=True, exist_ok=True)
        srv.log = self.root / name / "server.log"
        srv.settings["local_repository_roots"] = str(self.root)
        srv.start()
        self.servers.append(srv)
        return srv

    def worker(self, name: str, queues: str = "default", concurrency: int = 2) -> Worker:
        worker = Worker(self, name, queues, concurrency).start()
        self.workers.append(worker)
        return worker

    def sql(self, query: str, **params: Any) -> list[Any]:
        engine = create_engine(self.database_url, poolclass=None)
        try:
            with engine.connect() as conn:
                return list(conn.execute(text(query), params).all())
        finally:
            engine.dispose()

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()
        for srv in self.servers:
            srv.stop()


@dataclass
class Project:
    """A project on a cluster's API, with templates of the test playbooks and ``ticks.yml``."""

    api: httpx2.Client
    ids: dict[str, int]

    @classmethod
    def make(cls, api: httpx2.Client, root: Path, name: str = "fleet") -> Project:
        repo = root / f"playbooks-{name}"
        shutil.copytree(PLAYBOOKS, repo)
        shutil.copy(TICKS, repo / "ticks.yml")
        return cls(api, localhost_project(api, repo, name))

    @property
    def base(self) -> str:
        return f"/projects/{self.ids['project']}"

    def template(self, playbook: str, **fields: Any) -> int:
        body = {
            "name": fields.pop("name", playbook.removesuffix(".yml")),
            "playbook": playbook,
            "repository_id": self.ids["repository"],
            "inventory_id": self.ids["inventory"],
            **fields,
        }
        template_id: int = post(self.api, f"{self.base}/templates", body)["id"]
        return template_id

    def launch(self, template_id: int) -> int:
        run_id: int = post(self.api, f"{self.base}/runs", {"template_id": template_id})["id"]
        return run_id

    def run(self, run_id: int, api: httpx2.Client | None = None) -> dict[str, Any]:
        return read_run(api or self.api, f"{self.base}/runs/{run_id}")

    def wait(self, run_id: int, *statuses: str, timeout: float = 90) -> dict[str, Any]:
        wanted = set(statuses) or {"successful", "failed", "error", "canceled", "timed_out"}

        def reached() -> dict[str, Any] | None:
            run = self.run(run_id)
            return run if run["status"] in wanted else None

        found = wait_until(
            reached, timeout=timeout, interval=0.1, what=f"run {run_id} {'/'.join(sorted(wanted))}"
        )
        assert found is not None
        return found

    def lines(self, run_id: int) -> list[dict[str, Any]]:
        response = self.api.get(f"{self.base}/runs/{run_id}/lines", params={"limit": 10000})
        assert response.status_code == 200, response.text
        items: list[dict[str, Any]] = response.json()["items"]
        return items


@contextlib.contextmanager
def cluster_of(
    root: Path, postgres: PostgresServer, redis: Redis, template: str | None = None, **settings: str
) -> Iterator[Cluster]:
    """A cluster on a new database of ``postgres`` (a copy of ``template`` if given)."""
    database = postgres.create_database(template)
    redis.flush()
    cluster = Cluster(root, postgres, redis, database, settings)
    try:
        yield cluster
    finally:
        cluster.stop()
        postgres.drop_database(database)
