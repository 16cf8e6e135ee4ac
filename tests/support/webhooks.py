"""Webhook tests: a real ``steward serve`` per test process (and backend), senders that sign
their deliveries the way GitHub, GitLab and generic senders do, and builders of hooks."""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from support.builders import PLAYBOOKS, localhost_project, post
from support.databases import BACKENDS
from support.postgres import PostgresServer
from support.server import Server

SECRET = "hook-secret-that-must-never-leak-4d1f"


def github_headers(body: bytes, secret: str = SECRET, event: str = "push") -> dict[str, str]:
    signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/json",
        "X-GitHub-Event": event,
        "X-GitHub-Delivery": str(uuid.uuid4()),
        "X-Hub-Signature-256": f"sha256={signature}",
    }


def gitlab_headers(secret: str = SECRET, event: str = "Push Hook") -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "X-Gitlab-Event": event,
        "X-Gitlab-Event-UUID": str(uuid.uuid4()),
        "X-Gitlab-Token": secret,
    }


def hmac_headers(body: bytes, secret: str = SECRET) -> dict[str, str]:
    signature = hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    return {
        "Content-Type": "application/json",
        "X-Steward-Delivery": str(uuid.uuid4()),
        "X-Steward-Signature-256": f"sha256={signature}",
    }


def bearer_headers(secret: str = SECRET) -> dict[str, str]:
    return {
        "Content-Type": "application/json",
        "X-Steward-Delivery": str(uuid.uuid4()),
        "Authorization": f"Bearer {secret}",
    }


def encode(document: Any) -> bytes:
    return json.dumps(document).encode()


@dataclasses.dataclass
class HookServer:
    """A running server, an admin API client of it, and a client for senders (no login)."""

    server: Server
    api: httpx2.Client
    sender: httpx2.Client
    root: Path  # a directory inside the server's local repository roots

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}"

    def deliver(self, url: str, body: bytes, headers: dict[str, str]) -> httpx2.Response:
        """POST a delivery to a webhook's receive URL as a sender does."""
        return self.sender.post(url, content=body, headers=headers)

    def project(self, name: str) -> dict[str, int]:
        """A project running the test playbooks on localhost, with a 'secret' key (SECRET)."""
        repo = self.root / f"{name}-playbooks"
        shutil.copytree(PLAYBOOKS, repo)
        ids = localhost_project(self.api, repo, name)
        key = {"name": "hook-secret", "kind": "secret", "value": SECRET}
        ids["key"] = post(self.api, f"/projects/{ids['project']}/keys", key)["id"]
        return ids

    def repo_dir(self, name: str) -> Path:
        return self.root / f"{name}-playbooks"

    def unrunnable(self, name: str) -> None:
        """Remove project ``name``'s repository directory once its templates are saved: the
        runs its deliveries launch are real launches that end at once (``error``, the checkout
        fails) without starting ansible-playbook, for tests about the delivery, not the run."""
        shutil.rmtree(self.repo_dir(name))

    def template(self, ids: dict[str, int], playbook: str = "ok.yml", **body: Any) -> int:
        created = post(
            self.api,
            f"/projects/{ids['project']}/templates",
            {
                "name": body.pop("name", playbook.removesuffix(".yml")),
                "playbook": playbook,
                "repository_id": ids["repository"],
                "inventory_id": ids["inventory"],
                **body,
            },
        )
        template_id: int = created["id"]
        return template_id

    def webhook(self, ids: dict[str, int], template_id: int, **body: Any) -> dict[str, Any]:
        return post(
            self.api,
            f"/projects/{ids['project']}/templates/{template_id}/webhooks",
            {"name": "hook", "auth": "github", "secret_key_id": ids["key"], **body},
        )

    def deliveries(self, hook: dict[str, Any], **params: Any) -> list[dict[str, Any]]:
        url = f"/projects/{hook['project_id']}/webhooks/{hook['id']}/deliveries"
        response = self.api.get(url, params=params)
        assert response.status_code == 200, response.text
        items: list[dict[str, Any]] = response.json()["items"]
        return items

    def delivery(self, hook: dict[str, Any], delivery_id: int) -> dict[str, Any]:
        url = f"/projects/{hook['project_id']}/webhooks/{hook['id']}/deliveries/{delivery_id}"
        response = self.api.get(url)
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found


@pytest.fixture(scope="session", params=BACKENDS)
def hook_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[HookServer]:
    """One real server per test process and backend (its start costs ~4 s), shared by the
    webhook modules: SQLite in its data directory, or a fresh PostgreSQL database; each test
    makes its own project (a name no other test of any module uses)."""
    root = tmp_path_factory.mktemp("hooks")
    settings: dict[str, str] = {}
    postgres: PostgresServer | None = None
    database = ""
    if request.param == "postgres":
        postgres = request.getfixturevalue("postgres")
        database = postgres.create_database()
        settings["database_url"] = postgres.url(database)
    try:
        with (
            Server(root / "data", **settings).running() as server,
            server.api() as api,
            httpx2.Client(timeout=30) as sender,
        ):
            yield HookServer(server, api, sender, root)
    finally:
        if postgres is not None:
            postgres.drop_database(database)
