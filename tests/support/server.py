"""A real `steward serve` in a subprocess, and an API client logged in to it."""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import httpx2

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


class Server:
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
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(STEWARD), "serve"], env=self.env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_until_ready(self.proc, lambda: answers(self.port), self.log)

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
            f"{base}/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}
        )
        assert login.status_code == 200, login.text
        created = httpx2.post(
            f"{base}/users/me/tokens",
            json={"name": f"test-{scope}", "scope": scope},
            cookies=login.cookies,
            headers={"X-CSRF-Token": login.json()["csrf_token"]},
        )
        assert created.status_code == 201, created.text
        token: str = created.json()["token"]
        return token

    def api(self) -> httpx2.Client:
        return httpx2.Client(
            base_url=f"http://127.0.0.1:{self.port}/api/v1",
            headers={"Authorization": f"Bearer {self.token()}"},
        )
