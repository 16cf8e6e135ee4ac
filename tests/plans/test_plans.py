"""Plans and their bound applies with a real ansible-playbook on localhost, a real git
repository (``file://``, cloned and asked with ``git ls-remote`` like a remote one) and the
app's own dispatcher. One module-scoped app and project: each plan serves several assertions."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.apps import shared_client
from support.builders import (
    LOCALHOST_INVENTORY,
    assign_local_roots,
    git_commit_all,
    git_init,
    make_user,
    token,
)
from support.waits import wait_for_run

from steward.db import utcnow
from steward.notifications import messages
from steward.notifications.models import Message, RunEventKind
from steward.runs.models import RunChange

SECRET = "kestrel-7731-secret"  # a key-store value: never in a stored diff
HIDDEN = "no-log-payload-5512"  # written by a no_log task
PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: write the config
      ansible.builtin.copy:
        dest: "{{ target_dir }}/app.conf"
        content: "port=8080\\npassword={{ db_password }}\\n"
    - name: keep the motd
      ansible.builtin.copy:
        dest: "{{ target_dir }}/motd"
        content: "welcome\\n"
    - name: ask the database
      ansible.builtin.command: echo ready
      register: probe
    - name: follow the probe
      ansible.builtin.copy:
        dest: "{{ target_dir }}/probe.txt"
        content: "{{ probe.stdout | default('') }}\\n"
    - name: hidden
      ansible.builtin.copy:
        dest: "{{ target_dir }}/hidden.txt"
        content: "{{ hidden_value }}\\n"
      no_log: true
"""


class Bench:
    def __init__(self, client: TestClient, repo: Path, target: Path) -> None:
        self.client, self.repo, self.target = client, repo, target
        self.project = self.post("/api/v1/projects", {"name": "plans"})["id"]
        assign_local_roots(client, self.project, repo)
        self.repository = self.post(
            self.url("repositories"),
            {"name": "site", "kind": "git", "url": f"file://{repo}", "ref": "main"},
        )["id"]
        self.inventory = self.post(
            self.url("inventories"),
            {"name": "local", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY},
        )["id"]
        key = self.post(self.url("keys"), {"name": "db", "kind": "secret", "value": SECRET})["id"]
        environment = self.post(
            self.url("environments"),
            {
                "name": "prod",
                "secrets": [{"name": "db_password", "target": "extra_var", "key_id": key}],
            },
        )["id"]
        self.template = self.post(
            self.url("templates"),
            {
                "name": "site",
                "playbook": "site.yml",
                "repository_id": self.repository,
                "inventory_id": self.inventory,
                "environment_id": environment,
                "extra_vars": {"target_dir": str(target), "hidden_value": HIDDEN},
                "plans_allowed": True,
            },
        )["id"]

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project}/{path}"

    def post(self, url: str, body: dict[str, Any], status: int = 201) -> dict[str, Any]:
        response = self.client.post(url, json=body)
        assert response.status_code == status, response.text
        found: dict[str, Any] = response.json()
        return found

    def plan(self) -> dict[str, Any]:
        run = self.post(self.url(f"templates/{self.template}/plans"), {})
        done = wait_for_run(self.client, self.url(f"runs/{run['id']}"))
        assert done["status"] == "successful", done["status_reason"]
        return done

    def read_plan(self, run_id: int) -> dict[str, Any]:
        response = self.client.get(self.url(f"runs/{run_id}/plan"))
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    def apply(self, plan_id: int, status: int = 201) -> dict[str, Any]:
        return self.post(self.url(f"runs/{plan_id}/apply"), {}, status)

    def wait(self, run_id: int) -> dict[str, Any]:
        return wait_for_run(self.client, self.url(f"runs/{run_id}"))

    def commit(self, name: str, text: str) -> None:
        (self.repo / name).write_text(text)
        git_commit_all(self.repo, f"add {name}")


@pytest.fixture(scope="module")
def bench(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Bench]:
    repo = tmp_path_factory.mktemp("plans-repo") / "site"
    git_init(repo)
    (repo / "site.yml").write_text(PLAYBOOK)
    git_commit_all(repo, "site")
    target = tmp_path_factory.mktemp("plans-target")
    (target / "motd").write_text("welcome\n")  # as the playbook wants it: no change planned
    with shared_client(request, local_repository_roots=[repo.parent]) as client:
        yield Bench(client, repo, target)


