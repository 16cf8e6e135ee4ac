"""Real playbook runs tell their subscribers: what each event says (template, launcher,
duration, recap, first failure, link), fixed and changed, still running after N minutes,
per-template subscriptions, disabled destinations, and no secret in any message."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest
from support.builders import Workbench
from support.notifications import (
    HttpReceiver,
    Received,
    messages,
    settle,
    subscribe,
    wait_messages,
    webhook_destination,
)
from support.waits import wait_until

from .conftest import BASE_URL

# real runs; what is queried and claimed is also on PostgreSQL in test_outbox and test_delivery
pytestmark = [pytest.mark.slow, pytest.mark.sqlite_only, pytest.mark.loops("notifier")]

SURVEY_PASSWORD = "survey-p4ssword-never-in-a-message"
HMAC_SECRET = "signing-secret-of-the-receiver"
# fails when asked to (quoting a survey password: the recorder masks it), changes when asked to
NOTIFY_PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: change something
      ansible.builtin.command: "true"
      changed_when: "{{ change | default(false) | bool }}"
    - name: check the password
      ansible.builtin.fail: {msg: "rejected password {{ db_password }}"}
      when: fail_it | default(false) | bool
"""


@pytest.fixture
def receiver() -> Iterator[HttpReceiver]:
    with HttpReceiver() as r:
        yield r


def by_event(requests: list[Received], run_id: int) -> dict[str, dict[str, Any]]:
    """The bodies received about ``run_id``, by event; each event once."""
    bodies = [r.json() for r in requests]
    mine = [b for b in bodies if b["run"] and b["run"]["id"] == run_id]
    events = [b["event"] for b in mine]
    assert len(events) == len(set(events)), f"an event told twice: {events}"
    return {b["event"]: b for b in mine}


def test_failed_then_fixed_then_plain_success(workbench: Workbench, receiver: HttpReceiver) -> None:
    project = workbench.project_id
    client = workbench.client
    (workbench.repo_dir / "notify.yml").write_text(NOTIFY_PLAYBOOK)
    survey = [{"variable": "db_password", "label": "DB password", "type": "password"}]
    deploy = workbench.template(
        "notify.yml", name="deploy", overridable=["extra_vars"], survey=survey
    )
    quiet = workbench.template("ok.yml", name="quiet")
    everything = webhook_destination(client, project, receiver.url("/all"), HMAC_SECRET)
    events = ["started", "succeeded", "failed", "fixed", "changed"]
    subscribe(client, project, destination_id=everything["id"], events=events)
    # the same destination again through the template: still one message per event
    subscribe(client, project, destination_id=everything["id"], events=events, template_id=deploy)
    with HttpReceiver() as other_receiver, HttpReceiver() as disabled_receiver:
        other = webhook_destination(
            client, project, other_receiver.url("/quiet"), HMAC_SECRET, name="quiet-only"
        )
        subscribe(client, project, destination_id=other["id"], events=events, template_id=quiet)
        disabled = webhook_destination(
            client, project, disabled_receiver.url(), HMAC_SECRET, name="off", enabled=False
        )
        subscribe(client, project, destination_id=disabled["id"], events=events)

        answers = {"db_password": SURVEY_PASSWORD}
        failed = workbench.launch(deploy, extra_vars={"fail_it": True}, survey=answers)
        assert workbench.wait(failed["id"])["status"] == "failed"
        fixed = workbench.launch(deploy, extra_vars={"change": True}, survey=answers)
        assert workbench.wait(fixed["id"])["status"] == "successful"
        plain = workbench.launch(deploy, survey=answers)
        assert workbench.wait(plain["id"])["status"] == "successful"
        # started, failed; started, succeeded, fixed, changed; started, succeeded
        wait_messages(client, project, everything["id"], 8)
        requests = receiver.wait_for(8)
        quiet_run = workbench.launch(quiet)
        workbench.wait(quiet_run["id"])
        to_other = other_receiver.wait_for(2)  # started, succeeded: its template's runs only
        settle(0.5)
        assert len(receiver.requests) == 10  # and the quiet run's 2, project-wide
        assert len(other_receiver.requests) == 2
        assert disabled_receiver.requests == []

    assert set(by_event(requests, failed["id"])) == {"started", "failed"}
    assert set(by_event(requests, fixed["id"])) == {"started", "succeeded", "fixed", "changed"}
    assert set(by_event(requests, plain["id"])) == {"started", "succeeded"}
    assert {b.json()["run"]["id"] for b in to_other} == {quiet_run["id"]}
    assert all(r.signed_by(HMAC_SECRET) for r in requests)

    body = by_event(requests, failed["id"])["failed"]
    assert body["title"] == f"[bench] deploy #{failed['id']} failed"
    assert body["url"] == f"{BASE_URL}/projects/{project}/runs/{failed['id']}"
    assert body["run"]["template"] == {"id": deploy, "name": "deploy"}
    assert body["run"]["launched_by"] == "admin"
    assert body["run"]["launch_type"] == "api"
    assert body["run"]["status"] == "failed"
    assert body["run"]["duration_seconds"] > 0
    assert body["first_failure"] == {
        "task": "check the password",
        "host": "localhost",
        "message": "rejected password ********",
    }
    assert body["hosts"] == [
        {"host": "localhost", "ok": 1, "changed": 0, "failed": 1, "unreachable": 0, "skipped": 0}
    ]
    text = body["text"]
    assert "Launched by: admin (api)" in text
    assert "Duration: " in text
    assert "localhost: ok=1 changed=0 failed=1 unreachable=0 skipped=0" in text
    assert "First failure: task 'check the password' on localhost: rejected password ****" in text
    assert text.endswith(body["url"])

    started = by_event(requests, failed["id"])["started"]
    assert started["title"] == f"[bench] deploy #{failed['id']} started"
    assert started["first_failure"] is None
    assert started["hosts"] == []

    fixed_body = by_event(requests, fixed["id"])["fixed"]
    assert "is fixed" in fixed_body["title"]
    assert fixed_body["first_failure"] is None
    assert fixed_body["hosts"][0]["changed"] == 1

    everything_said = [r.body.decode() for r in requests] + [
        str(m) for m in messages(client, project, everything["id"])
    ]
    assert not [s for s in everything_said if SURVEY_PASSWORD in s]
    assert not [s for s in everything_said if HMAC_SECRET in s]


