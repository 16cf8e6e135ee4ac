"""Drift, found by itself, with a real ansible-playbook on localhost and the app's own
dispatcher: a clean run writes a file, the file is changed behind Steward's back, a schedule of
plans fired through the firing code (as the scheduler fires it) finds the drift and queues one
``drift_detected`` (sent by the notifier to a real receiver on 127.0.0.1), a second identical
plan queues none (and nothing more is sent), and "apply to fix" (the plan's bound apply) puts
the file back and clears the drift. Also the routes' wiring: the schedule's ``plan``
field, the project's, the template's and the host's drift reads."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from support.apps import shared_client
from support.builders import localhost_project, post
from support.notifications import HttpReceiver, subscribe, webhook_destination
from support.waits import wait_for_run

from steward.db import utcnow
from steward.notifications.models import Message, RunEventKind
from steward.schedules import firing
from steward.schedules.models import Schedule

PLAYBOOK = """\
- hosts: all
  gather_facts: false
  tasks:
    - name: write the config
      ansible.builtin.copy:
        dest: "{{ target_dir }}/app.conf"
        content: "port=8080\\n"
"""


class Story:
    def __init__(self, client: TestClient, repo: Path, target: Path) -> None:
        self.client, self.target = client, target
        ids = localhost_project(client, repo, "drifting")
        self.project = ids["project"]
        self.template = post(
            client,
            self.url("templates"),
            {
                "name": "site",
                "playbook": "site.yml",
                "repository_id": ids["repository"],
                "inventory_id": ids["inventory"],
                "extra_vars": {"target_dir": str(target)},
                "plans_allowed": True,
            },
        )["id"]
        self.plain = post(
            client,
            self.url("templates"),
            {
                "name": "plain",
                "playbook": "site.yml",
                "repository_id": ids["repository"],
                "inventory_id": ids["inventory"],
            },
        )["id"]

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project}/{path}"

    def get(self, path: str, status: int = 200) -> dict[str, Any]:
        response = self.client.get(self.url(path))
        assert response.status_code == status, response.text
        found: dict[str, Any] = response.json()
        return found

    def wait(self, run_id: int) -> dict[str, Any]:
        done = wait_for_run(self.client, self.url(f"runs/{run_id}"))
        if done["status"] != "successful":
            lines = self.client.get(self.url(f"runs/{run_id}/output")).text
            raise AssertionError(f"{done['status_reason']}: {lines[-3000:]}")
        return done

    def fire(self, schedule_id: int) -> dict[str, Any]:
        """The schedule's occurrence, claimed and launched by ``schedules.firing`` with the
        app's own sessions, cipher and queue (as the scheduler's tick does); the plan, done."""
        app = self.client.app
        runtime, queue = app.state.runtime, app.state.queue  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            schedule = session.get_one(Schedule, schedule_id)
            assert schedule.next_fire_at is not None
            todo = firing.Plan(
                schedule_id=schedule.id,
                due=schedule.next_fire_at,
                updated_at=schedule.updated_at,
                next_fire_at=schedule.next_fire_at + dt.timedelta(days=1),
                launch=True,
            )
            ttl = runtime.settings.plan_ttl_hours
            launched = firing.fire(
                session, runtime.cipher, queue, [todo], utcnow(), plan_ttl_hours=ttl
            )
        assert len(launched) == 1
        return self.wait(launched[0])

    def drift_messages(self) -> int:
        runtime = self.client.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            return session.scalar(
                select(func.count())
                .select_from(Message)
                .where(Message.event == RunEventKind.DRIFT_DETECTED.value)
            ) or 0  # fmt: skip


@pytest.fixture(scope="module")
def story(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Story]:
    repo = tmp_path_factory.mktemp("drift-repo") / "site"
    repo.mkdir()
    (repo / "site.yml").write_text(PLAYBOOK)
    target = tmp_path_factory.mktemp("drift-target")
    changes = {"local_repository_roots": [repo.parent], "notifier_tick_seconds": 0.1}
    with shared_client(request, "notifier", **changes) as client:
        yield Story(client, repo, target)


def test_a_schedule_of_plans_of_a_template_without_plans_is_a_422(story: Story) -> None:
    body = {"name": "nightly", "kind": "cron", "expression": "0 3 * * *", "plan": True}
    refused = story.client.post(story.url(f"templates/{story.plain}/schedules"), json=body)
    assert refused.status_code == 422, refused.text
    assert "plan" in refused.json()["detail"]
    assert "does not allow plans" in refused.json()["detail"]
    body["plan"] = False  # the control
    made = story.client.post(story.url(f"templates/{story.plain}/schedules"), json=body)
    assert made.status_code == 201, made.text
    assert made.json()["plan"] is False


def test_drift_found_by_a_scheduled_plan_is_told_once_and_fixed_by_its_apply(
    story: Story,
) -> None:
    with HttpReceiver() as receiver:
        destination = webhook_destination(story.client, story.project, receiver.url(), "s3")
        subscribe(
            story.client, story.project, destination_id=destination["id"], events=["drift_detected"]
        )
        run = post(story.client, story.url("runs"), {"template_id": story.template})
        story.wait(run["id"])  # the clean run the hosts will move away from
        config = story.target / "app.conf"
        assert config.read_text() == "port=8080\n"
        body = {"name": "nightly plan", "kind": "cron", "expression": "0 3 * * *", "plan": True}
        schedule = post(story.client, story.url(f"templates/{story.template}/schedules"), body)
        assert schedule["plan"] is True
        assert story.get(f"templates/{story.template}/drift")["state"] == "unchecked"

        config.write_text("port=9999\n")  # changed behind Steward's back
        first = story.fire(schedule["id"])
        assert (first["kind"], first["schedule_id"]) == ("plan", schedule["id"])
        drift = story.get(f"templates/{story.template}/drift")
        assert drift["state"] == "drift"
        assert (drift["plan_run_id"], drift["baseline_run_id"]) == (first["id"], run["id"])
        assert drift["hosts"] == ["localhost"]
        diff = drift["tasks"][0]["hosts"][0]["diff"]
        assert "-port=9999" in diff
        assert "+port=8080" in diff
        assert drift["can_apply"], drift["apply_refusal"]
        assert story.drift_messages() == 1
        # the notifier sends it: a real receiver gets it, signed, naming the drift
        (sent,) = receiver.wait_for(1)
        told = sent.json()
        assert sent.signed_by("s3")
        assert (told["event"], told["run"]["id"]) == ("drift_detected", first["id"])
        assert told["title"].endswith(f"site: plan #{first['id']} found drift")
        assert f"/projects/{story.project}/drift" in told["text"]

        second = story.fire(schedule["id"])  # the same drift, the next night
        assert story.drift_messages() == 1  # told once
        listed = story.get("drift")
        assert [(t["template_id"], t["plan_run_id"]) for t in listed["templates"]] == [
            (story.template, second["id"])
        ]
        assert listed["hosts"] == [
            {
                "host": "localhost",
                "templates": [{"template_id": story.template, "template_name": "site"}],
            }
        ]
        on_host = story.get("hosts/localhost/drift")
        assert [t["template_id"] for t in on_host["templates"]] == [story.template]

        fix = post(
            story.client, story.url(f"runs/{listed['templates'][0]['plan_run_id']}/apply"), {}
        )
        assert fix["kind"] == "apply"
        story.wait(fix["id"])
        assert config.read_text() == "port=8080\n"
        cleared = story.get(f"templates/{story.template}/drift")
        assert (cleared["state"], cleared["cleared_by_run_id"]) == ("clean", fix["id"])
        assert story.get("drift")["templates"] == []
        assert story.get("hosts/localhost/drift")["templates"] == []
        # the same drift seen again was not sent again (the notifier ticked many times since)
        assert len(receiver.requests) == 1


def test_the_drift_of_a_host_the_project_does_not_know_is_a_404(story: Story) -> None:
    story.get("hosts/nowhere.example/drift", 404)
    story.get("hosts/localhost/drift")  # the control
