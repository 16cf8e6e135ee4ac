"""A real playbook where one of two hosts sleeps on a task: ``host_quiet`` tells that host (and
not the one that answered) while the run still runs, once."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from support.builders import Workbench
from support.notifications import (
    HttpReceiver,
    messages,
    settle,
    subscribe,
    webhook_destination,
)

pytestmark = [pytest.mark.slow, pytest.mark.sqlite_only, pytest.mark.loops("notifier")]

# localhost twice, under two names: db2 sleeps on the task, db1 answers at once (skipped: no
# module to start, which takes seconds on a busy machine)
INVENTORY = "".join(
    f"{name} ansible_connection=local ansible_python_interpreter={sys.executable}\n"
    for name in ("db1", "db2")
)
PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: apply patch
      ansible.builtin.command: sleep 60
      when: inventory_hostname == 'db2'
"""


@pytest.fixture
def receiver() -> Iterator[HttpReceiver]:
    with HttpReceiver() as r:
        yield r


def test_a_sleeping_host_is_told_while_the_run_runs(
    workbench: Workbench, receiver: HttpReceiver
) -> None:
    client, project = workbench.client, workbench.project_id
    (workbench.repo_dir / "patch.yml").write_text(PLAYBOOK)
    template = workbench.template(
        "patch.yml", name="patch", inventory_id=workbench.inventory("two", INVENTORY)
    )
    destination = webhook_destination(client, project, receiver.url(), "hmac-secret")
    subscribe(
        client,
        project,
        destination_id=destination["id"],
        events=["host_quiet"],
        template_id=template,
        host_quiet_minutes=0.05,  # 3 s
    )
    run = workbench.launch(template)
    [told] = receiver.wait_for(1, timeout=45)
    assert workbench.run(run["id"])["status"] == "running"
    body = told.json()
    assert told.headers["x-steward-event"] == "host_quiet"
    assert body["quiet_host"]["host"] == "db2"
    assert body["quiet_host"]["task"] == "apply patch"
    assert body["quiet_host"]["quiet_seconds"] >= 3
    assert body["title"].startswith(f"[bench] patch #{run['id']} has a quiet host: db2, ")
    assert body["url"].endswith(f"/projects/{project}/runs/{run['id']}")
    settle(0.5)  # five more ticks: db2 is still quiet, and told once; db1 answered
    assert len(receiver.requests) == 1
    [logged] = messages(client, project, destination["id"])
    assert (logged["event"], logged["host"], logged["run_id"]) == ("host_quiet", "db2", run["id"])

    assert client.post(workbench.url(f"runs/{run['id']}/cancel")).status_code == 202
    assert workbench.wait(run["id"])["status"] == "canceled"