def test_a_long_run_is_told_once_it_runs_longer_than_asked(
    workbench: Workbench, receiver: HttpReceiver
) -> None:
    project = workbench.project_id
    client = workbench.client
    slow = workbench.template("slow.yml", name="slow")
    destination = webhook_destination(client, project, receiver.url(), HMAC_SECRET)
    subscribe(
        client,
        project,
        destination_id=destination["id"],
        events=["long_running", "canceled"],
        template_id=slow,
        long_running_minutes=0.05,  # 3 s
    )
    run = workbench.launch(slow)
    [told] = receiver.wait_for(1, timeout=30)
    settle(1.0)  # ten more ticks: still once
    assert len(receiver.requests) == 1
    assert workbench.run(run["id"])["status"] == "running"
    body = told.json()
    assert body["event"] == "long_running"
    assert body["title"].startswith(f"[bench] slow #{run['id']} is still running after ")
    assert body["run"]["duration_seconds"] >= 3
    assert "Running for: " in body["text"]

    assert client.post(workbench.url(f"runs/{run['id']}/cancel")).status_code == 202
    assert workbench.wait(run["id"])["status"] == "canceled"
    requests = receiver.wait_for(2)
    assert [r.headers["x-steward-event"] for r in requests] == ["long_running", "canceled"]
    assert requests[1].json()["title"] == f"[bench] slow #{run['id']} was canceled"


def test_a_run_that_fails_before_it_starts_is_an_error(
    workbench: Workbench, receiver: HttpReceiver
) -> None:
    project = workbench.project_id
    client = workbench.client
    template = workbench.template("ok.yml", name="vanishing")
    destination = webhook_destination(client, project, receiver.url(), HMAC_SECRET)
    subscribe(client, project, destination_id=destination["id"], events=["error"])
    shutil.rmtree(workbench.repo_dir)  # its repository is gone: no checkout, no playbook
    run = workbench.launch(template)
    assert workbench.wait(run["id"])["status"] == "error"
    [told] = receiver.wait_for(1)
    body = told.json()
    assert body["event"] == "error"
    assert body["title"] == f"[bench] vanishing #{run['id']} ended in error"
    assert body["run"]["status_reason"] in body["text"]
    wait_until(lambda: messages(client, project, destination["id"])[0]["status"] == "sent")
