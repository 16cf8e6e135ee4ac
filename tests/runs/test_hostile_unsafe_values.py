"""Values given at launch are data, never templates: a survey answer, launch extra vars (nested
in lists and dicts), a relaunch and the CLI each deliver ``{{ … }}`` as the literal string, and
the command inside it never runs on the server."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from support.builders import PLAYBOOKS, Workbench, localhost_project, post
from support.server import Server, steward

pytestmark = [
    pytest.mark.security,
    pytest.mark.sqlite_only,
]  # what reaches Ansible does not depend on the database

ECHO = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: >-
          {{ {'evil': evil, 'nested': nested, 'answer': answer,
              'secret_len': secret | length} | to_json }}
    - name: the template's own variables are still templates
      ansible.builtin.debug: {msg: "trusted={{ trusted }} control={{ control }}"}
"""
SURVEY = [
    {"variable": "answer", "label": "answer", "type": "text", "required": True},
    {"variable": "secret", "label": "secret", "type": "password", "required": True},
]


def payload(marker: Path) -> str:
    """Jinja that would create ``marker`` on the server if it were evaluated."""
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}{% if true %}x{% endif %}"


def echoed(text: str) -> dict[str, Any]:
    """The variables as the playbook saw them (the first debug message; colours removed)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    start = text.index('"msg": ') + len('"msg": ')
    value: dict[str, Any] = json.loads(json.loads(text[start : text.index("\n", start)]))
    return value


@pytest.fixture
def echo_template(workbench: Workbench, markers_dir: Path) -> int:
    (workbench.repo_dir / "echo.yml").write_text(ECHO)
    return workbench.template(
        "echo.yml",
        overridable=["extra_vars"],
        survey=SURVEY,
        extra_vars={"trusted": "{{ 6 * 7 }}", "control": payload(markers_dir / "control")},
    )


def test_survey_answers_and_launch_extra_vars_arrive_as_literal_strings(
    workbench: Workbench, echo_template: int, markers_dir: Path
) -> None:
    markers = [markers_dir / f"pwned-{n}" for n in range(6)]
    nested = {
        "list": [payload(markers[0]), {"deep": [payload(markers[1])]}],
        payload(markers[2]): "a key too",
        "number": 7,
    }
    run = workbench.launch(
        echo_template,
        extra_vars={"evil": payload(markers[3]), "nested": nested},
        survey={"answer": payload(markers[4]), "secret": payload(markers[5])},
    )
    done = workbench.wait(run["id"])
    text = workbench.text(run["id"])
    assert done["status"] == "successful", text
    seen = echoed(text)
    assert seen["evil"] == payload(markers[3])
    assert seen["nested"] == nested
    assert seen["answer"] == payload(markers[4])
    assert seen["secret_len"] == len(payload(markers[5]))
    assert "trusted=42" in text
    assert (markers_dir / "control").exists(), "a run could not write there: the test is void"
    assert [m for m in markers if m.exists()] == []

    again = workbench.client.post(workbench.url(f"runs/{run['id']}/relaunch"), json={})
    assert again.status_code == 201, again.text
    relaunched = workbench.wait(again.json()["id"])
    assert relaunched["status"] == "successful"
    assert echoed(workbench.text(relaunched["id"])) == seen
    assert [m for m in markers if m.exists()] == []


def test_cli_extra_vars_in_yaml_and_json_arrive_as_literal_strings(
    tmp_path: Path, markers_dir: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    (repo / "echo.yml").write_text(ECHO)
    markers = [markers_dir / "pwned-yaml", markers_dir / "pwned-json"]
    control = payload(markers_dir / "control")
    with Server(tmp_path / "data").running() as server:
        with server.api() as api:
            ids = localhost_project(api, repo, "ops")
            post(
                api,
                f"/projects/{ids['project']}/templates",
                {
                    "name": "echo",
                    "playbook": "echo.yml",
                    "repository_id": ids["repository"],
                    "inventory_id": ids["inventory"],
                    "overridable": ["extra_vars"],
                    "extra_vars": {
                        "answer": "a",
                        "secret": "s",
                        "trusted": "{{ 6 * 7 }}",
                        "control": control,
                    },
                },
            )
        url = f"http://127.0.0.1:{server.port}"
        env = {**server.env, "STEWARD_URL": url, "STEWARD_TOKEN": server.token("run")}
        as_yaml = (
            f'evil: "{payload(markers[0])}"\nnested:\n  - "{payload(markers[0])}"\n'
            f'  - {{k: "{payload(markers[0])}"}}\n'
        )
        as_json = json.dumps({"evil": payload(markers[1]), "nested": [payload(markers[1])]})
        for text, marker in ((as_yaml, markers[0]), (as_json, markers[1])):
            done = steward("run", "ops/echo", "--follow", "--extra-vars", text, env=env)
            assert done.returncode == 0, done.stderr
            seen = echoed(done.stdout)
            assert seen["evil"] == payload(marker)
            assert payload(marker) in json.dumps(seen["nested"])
            assert "trusted=42" in done.stdout
    assert (markers_dir / "control").exists(), "a run could not write there: the test is void"
    assert [m for m in markers if m.exists()] == []
