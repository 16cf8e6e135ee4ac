"""One project seen by every kind of actor: the setting of the access tests.

Project ``p1`` holds a key, a repository, an inventory, an environment (whose secret is the key),
templates T1 and T2, a schedule of each (s1, s2), a webhook of each (w1, w2) with a test
delivery (d1, d2), a finished run of each (r1, r2: inserted with their output, as a run of
``ok.yml`` stores them) and a running one of each, launched by s1 and s2 (inserted: a running
run keeps its template, schedule and project from being deleted).
Project ``p2`` holds a template and a finished run (inserted: nothing reads more than that
it exists).

Actors: ``admin``; ``owner``, ``manager``, ``operator``, ``viewer`` (direct roles in p1);
``team_operator`` (team ``ops`` is operator in p1); ``runner`` (a ``run`` grant on T1);
``team_viewer`` (team ``watchers`` has a ``view`` grant on T1); ``outsider`` (no access);
``anonymous``; ``owner_read`` (a read-scope token of the owner).
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import (
    LOCALHOST_INVENTORY,
    PLAYBOOKS,
    bearer,
    browser,
    inserted_output,
    inserted_run,
    make_user,
    token,
)
from support.waits import wait_finished

from steward.auth.models import User
from steward.db import utcnow
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.workflows.models import WorkflowNodeRun

ACTORS = (
    "admin",
    "owner",
    "manager",
    "operator",
    "viewer",
    "team_operator",
    "runner",
    "team_viewer",
    "outsider",
    "anonymous",
    "owner_read",
)
SECRET = "s3cret-value-of-the-key"


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json() if response.content else None


@dataclasses.dataclass
class World:
    admin: TestClient
    tmp_path: Path
    clients: dict[str, TestClient] = dataclasses.field(default_factory=dict)
    users: dict[str, int] = dataclasses.field(default_factory=dict)
    ids: dict[str, int] = dataclasses.field(default_factory=dict)
    kinds: dict[str, str] = dataclasses.field(default_factory=dict)  # name -> "runs", "keys", …

    def keep(self, name: str, kind: str, created: dict[str, Any]) -> None:
        self.ids[name], self.kinds[name] = created["id"], kind

    @property
    def app(self) -> FastAPI:
        app: FastAPI = self.admin.app  # type: ignore[assignment]
        return app

    def post(self, path: str, body: dict[str, Any], status: int = 201) -> Any:
        return ok(self.admin.post(f"/api/v1{path}", json=body), status)

    def put(self, path: str, body: dict[str, Any]) -> Any:
        return ok(self.admin.put(f"/api/v1{path}", json=body))

    def user(self, name: str, scope: str = "write") -> TestClient:
        """A client holding an API token of ``name`` (created on first use)."""
        if name not in self.users:
            self.users[name] = make_user(self.admin, name)["id"]
        client = browser(self.admin)
        client.headers.update(bearer(token(self.admin, name, scope)))
        return client

    def url(self, project: str, path: str = "") -> str:
        return f"/api/v1/projects/{self.ids[project]}{path}"

    def build(self) -> World:
        self._resources()
        self._people()
        self._runs()
        return self

    def _resources(self) -> None:
        repo = self.tmp_path / "playbooks"
        shutil.copytree(PLAYBOOKS, repo)
        for project in ("p1", "p2"):
            self.keep(project, "projects", self.post("/projects", {"name": project}))
            base = f"/projects/{self.ids[project]}"
            self.put(f"{base}/local-roots", {"local_roots": [str(repo)]})
            repository = {"name": "local", "kind": "local", "url": str(repo)}
            self.keep(
                f"{project}_repository",
                "repositories",
                self.post(f"{base}/repositories", repository),
            )
            inventory = {"name": "local", "kind": "static", "format": "ini"}
            self.keep(
                f"{project}_inventory",
                "inventories",
                self.post(f"{base}/inventories", {**inventory, "content": LOCALHOST_INVENTORY}),
            )
        p1 = f"/projects/{self.ids['p1']}"
        key = {"name": "api-token", "kind": "secret", "value": SECRET}
        self.keep("key", "keys", self.post(f"{p1}/keys", key))
        secret = {"name": "API_TOKEN", "target": "env", "key_id": self.ids["key"]}
        environment = {"name": "prod", "secrets": [secret]}
        self.keep("environment", "environments", self.post(f"{p1}/environments", environment))
        server = {
            "name": "hub",
            "url": "https://hub.example.invalid/api/",
            "key_id": self.ids["key"],
        }
        self.keep("galaxy_server", "galaxy-servers", self.post(f"{p1}/galaxy-servers", server))
        for name, project in (("t1", "p1"), ("t2", "p1"), ("t3", "p2")):
            template = self.post(
                f"/projects/{self.ids[project]}/templates",
                {
                    "name": name,
                    "playbook": "ok.yml",
                    "repository_id": self.ids[f"{project}_repository"],
                    "inventory_id": self.ids[f"{project}_inventory"],
                    "environment_id": self.ids["environment"] if project == "p1" else None,
                    "overridable": ["tags"],
                },
            )
            self.keep(name, "templates", template)
        for hook, template in (("w1", "t1"), ("w2", "t2")):  # each with one (test) delivery
            body = {"name": hook, "auth": "github", "secret_key_id": self.ids["key"]}
            self.keep(
                hook, "webhooks", self.post(f"{p1}/templates/{self.ids[template]}/webhooks", body)
            )
            delivery = self.post(f"{p1}/webhooks/{self.ids[hook]}/test", {}, status=200)
            self.keep(hook.replace("w", "d"), "deliveries", delivery)

        # notifications: a destination (nothing listens there), subscriptions to it of the whole
        # project and of T2
        destination: dict[str, Any] = {
            "name": "hook",
            "kind": "webhook",
            "config": {"url": "http://127.0.0.1:9/"},
            "secret_key_id": self.ids["key"],
        }
        destinations, subscriptions = "notification-destinations", "notification-subscriptions"
        self.keep("destination", destinations, self.post(f"{p1}/{destinations}", destination))
        for name, template in (("subscription", None), ("t2_subscription", self.ids["t2"])):
            body = {"destination_id": self.ids["destination"], "events": ["failed"]}
            self.keep(
                name,
                subscriptions,
                self.post(f"{p1}/{subscriptions}", {**body, "template_id": template}),
            )

    def _people(self) -> None:
        p1 = f"/projects/{self.ids['p1']}"
        self.clients["admin"] = self.admin
        self.clients["anonymous"] = browser(self.admin)
        for name in ("owner", "manager", "operator", "viewer", "runner", "outsider"):
            self.clients[name] = self.user(name)
        for role in ("owner", "manager", "operator", "viewer"):
            self.put(f"{p1}/members", {"user_id": self.users[role], "role": role})
        self.clients["owner_read"] = self.user("owner", scope="read")
        for team, member in (("ops", "team_operator"), ("watchers", "team_viewer"), ("spare", "")):
            self.keep(team, "teams", self.post("/teams", {"name": team}))
            if member:
                self.clients[member] = self.user(member)
                self.post(f"/teams/{self.ids[team]}/members", {"user_id": self.users[member]})
        self.put(f"{p1}/members", {"team_id": self.ids["ops"], "role": "operator"})
        grants = f"{p1}/templates/{self.ids['t1']}/grants"
        self.ids["runner_grant"] = self.post(
            grants, {"user_id": self.users["runner"], "permission": "run"}
        )["id"]
        self.post(grants, {"team_id": self.ids["watchers"], "permission": "view"})
        self.ids["t2_grant"] = self.post(
            f"{p1}/templates/{self.ids['t2']}/grants",
            {"team_id": self.ids["ops"], "permission": "view"},  # adds nothing to their role
        )["id"]

    def _runs(self) -> None:
        for name in ("t1", "t2"):  # schedule s1 of T1, s2 of T2; each launched a running run
            schedule = {"name": f"s{name[1]}", "kind": "cron", "expression": "0 0 1 1 *"}
            url = f"/projects/{self.ids['p1']}/templates/{self.ids[name]}/schedules"
            self.keep(f"s{name[1]}", "schedules", self.post(url, schedule))
        # workflow wf1 of one approval (key "1"): wr1 waits for it, wr_done was denied
        p1 = f"/projects/{self.ids['p1']}"
        approval = {"key": "1", "kind": "approval", "name": "gate"}
        self.keep(
            "wf1", "workflows", self.post(f"{p1}/workflows", {"name": "wf1", "nodes": [approval]})
        )
        for name in ("wr1", "wr_done"):
            launched = self.post(f"{p1}/workflows/{self.ids['wf1']}/launch", {})
            self.keep(name, "workflow_runs", launched)
        self.post(f"{p1}/workflow-runs/{self.ids['wr_done']}/nodes/1/deny", {}, status=200)
        self.ids["approval_key"] = 1
        with self.app.state.runtime.sessions() as session:  # wr1's gate, in the inbox
            gate = select(WorkflowNodeRun.id).where(
                WorkflowNodeRun.workflow_run_id == self.ids["wr1"]
            )
            self.keep("wr1_gate", "approvals", {"id": session.scalars(gate).one()})
        runtime = self.app.state.runtime
        with runtime.sessions() as session:
            # r1 of T1, r2 of T2: finished, their output and params are read (and r2 relaunched,
            # which runs ok.yml); inserted, as a run of the playbook would have stored them
            params = RunParams(
                playbook="ok.yml",
                repository_id=self.ids["p1_repository"],
                inventory_id=self.ids["p1_inventory"],
                environment_id=self.ids["environment"],
            )
            for name in ("r1", "r2"):
                finished = inserted_run(
                    self.ids["p1"],
                    self.ids[name.replace("r", "t")],
                    RunStatus.SUCCESSFUL,
                    rc=0,
                    launched_by_id=session.scalars(select(User.id).where(User.is_admin)).first(),
                    params=params.model_dump(),
                )
                session.add(finished)
                session.flush()
                session.add(inserted_output(finished, "TASK [greet]", '"msg": "hello world"'))
                self.keep(name, "runs", {"id": finished.id})
            done = inserted_run(self.ids["p2"], self.ids["t3"], RunStatus.SUCCESSFUL, rc=0)
            session.add(done)
            session.flush()
            self.keep("r3", "runs", {"id": done.id})
            for name in ("t1", "t2"):
                busy = inserted_run(
                    self.ids["p1"],
                    self.ids[name],
                    RunStatus.RUNNING,
                    worker_id="elsewhere:1:1",
                    heartbeat_at=utcnow().replace(year=utcnow().year + 1),  # never reaped
                    schedule_id=self.ids[f"s{name[1]}"],
                )
                session.add(busy)
                session.flush()
                self.keep(f"busy_{name}", "runs", {"id": busy.id})
            session.commit()

    def wait(self, project: str, run_id: int, timeout: float = 60) -> dict[str, Any]:
        return wait_finished(self.admin, self.ids[project], run_id, timeout)
