"""The `steward` command against a real server."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS, localhost_project, post
from support.server import Server, steward

pytestmark = pytest.mark.sqlite_only


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "data").running() as srv:
        yield srv


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
    ok = steward("run", "ops/hello", "--follow", "--extra-vars", '{"who": "cli"}', env=env)
    assert ok.returncode == 0, ok.stderr
    assert "hello cli" in ok.stdout
    assert "PLAY RECAP" in ok.stdout
    failed = steward("run", "ops/broken", "--follow", env=env)
    assert failed.returncode == 2
    assert "failed" in failed.stderr
    missing = steward("run", "ops/nope", env=env, timeout=60)
    assert missing.returncode != 0
    assert "no template named 'nope'" in missing.stderr


def test_user_create_reads_the_password_from_stdin(server: Server) -> None:
    created = steward(
        "user",
        "create",
        "dba",
        "--password-stdin",
        env=server.env,
        stdin="a-long-password\n",
        timeout=60,
    )
    assert created.returncode == 0, created.stderr
    assert "created user dba" in created.stdout
    again = steward(
        "user",
        "create",
        "dba",
        "--password-stdin",
        env=server.env,
        stdin="a-long-password\n",
        timeout=60,
    )
    assert again.returncode == 1
    assert "already exists" in again.stderr
