"""What the command line's tests share: the site (a real server with a project of the test
playbooks), a command's result, and the survey template's playbook."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import httpx2
from support.server import Server

# prints every answer as the playbook sees it (types included) and the secret's length only
ANSWERS = """- hosts: all
  gather_facts: false
  tasks:
    - name: the answers
      ansible.builtin.debug:
        msg: >-
          who={{ who }} db_port={{ db_port }}/{{ db_port | type_debug }} dry={{ dry }}
          dbs={{ dbs | join(',') }} note={{ note | default('-') }}
          secret_len={{ secret | length }}
    - name: the template's own variables are templates
      ansible.builtin.debug: {msg: "control={{ control }}"}
"""
SURVEY = [
    {"variable": "who", "label": "Who", "type": "text", "required": True},
    {"variable": "db_port", "label": "Port", "type": "integer", "required": True, "max": 65535},
    {"variable": "dry", "label": "Dry run", "type": "boolean", "default": False},
    {
        "variable": "dbs",
        "label": "Databases",
        "type": "multi_choice",
        "choices": ["orcl", "cdb1", "pdb2"],
        "default": ["orcl"],
    },
    {"variable": "note", "label": "Note", "type": "text"},
    {"variable": "secret", "label": "Password", "type": "password", "required": True},
]


@dataclasses.dataclass
class Site:
    server: Server
    url: str
    token: str  # scope "run"
    project: int
    api: httpx2.Client  # as the admin

    def run(self, run_id: int) -> dict[str, Any]:
        answer: dict[str, Any] = self.api.get(f"/projects/{self.project}/runs/{run_id}").json()
        return answer

    def newest_run_id(self) -> int:
        items = self.api.get("/runs", params={"limit": 1}).json()["items"]
        return int(items[0]["id"]) if items else 0


@dataclasses.dataclass
class Result:
    code: int
    out: str
    err: str


Steward = Callable[..., Result]
