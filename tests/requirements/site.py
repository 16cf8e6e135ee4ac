"""A project whose repository (a local directory the test writes) declares requirements."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from support.builders import localhost_project, make_local_repository, post
from support.waits import wait_for_run

from steward.config import Settings

PLAYBOOK = """- hosts: all
  gather_facts: false
  roles: [greeter]
  tasks:
    - name: say hello
      testns.tools.hello:
        name: steward
      register: said
    - ansible.builtin.debug:
        msg: "{{ said.msg }}"
"""
COLLECTION_ONLY = """- hosts: all
  gather_facts: false
  tasks:
    - name: say hello
      testns.tools.hello:
        name: steward
"""


class Site:
    """A project with a local repository at ``repo`` (files written by the test) and a
    localhost inventory; templates, launches and reads through the API."""

    def __init__(self, client: TestClient, repo: Path, name: str = "site") -> None:
        self.client = client
        self.repo = repo
        repo.mkdir(parents=True)
        (repo / "site.yml").write_text(PLAYBOOK)
        (repo / "collection.yml").write_text(COLLECTION_ONLY)
        ids = localhost_project(client, repo, name)
        self.project_id = ids["project"]
        self.repository_id = ids["repository"]
        self.inventory_id = ids["inventory"]

    def url(self, path: str) -> str:
        return f"/api/v1/projects/{self.project_id}/{path}"

    def write(self, relative: str, content: str) -> None:
        path = self.repo / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)

    def template(self, playbook: str = "site.yml", **fields: Any) -> int:
        body = {
            "name": fields.pop("name", playbook.removesuffix(".yml")),
            "playbook": playbook,
            "repository_id": self.repository_id,
            "inventory_id": self.inventory_id,
            **fields,
        }
        template_id: int = post(self.client, self.url("templates"), body)["id"]
        return template_id

    def launch(self, template_id: int) -> int:
        run_id: int = post(self.client, self.url("runs"), {"template_id": template_id})["id"]
        return run_id

    def wait(self, run_id: int) -> dict[str, Any]:
        return wait_for_run(self.client, self.url(f"runs/{run_id}"), timeout=120)

    def run(self, template_id: int) -> dict[str, Any]:
        return self.wait(self.launch(template_id))

    def text(self, run_id: int) -> str:
        response = self.client.get(self.url(f"runs/{run_id}/output"))
        assert response.status_code == 200
        return response.text

    def events(self, run_id: int, **params: Any) -> list[dict[str, Any]]:
        response = self.client.get(self.url(f"runs/{run_id}/events"), params=params)
        assert response.status_code == 200, response.text
        items: list[dict[str, Any]] = response.json()["items"]
        return items

    def phase(self, run_id: int) -> dict[str, Any]:
        """The closing event of the run's install phase."""
        found = self.events(run_id, event="steward_requirements")
        assert len(found) == 1, found
        return found[0]

    def timeline(self, run_id: int) -> list[dict[str, Any]]:
        response = self.client.get(self.url(f"runs/{run_id}/timeline"))
        assert response.status_code == 200
        entries: list[dict[str, Any]] = response.json()
        return entries

    def server(self, **body: Any) -> dict[str, Any]:
        return post(self.client, self.url("galaxy-servers"), {"name": "hub", **body})

    def repository(self, directory: Path, name: str) -> int:
        return make_local_repository(self.client, self.project_id, directory, name)


def cache_entries(settings: Settings) -> list[Path]:
    """The finished entries of the requirements cache, of every project."""
    root = settings.requirements_cache_dir
    if not root.is_dir():
        return []
    return sorted(
        entry
        for project in root.iterdir()
        for entry in project.iterdir()
        if entry.is_dir() and not entry.name.startswith(".")
    )
