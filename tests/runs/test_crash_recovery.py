"""A real `steward serve` killed with SIGKILL during a run, then started again."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from support.processes import answers, free_port, stop, wait_until_ready

from steward.runner import processes

pytestmark = pytest.mark.sqlite_only  # the server runs on its embedded default
PLAYBOOKS = Path(__file__).parent.parent / "playbooks"
STEWARD = Path(sys.executable).parent / "steward"


class Server:
    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = data_dir.parent / "server.log"

    def start(self) -> None:
        env = {
            **os.environ,
            "STEWARD_DATA_DIR": str(self.data_dir),
            "STEWARD_PORT": str(self.port),
            "STEWARD_ADMIN_PASSWORD": "crash-test-password",
            "STEWARD_MAX_PARALLEL_RUNS": "1",
        }
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [str(STEWARD), "serve"], env=env, stdout=out, stderr=subprocess.STDOUT
            )
        wait_until_ready(self.proc, lambda: answers(self.port), self.log)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def run_uuid(self, run_id: int) -> str:
        with sqlite3.connect(self.data_dir / "steward.db") as db:
            row = db.execute("select uuid from runs where id = ?", (run_id,)).fetchone()
        return str(row[0])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "data")
    srv.start()
    try:
        yield srv
    finally:
        if srv.proc is not None:
            stop(srv.proc)


def _api(port: int) -> httpx2.Client:
    base = f"http://127.0.0.1:{port}/api/v1"
    login = httpx2.post(
        f"{base}/auth/login", json={"username": "admin", "password": "crash-test-password"}
    )
    assert login.status_code == 200, login.text
    token = httpx2.post(
        f"{base}/users/me/tokens",
        json={"name": "crash", "scope": "write"},
        cookies=login.cookies,
        headers={"X-CSRF-Token": login.json()["csrf_token"]},
    ).json()["token"]
    return httpx2.Client(base_url=base, headers={"Authorization": f"Bearer {token}"})


def _post(api: httpx2.Client, url: str, body: dict[str, Any]) -> dict[str, Any]:
    response = api.post(url, json=body)
    assert response.status_code == 201, response.text
    result: dict[str, Any] = response.json()
    return result


def _wait(api: httpx2.Client, url: str, statuses: set[str], timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run: dict[str, Any] = api.get(url).json()
        if run["status"] in statuses:
            return run
        time.sleep(0.2)
    raise AssertionError(f"{url} never reached {statuses}")


@pytest.mark.slow
def test_killed_server_marks_the_run_interrupted_and_runs_the_queue(
    server: Server, tmp_path: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    api = _api(server.port)
    project = _post(api, "/projects", {"name": "crash"})["id"]
    base = f"/projects/{project}"
    repository = _post(
        api, f"{base}/repositories", {"name": "r", "kind": "local", "url": str(repo)}
    )
    inventory = _post(
        api,
        f"{base}/inventories",
        {
            "name": "local",
            "kind": "static",
            "format": "ini",
            "content": f"localhost ansible_connection=local ansible_python_interpreter="
            f"{sys.executable}\n",
        },
    )
    common = {"repository_id": repository["id"], "inventory_id": inventory["id"]}
    slow = _post(api, f"{base}/templates", {"name": "slow", "playbook": "slow.yml", **common})
    quick = _post(api, f"{base}/templates", {"name": "ok", "playbook": "ok.yml", **common})

    running = _post(api, f"{base}/runs", {"template_id": slow["id"]})
    queued = _post(api, f"{base}/runs", {"template_id": quick["id"]})
    _wait(api, f"{base}/runs/{running['id']}", {"running"})
    run_uuid = server.run_uuid(running["id"])
    deadline = time.monotonic() + 60
    while not any(p.name() == "sleep" for p in processes.run_processes(run_uuid)):
        assert time.monotonic() < deadline, "the playbook never reached its sleep"
        time.sleep(0.1)
    assert api.get(f"{base}/runs/{queued['id']}").json()["status"] == "queued"

    api.close()
    server.kill()
    assert processes.run_processes(run_uuid), "ansible outlives a SIGKILLed server"
    server.start()
    api = _api(server.port)

    interrupted = api.get(f"{base}/runs/{running['id']}").json()
    assert interrupted["status"] == "error"
    assert interrupted["status_reason"] == "interrupted: server stopped during the run"
    assert processes.run_processes(run_uuid) == []
    after = _wait(api, f"{base}/runs/{queued['id']}", {"successful", "failed", "error"})
    api.close()
    assert after["status"] == "successful"
