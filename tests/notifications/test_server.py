"""A real `steward serve` process delivers notifications: its notifier is one of the server's
services (``server.build_app``), not something the in-process test app adds."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx2
import pytest
from support.admin import ADMIN_TOKEN
from support.builders import PLAYBOOKS, bearer, localhost_project, post
from support.notifications import HttpReceiver
from support.server import Server

pytestmark = [pytest.mark.slow, pytest.mark.sqlite_only]  # the server's services, not its database


def test_a_served_failed_run_is_told_with_its_first_failure(
    tmp_path: Path, database_url: str
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    settings = {
        "database_url": database_url,
        "notifier_tick_seconds": "0.1",
        "url": "https://steward.example/",
    }
    with (
        HttpReceiver() as receiver,
        Server(tmp_path / "data", **settings).running() as server,
        httpx2.Client(
            base_url=f"http://127.0.0.1:{server.port}/api/v1",
            headers=bearer(ADMIN_TOKEN),
            timeout=30,
        ) as api,
    ):
        ids = localhost_project(api, repo, "served")
        base = f"/projects/{ids['project']}"
        template = post(
            api,
            f"{base}/templates",
            {
                "name": "breaks",
                "playbook": "fail.yml",
                "repository_id": ids["repository"],
                "inventory_id": ids["inventory"],
            },
        )["id"]
        key = post(api, f"{base}/keys", {"name": "hmac", "kind": "secret", "value": "s3cret"})
        destination = post(
            api,
            f"{base}/notification-destinations",
            {
                "name": "hook",
                "kind": "webhook",
                "config": {"url": receiver.url()},
                "secret_key_id": key["id"],
            },
        )
        post(
            api,
            f"{base}/notification-subscriptions",
            {"destination_id": destination["id"], "events": ["failed"], "template_id": template},
        )
        run = post(api, f"{base}/runs", {"template_id": template})
        [told] = receiver.wait_for(1, timeout=60)

    assert told.signed_by("s3cret")
    body = told.json()
    assert body["event"] == "failed"
    assert body["title"] == f"[served] breaks #{run['id']} failed"
    assert body["url"] == f"https://steward.example/projects/{ids['project']}/runs/{run['id']}"
    assert body["first_failure"] == {"task": "explode", "host": "localhost", "message": "boom"}
