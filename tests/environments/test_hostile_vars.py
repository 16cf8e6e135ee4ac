"""An environment may not set the variables Steward controls or that make a run load or read
other things: 422 on ``env_vars.NAME`` at save, and a run ``error`` for a row saved before."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.builders import (
    LOCALHOST_INVENTORY,
    assert_problem,
    make_key,
    make_local_repository,
    make_project,
    post,
)
from support.waits import wait_finished

from steward.environments import service
from steward.environments.models import Environment
from steward.environments.schemas import EnvironmentCreate
from steward.environments.service import env_var_problem

pytestmark = pytest.mark.security

PLAY = "- hosts: all\n  gather_facts: false\n  tasks: []\n"


def envs_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/environments"


@pytest.mark.parametrize(
    ("name", "value", "cause"),
    [
        ("ANSIBLE_CONFIG", "ansible.cfg", "repository's own ansible.cfg"),
        ("STEWARD_RUN_UUID", "x", "reserved for Steward"),
        ("ANSIBLE_SSH_CONTROL_PATH_DIR", "/tmp/cp", "Steward sets this variable"),
        ("ANSIBLE_SSH_COMMON_ARGS", "-o ProxyCommand=x", "Steward sets this variable"),
        ("ANSIBLE_INVENTORY_ENABLED", "script", "Steward sets this variable"),
        ("LD_PRELOAD", "/tmp/evil.so", "load other code"),
        ("PYTHONPATH", "lib", "load other code"),
        ("PATH", "/tmp/bin", "load other code"),
        ("BASH_ENV", "/tmp/rc", "load other code"),
        ("ANSIBLE_ROLES_PATH", "/etc", "'/etc' must be a relative path"),
        ("ANSIBLE_ROLES_PATH", "roles:/etc/ansible/roles", "'/etc/ansible/roles'"),
        ("ANSIBLE_VAULT_PASSWORD_FILE", "../../data/secret.key", "'..' leaves it"),
        ("ANSIBLE_CALLBACK_PLUGINS", "$HOME/plugins", "environment variables"),
        ("ANSIBLE_LOG_PATH", "~/ansible.log", "'~'"),
        ("ANSIBLE_INVENTORY", "hosts,/etc/hosts", "'/etc/hosts'"),
    ],
)
def test_a_variable_steward_controls_or_that_leads_outside_is_refused(
    db_session: Session, name: str, value: str, cause: str
) -> None:
    """Below HTTP (the service's rule); test_a_refused_variable_is_a_422_over_http: the route."""
    project = services.project(db_session)
    body = EnvironmentCreate(name="prod", env_vars={name: value})
    create = functools.partial(
        service.create, db_session, project, body, actor=services.admin(db_session)
    )
    assert cause in services.refused(create, f"env_vars.{name}")
    assert db_session.scalar(select(func.count()).select_from(Environment)) == 0


def test_a_refused_variable_is_a_422_over_http(client: TestClient) -> None:
    project_id = make_project(client)
    body = {"name": "prod", "env_vars": {"LD_PRELOAD": "/tmp/evil.so"}}
    refused = client.post(envs_url(project_id), json=body)
    assert "load other code" in assert_problem(refused, 422, "env_vars.LD_PRELOAD")
    assert client.get(envs_url(project_id)).json()["total"] == 0


def test_relative_paths_inside_and_other_variables_are_accepted(client: TestClient) -> None:
    project_id = make_project(client)
    env_vars = {
        "ANSIBLE_ROLES_PATH": "roles",
        "ANSIBLE_COLLECTIONS_PATH": "collections:./vendor/collections",
        "ANSIBLE_FORKS": "20",
        "HTTP_PROXY": "http://proxy:3128",
    }
    created = client.post(envs_url(project_id), json={"name": "prod", "env_vars": env_vars})
    assert created.status_code == 201, created.text
    env_url = f"{envs_url(project_id)}/{created.json()['id']}"
    refused = client.patch(env_url, json={"env_vars": {"LD_PRELOAD": "x.so"}})
    assert_problem(refused, 422, "env_vars.LD_PRELOAD")
    assert client.get(env_url).json()["env_vars"] == env_vars


def test_a_secret_may_not_be_such_a_variable_either(client: TestClient) -> None:
    project_id = make_project(client)
    key = make_key(client, project_id, name="token", value="/tmp/evil.so")
    secret: dict[str, Any] = {"name": "LD_PRELOAD", "target": "env", "key_id": key["id"]}
    refused = client.post(envs_url(project_id), json={"name": "prod", "secrets": [secret]})
    assert "load other code" in assert_problem(refused, 422, "secrets[0].name")
    as_extra_var = {"name": "prod", "secrets": [{**secret, "target": "extra_var"}]}
    assert client.post(envs_url(project_id), json=as_extra_var).status_code == 201


def test_env_var_problem_never_quotes_a_secret_value() -> None:
    problem = env_var_problem("ANSIBLE_VAULT_PASSWORD_FILE", "/s3cret/path", secret=True)
    assert problem is not None
    assert "/s3cret" not in problem
    assert "the secret's value must be a relative path" in problem


# --- rows saved before the rules: the run fails with the reason --------------------------------


def launch_with(
    client: TestClient,
    tmp_path: Path,
    project_id: int,
    saved: dict[str, Any],
    env_vars: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Run ok.yml on localhost with an environment saved as ``saved``, whose ``env_vars`` are
    then replaced in the database (as an older Steward may have saved them); the finished run."""
    repo_dir = tmp_path / "repo"
    repo_dir.mkdir()
    (repo_dir / "ok.yml").write_text(PLAY)
    base = f"/api/v1/projects/{project_id}"
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = {"name": "local", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY}
    inventory = post(client, f"{base}/inventories", body)
    env = post(client, f"{base}/environments", {"name": "prod", **saved})
    if env_vars is not None:
        runtime = client.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            session.get_one(Environment, env["id"]).env_vars = env_vars
            session.commit()
    fields: dict[str, Any] = {"name": "t", "playbook": "ok.yml", "repository_id": repository_id}
    fields |= {"inventory_id": inventory["id"], "environment_id": env["id"]}
    template = post(client, f"{base}/templates", fields)
    run = post(client, f"{base}/runs", {"template_id": template["id"]})
    return wait_finished(client, project_id, run["id"])


@pytest.mark.sqlite_only
def test_an_old_row_with_a_refused_variable_fails_the_run(
    client: TestClient, tmp_path: Path
) -> None:
    project_id = make_project(client)
    run = launch_with(client, tmp_path, project_id, {}, {"LD_PRELOAD": "/tmp/evil.so"})
    assert run["status"] == "error", run
    assert "environment 'prod': env_vars.LD_PRELOAD: " in run["status_reason"]
    assert "load other code" in run["status_reason"]
    assert run["line_count"] == 0


@pytest.mark.sqlite_only
def test_a_secret_whose_value_is_a_path_outside_fails_the_run_without_showing_it(
    client: TestClient, tmp_path: Path
) -> None:
    """Its name is accepted at save (the value is only known at run time); the run checks it."""
    project_id = make_project(client)
    key_value = "/srv/steward/data/secret.key"
    key = make_key(client, project_id, name="vault-file", value=key_value)
    secret = {"name": "ANSIBLE_VAULT_PASSWORD_FILE", "target": "env", "key_id": key["id"]}
    run = launch_with(client, tmp_path, project_id, {"secrets": [secret]})
    assert run["status"] == "error", run
    reason = run["status_reason"]
    assert "secrets.ANSIBLE_VAULT_PASSWORD_FILE: Ansible reads it as a path" in reason
    assert key_value not in reason
