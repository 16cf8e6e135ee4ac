"""Ad-hoc commands through HTTP with a real ansible-playbook on localhost: the output recorded,
the arguments delivered as data (never templated), the relaunch, and each route's wiring
(the rules themselves: test_adhoc_rules.py)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.builders import Workbench, assert_problem, member_client

pytestmark = pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database


def payload(marker: Path) -> str:
    """Jinja that would create ``marker`` on the server if it were evaluated."""
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}"


@pytest.mark.security
def test_a_command_runs_recorded_and_its_arguments_are_never_templated(
    workbench: Workbench, markers_dir: Path
) -> None:
    # the control, in the same run: the inventory is written by who may edit it, so Ansible
    # templates its variables (the interpreter path here); the command's text is data
    control = markers_dir / "control"
    inventory = workbench.inventory(
        "templated",
        "localhost ansible_connection=local"
        f' ansible_python_interpreter="{payload(control)}{sys.executable}"\n',
    )
    marker = markers_dir / "pwned"
    body = {
        "module": "command",
        "args": f'echo "adhoc-said {payload(marker)}"',
        "forks": 2,
        "verbosity": 1,
    }
    run = workbench._post(workbench.url(f"inventories/{inventory}/adhoc"), body)
    assert run["kind"] == "adhoc"
    assert run["template_id"] is None
    assert run["template_name"] == "ad-hoc: command"
    done = workbench.wait(run["id"])
    text = re.sub(r"\x1b\[[0-9;]*m", "", workbench.text(run["id"]))
    assert done["status"] == "successful", text
    assert f"adhoc-said {payload(marker)}" in text  # the literal text reached the command
    assert not marker.exists()
    assert control.exists(), "the inventory's variable was not templated: the test is void"
    listed = workbench.client.get(workbench.url("runs"), params={"host": "localhost"}).json()
    assert [item["template_name"] for item in listed["items"]] == ["ad-hoc: command"]

    # the relaunch route takes the ad-hoc branch (running it again: e2e/run-live.spec.ts)
    relaunch = workbench.url(f"runs/{run['id']}/relaunch")
    assert_problem(workbench.client.post(relaunch, json={"tags": "x"}), 422, "tags")


def test_the_modules_route_lists_the_allow_list_and_the_callers_right(
    client: TestClient, workbench: Workbench
) -> None:
    answer = client.get(workbench.url("adhoc/modules")).json()
    assert {"ping", "command", "shell", "service"} <= set(answer["modules"])
    assert answer["free_form"] == ["command", "shell"]
    assert answer["allowed"] is True
    operator = member_client(client, workbench.project_id, "oper", "operator", scope="run")
    assert operator.get(workbench.url("adhoc/modules")).json()["allowed"] is False


def test_the_launch_route_refuses_naming_the_field(
    client: TestClient, workbench: Workbench
) -> None:
    url = workbench.url(f"inventories/{workbench.inventory_id}/adhoc")
    assert_problem(client.post(url, json={"module": "raw", "args": "id"}), 422, "module")
    operator = member_client(client, workbench.project_id, "oper", "operator", scope="run")
    assert operator.post(url, json={"module": "ping"}).status_code == 403
