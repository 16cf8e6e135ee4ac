"""A throwaway PostgreSQL cluster from the Debian server binaries: the test session's (the
``postgres`` fixture of ``support.databases``) and the benchmarks' (bench/harness.py). No
pytest here, so a benchmark imports it as it is.

PostgreSQL refuses to run as root, so under root (CI) it runs as the ``postgres`` system user
(created by the Debian package; ``steward-test`` is created when it is missing).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg

from support.processes import free_port, stop, wait_until_ready

SUPERUSER = "steward"
# Durability is worth nothing in a database that lives for one test session.
FAST_SETTINGS = (
    "fsync=off",
    "synchronous_commit=off",
    "full_page_writes=off",
    "max_connections=200",
)


def server_binaries() -> Path:
    versions = sorted(
        (d for d in Path("/usr/lib/postgresql").glob("*/bin") if (d / "postgres").exists()),
        key=lambda d: int(d.parent.name) if d.parent.name.isdigit() else 0,
    )
    if not versions:
        raise RuntimeError(
            "PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin: "
            "install the 'postgresql' Debian package (make setup-test does it as root)"
        )
    return versions[-1]


def _service_account() -> pwd.struct_passwd | None:
    """The account to run the server as: None means ourselves (we are not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "steward-test"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            pass
    subprocess.run(
        ["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "steward-test"],
        check=True,
    )
    return pwd.getpwnam("steward-test")


@dataclass
class PostgresServer:
    port: int
    socket_dir: Path
    process: subprocess.Popen[bytes]
    user: str = SUPERUSER
    _names: Iterator[int] = field(default_factory=itertools.count)
    _admin: psycopg.Connection[Any] | None = None

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{database}"

    def connect(self, database: str = "postgres") -> psycopg.Connection[Any]:
        return psycopg.connect(
            host="127.0.0.1", port=self.port, user=self.user, dbname=database, autocommit=True
        )

    def admin(self) -> psycopg.Connection[Any]:
        """One connection kept open for CREATE/DROP DATABASE: a new one costs ~30 ms."""
        if self._admin is None or self._admin.closed:
            self._admin = self.connect()
        return self._admin

    def create_database(self, template: str | None = None) -> str:
        """A new database, empty or a copy of ``template``; returns its name."""
        name = f"test_{next(self._names)}"
        # FILE_COPY: measured 25-45 ms against 30-60 ms for the default WAL_LOG (on tmpfs)
        copy = f' TEMPLATE "{template}" STRATEGY FILE_COPY' if template else ""
        self.admin().execute(f'CREATE DATABASE "{name}"{copy}')
        return name

    def drop_database(self, name: str) -> None:
        self.admin().execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def stop(self) -> None:
        if self._admin is not None:
            self._admin.close()
        stop(self.process, signal=3)  # SIGQUIT: immediate shutdown, as pg_ctl -m immediate

    def answers(self) -> bool:
        try:
            self.connect().close()
        except psycopg.OperationalError:
            return False
        return True


def _run_as(account: pwd.struct_passwd | None) -> dict[str, Any]:
    if account is None:
        return {}
    return {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}


def start_postgres(workdir: Path) -> PostgresServer:
    binaries = server_binaries()
    account = _service_account()
    data, sockets, log = workdir / "data", workdir / "sockets", workdir / "postgres.log"
    sockets.mkdir()
    if account is not None:
        os.chown(workdir, account.pw_uid, account.pw_gid)
        os.chown(sockets, account.pw_uid, account.pw_gid)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PG")} | {"LC_ALL": "C.UTF-8"}
    initdb = [str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER, "--auth=trust"]
    initdb += ["--no-locale", "--encoding=UTF8", "--no-sync"]
    subprocess.run(initdb, env=env, check=True, capture_output=True, **_run_as(account))
    port = free_port()
    cmd = [str(binaries / "postgres"), "-D", str(data), "-p", str(port), "-k", str(sockets)]
    cmd += ["-c", "listen_addresses=127.0.0.1"]
    for setting in FAST_SETTINGS:
        cmd += ["-c", setting]
    with log.open("wb") as out:
        proc = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=subprocess.STDOUT, **_run_as(account)
        )
    server = PostgresServer(port=port, socket_dir=sockets, process=proc)
    wait_until_ready(proc, server.answers, log)
    return server


def _memory_backed_dir() -> str | None:
    """/dev/shm when usable: CREATE DATABASE took 300-1200 ms on a busy disk, 25-60 ms there."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK | os.X_OK) else None


@contextmanager
def throwaway_postgres(prefix: str = "steward-pg-") -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary directory (in memory when it can), removed after."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix, dir=_memory_backed_dir()))
    try:
        server = start_postgres(workdir)
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
