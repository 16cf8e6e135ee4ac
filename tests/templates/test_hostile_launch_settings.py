"""Launch values may not set a variable Ansible reads as a setting (``templates.reserved``).

A user with only a ``run`` grant on a template that lets a launch override extra vars tries
the variables that make Ansible run a program of their choice on the controller: the shell
executable, the Python interpreter, SSH arguments with a ProxyCommand, the become executable,
the connection, and a plugin's variable found only in that plugin's documentation. Each is a
422 naming the variable, whatever carries it (launch, survey, schedule, webhook extractor,
workflow node, relaunch), and no marker appears; the CONTROL: the same values written by the
template's editor (trusted template extra vars) do write the marker, through real
ansible-playbook runs, so each probe could have succeeded.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from requirements.servers import make_venv
from sqlalchemy import update
from support.builders import (
    Workbench,
    assert_problem,
    bearer,
    inserted_run,
    make_user,
    token,
)
from support.webhooks import SECRET, encode, github_headers
from support.workflows import Workflows, template_node

from steward.config import Settings
from steward.db import make_engine
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.templates.models import Template

pytestmark = pytest.mark.security

SETTING = "is an Ansible setting or reserved variable"

HOOK_PLUGIN = '''
DOCUMENTATION = """
name: hook
short_description: runs a deploy hook (a test plugin whose option is read from a variable)
description: [Runs the command its option names, the way real plugins read settings.]
options:
  command:
    description: the command to run
    type: str
    default: "true"
    vars:
      - name: deploy_hook_command
"""

import shlex
import subprocess

from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        self.set_options(var_options=variables, direct=kwargs)
        subprocess.run(shlex.split(self.get_option("command")), check=False)
        return ["ran"]
'''
HOOK_PLAYBOOK = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug: {msg: "{{ lookup('stewardtest.hooks.hook') }}"}
"""


@pytest.fixture(scope="module")
def hook_venv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A second venv whose only difference is a collection with the ``hook`` lookup: its
    ``deploy_hook_command`` is known only from that plugin's DOCUMENTATION."""
    venv = make_venv(tmp_path_factory.mktemp("venvs") / "hooks")
    site = next(venv.glob("lib/python*/site-packages"))
    plugins = site / "ansible_collections" / "stewardtest" / "hooks" / "plugins" / "lookup"
    plugins.mkdir(parents=True)
    (plugins / "hook.py").write_text(HOOK_PLUGIN)
    return venv


@pytest.fixture
def settings(settings: Settings, hook_venv: Path) -> Settings:
    return settings.model_copy(update={"ansible_venvs": [hook_venv]})


def runner(workbench: Workbench, template_id: int, name: str = "rita") -> TestClient:
    """A user whose only right is ``run`` on the template, with a run-scoped token."""
    user = make_user(workbench.client, name)
    grant = {"user_id": user["id"], "permission": "run"}
    url = workbench.url(f"templates/{template_id}/grants")
    assert workbench.client.post(url, json=grant).status_code == 201
    return TestClient(workbench.client.app, headers=bearer(token(workbench.client, name, "run")))


def run_count(workbench: Workbench) -> int:
    return len(workbench.client.get(workbench.url("runs")).json()["items"])


def probes(markers: Path) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """name -> (the hostile launch's extra vars, the editor's extra vars that write the
    marker ``markers/<name>``: the variable plus what it needs to act on a localhost run)."""
    interpreter = markers / "interpreter.sh"  # any program on the controller
    interpreter.write_text(f"#!/bin/sh\ntouch {markers / 'ansible_python_interpreter'}\n")
    interpreter.chmod(0o755)
    shell = f"touch {markers / 'ansible_shell_executable'};"
    proxy = f"-o ProxyCommand='touch {markers / 'ansible_ssh_common_args'}'"
    become = f"touch {markers / 'ansible_become_exe'};"
    return {
        "ansible_shell_executable": ({"ansible_shell_executable": shell}, {}),
        "ansible_python_interpreter": ({"ansible_python_interpreter": str(interpreter)}, {}),
        "ansible_ssh_common_args": (
            {"ansible_ssh_common_args": proxy},
            {"ansible_connection": "ssh", "ansible_ssh_retries": 0},
        ),
        "ansible_become_exe": (
            {"ansible_become_exe": become},
            {"ansible_become": True, "ansible_become_user": "nobody"},
        ),
    }


@pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database
@pytest.mark.parametrize(
    "name",
    [
        "ansible_shell_executable",
        "ansible_python_interpreter",
        "ansible_ssh_common_args",
        "ansible_become_exe",
    ],
)
def test_a_launch_may_not_set_how_ansible_runs_code(
    workbench: Workbench, markers_dir: Path, name: str
) -> None:
    hostile, needs = probes(markers_dir)[name]
    marker = markers_dir / name
    template = workbench.template("ok.yml", overridable=["extra_vars"])
    as_runner = runner(workbench, template)
    refused = as_runner.post(
        workbench.url("runs"),
        json={"template_id": template, "extra_vars": {**hostile, "harmless": "x"}},
    )
    assert SETTING in assert_problem(refused, 422, f"extra_vars.{name}")
    assert run_count(workbench) == 0
    # the same values written by the template's editor: trusted, and they do run the program
    control = workbench.template("ok.yml", name=f"control-{name}", extra_vars={**needs, **hostile})
    done = workbench.wait(workbench.launch(control)["id"], timeout=60)
    assert marker.exists(), f"the probe could not have worked: {workbench.text(done['id'])}"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("ansible_connection", "play context setting 'connection'"),
        ("ansible_ssh_common_args", "connection plugin ansible.builtin.ssh option"),
        ("ansible_become_password", "become plugin"),
        ("ansible_sudo_exe", "become plugin ansible.builtin.sudo option 'become_exe'"),
        ("ansible_python_interpreter", "configuration setting INTERPRETER_PYTHON"),
        ("ansible_anything_new", "every ansible_* name is Ansible's"),
        ("_ansible_ansiballz_debugpy_config", "Ansible configuration setting"),
        ("hostvars", "magic variable"),
        ("groups", "magic variable"),
        ("group_names", "magic variable"),
        ("inventory_hostname", ""),
        ("playbook_dir", "magic variable"),
        ("environment", "reserved name"),
        ("omit", "reserved name"),
        ("item", "loop variable"),
    ],
)
def test_settings_and_magic_variables_are_refused_with_the_reason(
    workbench: Workbench, name: str, why: str
) -> None:
    template = workbench.template("ok.yml", overridable=["extra_vars"])
    as_runner = runner(workbench, template)
    refused = as_runner.post(
        workbench.url("runs"), json={"template_id": template, "extra_vars": {name: "x"}}
    )
    cause = assert_problem(refused, 422, f"extra_vars.{name}")
    assert SETTING in cause
    assert why in cause
    assert run_count(workbench) == 0


@pytest.mark.sqlite_only
def test_a_plugin_variable_known_only_from_its_documentation(
    workbench: Workbench, markers_dir: Path, hook_venv: Path
) -> None:
    (workbench.repo_dir / "hook.yml").write_text(HOOK_PLAYBOOK)
    marker = markers_dir / "deploy_hook_command"
    hook = {"deploy_hook_command": f"touch {marker}"}
    template = workbench.template(
        "hook.yml", overridable=["extra_vars"], ansible_venv=str(hook_venv)
    )
    as_runner = runner(workbench, template)
    refused = as_runner.post(
        workbench.url("runs"), json={"template_id": template, "extra_vars": hook}
    )
    cause = assert_problem(refused, 422, "extra_vars.deploy_hook_command")
    assert "lookup plugin stewardtest.hooks.hook option 'command'" in cause
    assert run_count(workbench) == 0
    # an ordinary name in the venv without that collection: derived per venv
    plain = workbench.template("ok.yml", name="plain", overridable=["extra_vars"])
    accepted = workbench.launch(plain, extra_vars=hook)
    workbench.wait(accepted["id"])
    assert not marker.exists()
    # CONTROL: the template's editor sets it; the plugin reads it and runs the command
    control = workbench.template(
        "hook.yml", name="control", ansible_venv=str(hook_venv), extra_vars=hook
    )
    done = workbench.wait(workbench.launch(control)["id"], timeout=60)
    assert marker.exists(), f"the probe could not have worked: {workbench.text(done['id'])}"


BAD = "ansible_shell_executable"


def finished_run(workbench: Workbench, template_id: int, **launch_vars: Any) -> int:
    """A successful run of ``template_id`` launched with ``launch_vars``, as its row is once it
    ended (support.builders.inserted_run): what a relaunch reads, without running a playbook."""
    params = RunParams(
        playbook="ok.yml",
        repository_id=workbench.repository_id,
        inventory_id=workbench.inventory_id,
        launch_vars=launch_vars,
    )
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(
            workbench.project_id, template_id, RunStatus.SUCCESSFUL, params=params.model_dump()
        )
        session.add(run)
        session.commit()
        run_id: int = run.id
    return run_id


