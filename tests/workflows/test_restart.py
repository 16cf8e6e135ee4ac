"""A real `steward serve` killed with SIGKILL in the middle of a workflow, then started again:
the workflow continues where it was (the interrupted node's failure edge, a waiting approval)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.builders import PLAYBOOKS, localhost_project, post
from support.server import Server
from support.waits import wait_for_run
from support.workflows import Workflows, approval_node, edge, nodes, statuses, template_node

pytestmark = pytest.mark.sqlite_only  # the server runs on its embedded default


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "data", workflow_tick_seconds="0.2").running() as srv:
        yield srv


def test_a_killed_server_continues_the_workflow_after_its_restart(
    server: Server, tmp_path: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    api = server.api()
    ids = localhost_project(api, repo, "restart")
    base = f"/projects/{ids['project']}"
    common = {"repository_id": ids["repository"], "inventory_id": ids["inventory"]}
    slow = post(api, f"{base}/templates", {"name": "slow", "playbook": "slow.yml", **common})
    ok = post(api, f"{base}/templates", {"name": "ok", "playbook": "ok.yml", **common})
    flows = Workflows(api, ids["project"], prefix="")
    wf = flows.create(
        [
            template_node("long", slow["id"]),
            template_node("recover", ok["id"]),
            approval_node("gate", must_differ=False),
            template_node("after", ok["id"]),
        ],
        [edge("long", "recover", "failure"), edge("gate", "after")],
    )
    launched = flows.launch(wf["id"])
    long_run = nodes(launched)["long"]["run_id"]
    wait_for_run(api, f"{base}/runs/{long_run}", statuses={"running"})
    assert statuses(flows.read(launched["id"]))["gate"] == "waiting"
    api.close()

    server.kill()
    server.start()
    with server.api() as api:
        flows = Workflows(api, ids["project"], prefix="")
        # the interrupted run failed at the start; its failure edge runs "recover"
        recovered = flows.wait(
            launched["id"], until=lambda w: nodes(w)["recover"]["status"] == "successful"
        )
        assert nodes(recovered)["long"]["status"] == "failed"
        assert "interrupted" in nodes(recovered)["long"]["reason"]
        assert statuses(recovered)["gate"] == "waiting"
        assert recovered["status"] == "running"
        decided = api.post(f"{base}/workflow-runs/{launched['id']}/nodes/gate/approve")
        assert decided.status_code == 200, decided.text
        done = flows.wait(launched["id"])
        assert done["status"] == "successful", done
        assert statuses(done) == {
            "long": "failed", "recover": "successful", "gate": "successful", "after": "successful"
        }  # fmt: skip
        interrupted = api.get(f"{base}/runs/{long_run}").json()
        assert interrupted["status"] == "error"