@pytest.fixture(scope="module")
def planned(bench: Bench) -> dict[str, Any]:
    run = bench.plan()
    return {"run": run, "plan": bench.read_plan(run["id"])}


def _task(plan: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in plan["tasks"] if t["task"] == name)


def test_a_plan_predicts_a_file_change_with_its_unified_diff(planned: dict[str, Any]) -> None:
    run, plan = planned["run"], planned["plan"]
    assert run["kind"] == "plan"
    assert run["params"]["check_mode"]
    assert run["params"]["diff_mode"]
    assert plan["summary"] == "1 host changes, 2 tasks, 2 unknown"
    assert plan["hosts_changing"] == ["localhost"]
    config = _task(plan, "write the config")
    assert config["outcome"] == "change"
    assert config["task_path"] == "site.yml:4"
    diff = config["hosts"][0]["diff"]
    assert "+port=8080" in diff
    assert "after: " in diff
    assert all(t["task"] != "keep the motd" for t in plan["tasks"])  # no change: not listed


def test_unknowns_come_first_with_their_reason(planned: dict[str, Any]) -> None:
    tasks = planned["plan"]["tasks"]
    assert [t["outcome"] for t in tasks[:2]] == ["unknown", "unknown"]
    assert (
        "skipped in check mode" in _task(planned["plan"], "ask the database")["hosts"][0]["reason"]
    )
    follow = _task(planned["plan"], "follow the probe")
    assert follow["outcome"] == "unknown"
    assert "'probe'" in follow["hosts"][0]["reason"]


def test_a_key_store_secret_and_a_no_log_result_are_never_in_stored_diffs(
    bench: Bench, planned: dict[str, Any]
) -> None:
    config = _task(planned["plan"], "write the config")["hosts"][0]["diff"]
    assert "+password=********" in config  # the key-store value, masked: the control
    hidden = _task(planned["plan"], "hidden")
    assert hidden["outcome"] == "change"
    assert hidden["hosts"][0]["diff"] == ""
    runtime = bench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        diffs = session.scalars(
            select(RunChange.diff).where(RunChange.run_id == planned["run"]["id"])
        ).all()
    assert diffs
    assert not any(SECRET in d or HIDDEN in d for d in diffs)


def test_an_apply_binds_the_commit_flags_an_unplanned_change_and_consumes_the_plan(
    bench: Bench, planned: dict[str, Any]
) -> None:
    plan_id = planned["run"]["id"]
    (bench.target / "motd").write_text("changed behind the plan's back\n")
    applied = bench.apply(plan_id)
    assert applied["kind"] == "apply"
    assert applied["plan_id"] == plan_id
    assert not applied["params"]["check_mode"]
    assert applied["params"]["ref"] == planned["run"]["commit_hash"]
    done = bench.wait(applied["id"])
    assert done["status"] == "successful", done["status_reason"]
    assert done["commit_hash"] == planned["run"]["commit_hash"]
    assert (bench.target / "app.conf").read_text() == f"port=8080\npassword={SECRET}\n"
    unplanned = done["plan"]["unplanned"]
    assert [u["task"] for u in unplanned] == ["keep the motd"]  # the planned ones are not
    assert bench.read_plan(plan_id)["apply_run_id"] == applied["id"]
    runtime = bench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:  # the run-finished notification says so too
        message = Message(run_id=applied["id"], event=RunEventKind.SUCCEEDED)
        text = messages.for_run(session, message, "http://steward.test", utcnow())["text"]
    assert f"Unplanned changes (1, not predicted by plan #{plan_id}):" in text
    assert "task 'keep the motd' (site.yml:8) on localhost" in text
    again = bench.client.post(bench.url(f"runs/{plan_id}/apply"))
    assert again.status_code == 409
    assert "applied already" in again.json()["detail"]
    assert "plan again" in again.json()["detail"]