def test_every_carrier_of_launch_values_is_refused_at_save(workbench: Workbench) -> None:
    client = workbench.client
    secret_key = workbench.key(name="hook-secret", kind="secret", value=SECRET)
    survey = [{"variable": BAD, "label": "shell", "type": "text"}]
    made = client.post(
        workbench.url("templates"),
        json={
            "name": "asks",
            "playbook": "ok.yml",
            "repository_id": workbench.repository_id,
            "inventory_id": workbench.inventory_id,
            "survey": survey,
        },
    )
    assert f"'{BAD}' {SETTING}" in assert_problem(made, 422, "survey.0.variable")
    template = workbench.template("ok.yml", overridable=["extra_vars"])
    patched = client.patch(workbench.url(f"templates/{template}"), json={"survey": survey})
    assert_problem(patched, 422, "survey.0.variable")

    schedule = {"name": "s", "kind": "cron", "expression": "0 0 1 1 *"}
    launch = {"extra_vars": {BAD: "/bin/sh"}}
    made = client.post(
        workbench.url(f"templates/{template}/schedules"), json={**schedule, "launch": launch}
    )
    assert SETTING in assert_problem(made, 422, f"launch.extra_vars.{BAD}")

    hook = {"name": "h", "auth": "github", "secret_key_id": secret_key}
    made = client.post(
        workbench.url(f"templates/{template}/webhooks"),
        json={**hook, "extractors": {BAD: "head_commit.message"}},
    )
    assert SETTING in assert_problem(made, 422, f"extractors.{BAD}")

    flows = Workflows(client, workbench.project_id)
    made = client.post(
        f"{flows.base}/workflows",
        json={"name": "w", "nodes": [template_node("n", template, **launch)], "edges": []},
    )
    assert SETTING in assert_problem(made, 422, f"nodes.0.launch.extra_vars.{BAD}")

    run = finished_run(workbench, template, harmless=1)
    relaunch = client.post(workbench.url(f"runs/{run}/relaunch"), json=launch)
    assert_problem(relaunch, 422, f"extra_vars.{BAD}")


@pytest.mark.sqlite_only  # what the launch gate reads does not depend on the database
def test_stored_launch_values_are_checked_again_at_launch(
    workbench: Workbench, settings: Settings
) -> None:
    """Values saved while the template excepted the name (or before this rule): once the
    exception is gone, the survey, the relaunch, the workflow node and the webhook delivery
    carrying them are refused at launch, naming the variable."""
    client = workbench.client
    secret_key = workbench.key(name="hook-secret", kind="secret", value=SECRET)
    launch = {"extra_vars": {BAD: "/bin/sh"}}
    template = workbench.template(
        "ok.yml",
        overridable=["extra_vars"],
        survey=[{"variable": "ansible_become_exe", "label": "b", "type": "text"}],
        launch_var_exceptions=[BAD, "ansible_become_exe"],
    )
    run = finished_run(workbench, template, **launch["extra_vars"])  # launched while excepted
    flows = Workflows(client, workbench.project_id)
    workflow = flows.create([template_node("n", template, **launch)], [])
    hook = client.post(
        workbench.url(f"templates/{template}/webhooks"),
        json={
            "name": "h",
            "auth": "github",
            "secret_key_id": secret_key,
            "extractors": {BAD: "message"},
        },
    ).json()
    # the editor withdraws the exceptions; a survey saved before this rule stays as it was
    engine = make_engine(settings.database_url)
    with engine.begin() as conn:
        conn.execute(
            update(Template).where(Template.id == template).values(launch_var_exceptions=[])
        )
    engine.dispose()

    relaunch = client.post(workbench.url(f"runs/{run}/relaunch"), json={})
    assert SETTING in assert_problem(relaunch, 422, f"extra_vars.{BAD}")
    answered = client.post(
        workbench.url("runs"), json={"template_id": template, "survey": {"ansible_become_exe": "x"}}
    )
    assert SETTING in assert_problem(answered, 422, "survey.ansible_become_exe")
    started = client.post(f"{flows.base}/workflows/{workflow['id']}/launch")
    assert_problem(started, 422, f"nodes.n.launch.extra_vars.{BAD}")
    body = encode({"message": "/bin/sh"})
    path = hook["url"][hook["url"].index("/api/v1/") :]
    delivered = client.post(path, content=body, headers=github_headers(body))
    assert delivered.status_code == 422, delivered.text
    assert BAD in delivered.text
    assert len(client.get(workbench.url("runs")).json()["items"]) == 1  # the first run only


def test_exceptions_are_written_by_template_editors_and_audited(workbench: Workbench) -> None:
    template = workbench.template("ok.yml", overridable=["extra_vars"])
    as_runner = runner(workbench, template)
    url = workbench.url(f"templates/{template}")
    assert as_runner.patch(url, json={"launch_var_exceptions": [BAD]}).status_code == 403
    for wrong in (["not a name"], [BAD, BAD], [f"v{n}" for n in range(21)]):
        response = workbench.client.patch(url, json={"launch_var_exceptions": wrong})
        assert_problem(response, 422, "launch_var_exceptions")
    changed = workbench.client.patch(url, json={"launch_var_exceptions": [BAD]})
    assert changed.status_code == 200, changed.text
    assert changed.json()["launch_var_exceptions"] == [BAD]
    trail = workbench.client.get(
        "/api/v1/audit", params={"action": "template:update", "project_id": workbench.project_id}
    ).json()["items"]
    assert any("launch_var_exceptions" in str(entry) for entry in trail), trail
    accepted = as_runner.post(
        workbench.url("runs"), json={"template_id": template, "extra_vars": {BAD: "/bin/sh"}}
    )
    assert accepted.status_code == 201, accepted.text
    # only the excepted name: the others stay refused
    other = as_runner.post(
        workbench.url("runs"),
        json={"template_id": template, "extra_vars": {"ansible_connection": "ssh"}},
    )
    assert_problem(other, 422, "extra_vars.ansible_connection")
    workbench.wait(accepted.json()["id"])
