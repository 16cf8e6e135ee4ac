"""The `steward` command against a real server."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS, localhost_project, post
from support.server import STEWARD, Server

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "data")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_run_follow_prints_live_output_and_exits_with_the_run_status(
    server: Server, tmp_path: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    with server.api() as api:
        ids = localhost_project(api, repo, "ops")
        common = {"repository_id": ids["repository"], "inventory_id": ids["inventory"]}
        post(
            api,
            f"/projects/{ids['project']}/templates",
            {"name": "hello", "playbook": "ok.yml", "overridable": ["extra_vars"], **common},
        )
        post(
            api,
            f"/projects/{ids['project']}/templates",
            {"name": "broken", "playbook": "fail.yml", **common},
        )
    env = {
        **server.env,
        "STEWARD_URL": f"http://127.0.0.1:{server.port}",
        "STEWARD_TOKEN": server.token("run"),
    }
    ok = subprocess.run(
        [str(STEWARD), "run", "ops/hello", "--follow", "--extra-vars", '{"who": "cli"}'],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert "hello cli" in ok.stdout
    assert "PLAY RECAP" in ok.stdout
    failed = subprocess.run(
        [str(STEWARD), "run", "ops/broken", "--follow"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert failed.returncode == 2
    assert "failed" in failed.stderr
    missing = subprocess.run(
        [str(STEWARD), "run", "ops/nope"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode != 0
    assert "no template named 'nope'" in missing.stderr


def test_user_create_reads_the_password_from_stdin(server: Server) -> None:
    created = subprocess.run(
        [str(STEWARD), "user", "create", "dba", "--password-stdin"],
        input="a-long-password\n",
        env=server.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert created.returncode == 0, created.stderr
    assert "created user dba" in created.stdout
    again = subprocess.run(
        [str(STEWARD), "user", "create", "dba", "--password-stdin"],
        input="a-long-password\n",
        env=server.env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert again.returncode == 1
    assert "already exists" in again.stderr
