"""A real `steward serve` killed with SIGKILL during a run, then started again."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS, localhost_project, post
from support.server import Server
from support.waits import wait_for_run, wait_until

from steward.execution.ansible import processes

pytestmark = pytest.mark.sqlite_only  # the server runs on its embedded default


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "data", max_parallel_runs="1").running() as srv:
        yield srv


@pytest.mark.slow
def test_killed_server_marks_the_run_interrupted_and_runs_the_queue(
    server: Server, tmp_path: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    api = server.api()
    ids = localhost_project(api, repo, "crash")
    base = f"/projects/{ids['project']}"
    common = {"repository_id": ids["repository"], "inventory_id": ids["inventory"]}
    slow = post(api, f"{base}/templates", {"name": "slow", "playbook": "slow.yml", **common})
    quick = post(api, f"{base}/templates", {"name": "ok", "playbook": "ok.yml", **common})

    running = post(api, f"{base}/runs", {"template_id": slow["id"]})
    queued = post(api, f"{base}/runs", {"template_id": quick["id"]})
    wait_for_run(api, f"{base}/runs/{running['id']}", statuses={"running"})
    run_uuid = server.run_uuid(running["id"])
    wait_until(lambda: "sleep" in processes.names(run_uuid), what="the playbook's sleep")
    assert api.get(f"{base}/runs/{queued['id']}").json()["status"] == "queued"
    api.close()

    server.kill()
    # the run's private directory, with its decrypted secrets, outlives a SIGKILLed server …
    private_dir = server.data_dir / "runs" / f"run-{running['id']}"
    assert (private_dir / "secrets" / "extravars.json").is_file()
    stale = server.data_dir / "runs" / "run-987654"  # … as may one of a run that is gone
    (stale / "secrets").mkdir(parents=True)
    server.start()
    with server.api() as api:
        interrupted = api.get(f"{base}/runs/{running['id']}").json()
        after = wait_for_run(
            api, f"{base}/runs/{queued['id']}", statuses={"successful", "failed", "error"}
        )
    assert interrupted["status"] == "error"
    assert interrupted["status_reason"] == "interrupted: server stopped during the run"
    assert processes.run_processes(run_uuid) == []
    assert not private_dir.exists()  # removed by the recovery at start
    assert not stale.exists()
    assert after["status"] == "successful"
