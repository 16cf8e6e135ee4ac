"""A real `steward serve` in a subprocess, and an API client logged in to it.

A server on its embedded SQLite starts from a copy of a database migrated and seeded once per
test process (its admin's password hashed cheaply, see support.isolation): Alembic then finds
nothing to do, and neither the admin's creation nor each login pays argon2's real parameters
(~1-2 s a start on a loaded machine). ``FreshServer`` starts from an empty data directory,
as a first installation does (migrations and the admin made at start)."""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx2
import pytest

from steward import migrations
from steward.auth import passwords
from steward.auth.bootstrap import ensure_admin
from steward.db import make_engine, make_session_factory
from support.isolation import CHEAP_HASHER
from support.outbound import LOOPBACK_ALLOWED
from support.processes import answers, free_port, stop, wait_until_ready

STEWARD = Path(sys.executable).parent / "steward"


def steward(
    *args: str, env: Mapping[str, str], stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """``steward ARGS…`` as a person types it, with its output captured."""
    return subprocess.run(
        [str(STEWARD), *args],
        input=stdin,
        env=dict(env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


ADMIN_PASSWORD = "server-test-password"
# a port picked free may be taken by another process before the server binds it (CI under
# load: "[Errno 98] address already in use"): the server is started again on another port
PORT_ATTEMPTS = 5
# a request to the server, on a machine whose cores run other suites too (httpx's default: 5 s)
TIMEOUT = 30
PORT_TAKEN = (b"address already in use", b"[Errno 98]")


def seed_database(url: str) -> None:
    """Migrate the database at ``url`` to head and make the admin (ADMIN_PASSWORD, hashed
    cheaply): a server started on it finds nothing to migrate, and neither its start nor a
    login pays argon2's real parameters."""
    migrations.upgrade(url)
    engine = make_engine(url)
    with pytest.MonkeyPatch.context() as patch, make_session_factory(engine)() as session:
        patch.setattr(passwords, "_hasher", CHEAP_HASHER)
        ensure_admin(session, "admin", ADMIN_PASSWORD)
        session.commit()
    engine.dispose()


@functools.cache
def _seeded_database() -> Path:
    """A SQLite database migrated to head holding the admin (ADMIN_PASSWORD), made once per
    test process, to copy into a server's data directory."""
    directory = Path(tempfile.mkdtemp(prefix="steward-server-template-"))
    atexit.register(shutil.rmtree, directory, ignore_errors=True)
    path = directory / "steward.db"
    seed_database(f"sqlite:///{path}")
    assert not path.with_name("steward.db-wal").exists(), "the WAL must be checkpointed"
    return path


class Server:
    # on its embedded SQLite, the first start finds a migrated database with the admin in it
    seeded = True
    # the command started: this checkout's (an installed wheel's for the release tests)
    program = STEWARD
    cwd: Path | None = None
    ready_seconds = 60.0

    def __init__(self, data_dir: Path, **settings: str) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / "server.log"
        self.settings = settings

    @property
    def env(self) -> dict[str, str]:
        return {
            **os.environ,
            "STEWARD_DATA_DIR": str(self.data_dir),
            "STEWARD_PORT": str(self.port),
            "STEWARD_ADMIN_PASSWORD": ADMIN_PASSWORD,
            # local repositories: directories beside the data directory (the test's tmp_path)
            "STEWARD_LOCAL_REPOSITORY_ROOTS": str(self.data_dir.parent),
            # receivers the tests start on 127.0.0.1, allowed as an admin would
            "STEWARD_OUTBOUND_ALLOWED_NETWORKS": ",".join(LOOPBACK_ALLOWED),
            **{f"STEWARD_{k.upper()}": v for k, v in self.settings.items()},
        }

    def start(self) -> None:
        """Start and wait until this server listens: its log says so (another process may
        answer on the port meanwhile); a port taken before the server bound it is replaced."""
        database = self.data_dir / "steward.db"
        if self.seeded and "database_url" not in self.settings and not database.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(_seeded_database(), database)
        for attempt in range(PORT_ATTEMPTS):
            started_at = self.log.stat().st_size if self.log.exists() else 0
            with self.log.open("ab") as out:
                self.proc = subprocess.Popen(
                    [str(self.program), "serve"],
                    env=self.env,
                    cwd=self.cwd,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            try:
                listening = functools.partial(self._listening, started_at)
                wait_until_ready(self.proc, listening, self.log, timeout=self.ready_seconds)
                return
            except RuntimeError:
                if attempt + 1 == PORT_ATTEMPTS or not self._port_was_taken(started_at):
                    raise
                self.port = free_port()

    def _log_since(self, offset: int) -> bytes:
        with self.log.open("rb") as log:
            log.seek(offset)
            return log.read()

    def _listening(self, log_offset: int) -> bool:
        if not answers(self.port):
            return False
        if self.env.get("STEWARD_LOG_LEVEL", "INFO").upper() not in ("INFO", "DEBUG", "TRACE"):
            return True  # uvicorn does not say it listens: the answer has to do
        # uvicorn says so once it has bound the port (after the app's startup)
        return f"running on http://127.0.0.1:{self.port}".encode() in self._log_since(log_offset)

    def _port_was_taken(self, log_offset: int) -> bool:
        said = self._log_since(log_offset)
        return any(words in said for words in PORT_TAKEN)

    @contextlib.contextmanager
    def running(self) -> Iterator[Server]:
        """Started, and stopped however the block ends."""
        self.start()
        try:
            yield self
        finally:
            self.stop()

    def stop(self) -> None:
        if self.proc is not None:
            stop(self.proc)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def run_uuid(self, run_id: int) -> str:
        with sqlite3.connect(self.data_dir / "steward.db") as db:
            row = db.execute("select uuid from runs where id = ?", (run_id,)).fetchone()
        return str(row[0])

    def token(self, scope: str = "write") -> str:
        base = f"http://127.0.0.1:{self.port}/api/v1"
        login = httpx2.post(
            f"{base}/auth/login",
            json={"username": "admin", "password": ADMIN_PASSWORD},
            timeout=TIMEOUT,
        )
        assert login.status_code == 200, login.text
        created = httpx2.post(
            f"{base}/users/me/tokens",
            json={"name": f"test-{scope}", "scope": scope},
            cookies=login.cookies,
            headers={"X-CSRF-Token": login.json()["csrf_token"]},
            timeout=TIMEOUT,
        )
        assert created.status_code == 201, created.text
        token: str = created.json()["token"]
        return token

    def api(self) -> httpx2.Client:
        return httpx2.Client(
            base_url=f"http://127.0.0.1:{self.port}/api/v1",
            headers={"Authorization": f"Bearer {self.token()}"},
            timeout=TIMEOUT,
        )


class FreshServer(Server):
    """A first installation: the server starts on an empty data directory, migrates it and
    makes the admin."""

    seeded = False
