"""Plan and apply nodes with a real ansible-playbook on localhost and a real git repository
(``file://``, asked with ``git ls-remote`` like a remote one): the apply node applies its plan
node's plan through the binding an apply from the API goes through, waits for the plan's
approval (four eyes) and fails with the refusal ("plan again") when the branch moved."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.apps import shared_client
from support.builders import (
    LOCALHOST_INVENTORY,
    assign_local_roots,
    git_commit_all,
    git_init,
    make_user,
    post,
    token,
)
from support.workflows import Workflows, edge, node_waiting, nodes, statuses

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: write the config
      ansible.builtin.copy:
        dest: "{{ target_dir }}/app.conf"
        content: "port={{ port | default(8080) }}\\n"
"""
OK = """\
- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: after
"""


def plan_node(key: str, template_id: int) -> dict[str, Any]:
    return {"key": key, "kind": "plan", "template_id": template_id}


def apply_node(key: str, planned: str) -> dict[str, Any]:
    return {"key": key, "kind": "apply", "plan_node": planned}


class Bench:
    def __init__(self, client: TestClient, repo: Path, target: Path) -> None:
        self.client, self.repo, self.target = client, repo, target
        self.project = post(client, "/api/v1/projects", {"name": "plan-nodes"})["id"]
        assign_local_roots(client, self.project, repo)
        repository = post(
            client,
            self.url("repositories"),
            {"name": "site", "kind": "git", "url": f"file://{repo}", "ref": "main"},
        )["id"]
        inventory = post(
            client,
            self.url("inventories"),
            {"name": "local", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY},
        )["id"]
        common = {"repository_id": repository, "inventory_id": inventory}
        self.site = post(
            client,
            self.url("templates"),
            {
                "name": "site",
                "playbook": "site.yml",
                "extra_vars": {"target_dir": str(target)},
                "plans_allowed": True,
                **common,
            },
        )["id"]
        self.ok = post(
            client, self.url("templates"), {"name": "ok", "playbook": "ok.yml", **common}
        )["id"]
        self.flows = Workflows(client, self.project)

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project}/{path}"

    def run(self, run_id: int) -> dict[str, Any]:
        found: dict[str, Any] = self.client.get(self.url(f"runs/{run_id}")).json()
        return found

    def commit(self, name: str, text: str) -> None:
        (self.repo / name).write_text(text)
        git_commit_all(self.repo, f"add {name}")


@pytest.fixture(scope="module")
def bench(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Bench]:
    repo = tmp_path_factory.mktemp("plan-nodes-repo") / "site"
    git_init(repo)
    (repo / "site.yml").write_text(PLAYBOOK)
    (repo / "ok.yml").write_text(OK)
    git_commit_all(repo, "site")
    target = tmp_path_factory.mktemp("plan-nodes-target")
    changes = {"local_repository_roots": [repo.parent], "workflow_tick_seconds": 0.1}
    with shared_client(request, "workflows", **changes) as client:
        yield Bench(client, repo, target)


def test_an_apply_node_applies_its_plan_nodes_plan_with_the_plans_commit(bench: Bench) -> None:
    wf = bench.flows.create(
        [plan_node("plan", bench.site), apply_node("apply", "plan")],
        [edge("plan", "apply")],
        name="plan-apply",
    )
    assert wf["nodes"][1]["plan_node"] == "plan"
    launched = bench.flows.launch(wf["id"])
    assert statuses(launched) == {"plan": "running", "apply": "pending"}  # at once: the route
    done = bench.flows.wait(launched["id"])
    assert done["status"] == "successful", done
    plan_run = bench.run(nodes(done)["plan"]["run_id"])
    applied = bench.run(nodes(done)["apply"]["run_id"])
    assert plan_run["kind"] == "plan"
    assert plan_run["params"]["check_mode"]
    assert plan_run["workflow_run_id"] == launched["id"]
    assert applied["kind"] == "apply"
    assert applied["plan_id"] == plan_run["id"]
    assert applied["workflow_run_id"] == launched["id"]
    assert applied["status"] == "successful"
    assert applied["commit_hash"] == plan_run["commit_hash"]
    assert not applied["params"]["check_mode"]
    assert nodes(done)["apply"]["plan_node"] == "plan"
    assert nodes(done)["apply"]["template_id"] == bench.site
    assert (bench.target / "app.conf").read_text() == "port=8080\n"
    plan = bench.client.get(bench.url(f"runs/{plan_run['id']}/plan")).json()
    assert plan["apply_run_id"] == applied["id"]  # consumed: the API may not apply it again


def test_an_apply_node_waits_for_its_plans_approval_and_fails_when_the_branch_moved(
    bench: Bench,
) -> None:
    template = bench.url(f"templates/{bench.site}")
    assert bench.client.patch(template, json={"plan_approval": True}).status_code == 200
    try:
        wf = bench.flows.create(
            [
                plan_node("plan", bench.site),
                apply_node("apply", "plan"),
                {"key": "after", "kind": "template", "template_id": bench.ok},
            ],
            [edge("plan", "apply"), edge("apply", "after", "failure")],
            name="plan-push-apply",
        )
        launched = bench.flows.launch(wf["id"])
        waiting = bench.flows.wait(launched["id"], until=node_waiting("apply"))
    finally:
        bench.client.patch(template, json={"plan_approval": False})
    apply = nodes(waiting)["apply"]
    plan_id = nodes(waiting)["plan"]["run_id"]
    assert apply["reason"].startswith(f"waiting for the approval of plan {plan_id} by")
    assert apply["run_id"] is None
    mine = bench.client.post(bench.url(f"runs/{plan_id}/approval"), json={"approve": True})
    assert mine.status_code == 403  # the workflow's launcher launched the plan: four eyes
    assert "someone other than its launcher" in mine.json()["detail"]
    decided = bench.flows.decide(launched["id"], "apply")  # its plan is decided, not the node
    assert decided.status_code == 409
    bench.commit("README", "pushed after the plan\n")
    olga_id = make_user(bench.client, "olga-wf")["id"]
    body = {"user_id": olga_id, "role": "operator"}
    assert bench.client.put(bench.url("members"), json=body).status_code == 200
    olga = {"Authorization": f"Bearer {token(bench.client, 'olga-wf')}"}
    approved = bench.client.post(
        bench.url(f"runs/{plan_id}/approval"), json={"approve": True}, headers=olga
    )
    assert approved.status_code == 200, approved.text
    done = bench.flows.wait(launched["id"])
    apply = nodes(done)["apply"]
    assert apply["status"] == "failed"
    assert apply["run_id"] is None  # refused before anything launched
    assert "'main' moved since the plan" in apply["reason"], apply
    assert apply["reason"].endswith("plan again")
    assert statuses(done)["after"] == "successful"  # its failure edge
    assert done["status"] == "successful"