def test_an_apply_is_refused_after_a_template_edit_and_after_a_push(bench: Bench) -> None:
    plan_id = bench.plan()["id"]
    template = bench.url(f"templates/{bench.template}")
    original = bench.client.get(template).json()["extra_vars"]
    edited = bench.client.patch(template, json={"extra_vars": {**original, "port": 1}})
    assert edited.status_code == 200, edited.text
    refused = bench.client.post(bench.url(f"runs/{plan_id}/apply"))
    assert refused.status_code == 409
    assert refused.json()["detail"].startswith("the template and the launch values changed")
    assert bench.client.patch(template, json={"extra_vars": original}).status_code == 200
    bench.commit("README", "pushed after the plan\n")
    refused = bench.client.post(bench.url(f"runs/{plan_id}/apply"))
    assert refused.status_code == 409
    assert "'main' moved since the plan" in refused.json()["detail"], refused.text
    assert refused.json()["detail"].endswith("plan again")


def test_a_host_added_since_the_plan_fails_the_apply_before_ansible_runs(bench: Bench) -> None:
    plan_id = bench.plan()["id"]
    inventory = bench.url(f"inventories/{bench.inventory}")
    added = LOCALHOST_INVENTORY + "127.0.0.2 ansible_connection=local\n"
    assert bench.client.patch(inventory, json={"content": added}).status_code == 200
    try:
        applied = bench.apply(plan_id)  # the API cannot know: the inventory is resolved there
        done = bench.wait(applied["id"])
    finally:
        bench.client.patch(inventory, json={"content": LOCALHOST_INVENTORY})
    assert done["status"] == "failed"
    assert done["status_reason"] == (
        "the inventory changed since the plan (1 host was added): plan again"
    )
    assert done["event_count"] == 0  # ansible-playbook never started


def test_a_plan_needing_approval_is_approved_by_another_person_only(bench: Bench) -> None:
    template = bench.url(f"templates/{bench.template}")
    assert bench.client.patch(template, json={"plan_approval": True}).status_code == 200
    try:
        plan_id = bench.plan()["id"]
    finally:
        bench.client.patch(template, json={"plan_approval": False})
    assert bench.read_plan(plan_id)["approval"]["state"] == "waiting"
    refused = bench.client.post(bench.url(f"runs/{plan_id}/apply"))
    assert refused.status_code == 409
    assert "needs an approval" in refused.json()["detail"]
    mine = bench.client.post(bench.url(f"runs/{plan_id}/approval"), json={"approve": True})
    assert mine.status_code == 403  # the admin launched it: admins included
    assert "someone other than its launcher" in mine.json()["detail"]
    olga_id = make_user(bench.client, "olga")["id"]
    body = {"user_id": olga_id, "role": "operator"}
    assert bench.client.put(bench.url("members"), json=body).status_code == 200
    olga = {"Authorization": f"Bearer {token(bench.client, 'olga')}"}
    approved = bench.client.post(
        bench.url(f"runs/{plan_id}/approval"),
        json={"approve": True, "comment": "diff read"},
        headers=olga,
    )
    assert approved.status_code == 200, approved.text
    read = approved.json()
    assert read["approval"]["state"] == "approved"
    assert read["approval"]["decided_by"] == "olga"
    assert read["approval"]["comment"] == "diff read"
    assert read["apply_refusal"] == ""
    run = bench.client.get(bench.url(f"runs/{plan_id}")).json()
    assert run["plan"]["approval"] == "approved"


def test_the_plans_tasks_and_a_tasks_hosts_are_paged(bench: Bench, planned: dict[str, Any]) -> None:
    run_id = planned["run"]["id"]
    first = bench.client.get(bench.url(f"runs/{run_id}/plan/tasks"), params={"limit": 3})
    assert first.status_code == 200, first.text
    page = first.json()
    assert [t["outcome"] for t in page["items"]] == ["unknown", "unknown", "change"]
    rest = bench.client.get(
        bench.url(f"runs/{run_id}/plan/tasks"), params={"after": page["next_after"]}
    ).json()
    names = [t["task"] for t in page["items"] + rest["items"]]
    assert names == [t["task"] for t in planned["plan"]["tasks"]]  # the read's order, all of it
    assert rest["next_after"] is None
    config = next(t for t in page["items"] + rest["items"] if t["task"] == "write the config")
    assert config["host_count"] == 1
    hosts = bench.client.get(bench.url(f"runs/{run_id}/plan/tasks/{config['key']}/hosts"))
    assert hosts.status_code == 200, hosts.text
    assert [h["host"] for h in hosts.json()["items"]] == ["localhost"]
    assert "+port=8080" in hosts.json()["items"][0]["diff"]
