from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from steward.runs.models import Run

PLAYBOOKS = Path(__file__).parent.parent / "playbooks"
LOCALHOST = f"localhost ansible_connection=local ansible_python_interpreter={sys.executable}\n"


class Workbench:
    """A project with a local repository of the test playbooks and a localhost inventory."""

    def __init__(self, client: TestClient, tmp_path: Path) -> None:
        self.client = client
        self.repo_dir = tmp_path / "playbooks"
        shutil.copytree(PLAYBOOKS, self.repo_dir)
        self.project_id = self._post("/api/v1/projects", {"name": "bench"})["id"]
        self.repository_id = self._post(
            self.url("repositories"), {"name": "local", "kind": "local", "url": str(self.repo_dir)}
        )["id"]
        self.inventory_id = self.inventory("localhost", LOCALHOST)

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project_id}/{path}"

    def _post(self, url: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(url, json=body)
        assert response.status_code in (200, 201), response.text
        result: dict[str, Any] = response.json()
        return result

    def inventory(self, name: str, content: str) -> int:
        body = {"name": name, "kind": "static", "format": "ini", "content": content}
        inventory_id: int = self._post(self.url("inventories"), body)["id"]
        return inventory_id

    def key(self, **body: Any) -> int:
        key_id: int = self._post(self.url("keys"), body)["id"]
        return key_id

    def template(self, playbook: str, **fields: Any) -> int:
        body = {
            "name": fields.pop("name", playbook.removesuffix(".yml")),
            "playbook": playbook,
            "repository_id": self.repository_id,
            "inventory_id": self.inventory_id,
            **fields,
        }
        template_id: int = self._post(self.url("templates"), body)["id"]
        return template_id

    def launch(self, template_id: int, **overrides: Any) -> dict[str, Any]:
        return self._post(self.url("runs"), {"template_id": template_id, **overrides})

    def run(self, run_id: int) -> dict[str, Any]:
        response = self.client.get(self.url(f"runs/{run_id}"))
        assert response.status_code == 200, response.text
        result: dict[str, Any] = response.json()
        return result

    def wait(
        self,
        run_id: int,
        until: Callable[[dict[str, Any]], bool] | None = None,
        timeout: float = 90,
    ) -> dict[str, Any]:
        """Poll until the run is finished (or ``until`` holds); fail the test on timeout."""
        deadline = time.monotonic() + timeout
        finished = {"successful", "failed", "error", "canceled", "timed_out"}
        while time.monotonic() < deadline:
            run = self.run(run_id)
            if (until or (lambda r: r["status"] in finished))(run):
                return run
            time.sleep(0.1)
        raise AssertionError(f"run {run_id} did not get there in {timeout}s: {self.run(run_id)}")

    def lines(self, run_id: int, **params: Any) -> list[str]:
        texts: list[str] = []
        after = -1
        while True:
            page = self.client.get(
                self.url(f"runs/{run_id}/lines"), params={"after": after, "limit": 10000, **params}
            ).json()
            texts += [line["text"] for line in page["items"]]
            if page["next_after"] is None:
                return texts
            after = page["next_after"]

    def uuid(self, run_id: int) -> str:
        """The run's process marker (not exposed by the API)."""
        runtime = self.client.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            value: str = session.scalar(select(Run.uuid).where(Run.id == run_id))
        return value

    def text(self, run_id: int) -> str:
        response = self.client.get(self.url(f"runs/{run_id}/output"))
        assert response.status_code == 200
        return response.text
