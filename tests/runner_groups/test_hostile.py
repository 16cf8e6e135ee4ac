"""Runner groups as a hostile user tries them: only admins create groups or choose where a
project's or template's runs execute (a group's workers may reach networks others cannot);
names are queue names; a group in use cannot be deleted; workers are admins' to see."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.server import steward

from steward.runner_groups import service
from steward.runner_groups.models import RunnerGroup
from steward.runner_groups.schemas import RunnerGroupCreate

pytestmark = pytest.mark.security

GROUPS = "/api/v1/runner-groups"


def _owner(client: TestClient, workbench: Workbench) -> dict[str, str]:
    user = make_user(client, "olga")
    put = client.put(workbench.url("members"), json={"user_id": user["id"], "role": "owner"})
    assert put.status_code == 200, put.text
    return bearer(token(client, "olga"))


def test_only_admins_create_change_or_delete_groups(
    client: TestClient, workbench: Workbench
) -> None:
    owner = _owner(client, workbench)
    made = client.post(GROUPS, json={"name": "dmz"})
    assert made.status_code == 201, made.text
    group = made.json()["id"]
    assert client.post(GROUPS, json={"name": "mine"}, headers=owner).status_code == 403
    patched = client.patch(f"{GROUPS}/{group}", json={"max_parallel_runs": 1}, headers=owner)
    assert patched.status_code == 403
    assert client.delete(f"{GROUPS}/{group}", headers=owner).status_code == 403
    assert client.get("/api/v1/workers", headers=owner).status_code == 403
    # seeing them is harmless: a waiting run names its group
    listed = client.get(GROUPS, headers=owner).json()["items"]
    assert [g["name"] for g in listed] == ["dmz"]


def test_only_admins_choose_where_runs_execute(client: TestClient, workbench: Workbench) -> None:
    owner = _owner(client, workbench)
    group = client.post(GROUPS, json={"name": "dmz"}).json()["id"]
    project = f"/api/v1/projects/{workbench.project_id}"
    assert_problem(
        client.patch(project, json={"runner_group_id": group}, headers=owner), 403, "runner_group"
    )
    template = workbench.template("ok.yml")
    url = workbench.url(f"templates/{template}")
    assert_problem(
        client.patch(url, json={"runner_group_id": group}, headers=owner), 403, "runner_group"
    )
    body = {
        "name": "sneaky",
        "playbook": "ok.yml",
        "repository_id": workbench.repository_id,
        "inventory_id": workbench.inventory_id,
        "runner_group_id": group,
    }
    created = client.post(workbench.url("templates"), json=body, headers=owner)
    assert_problem(created, 403, "runner_group_id")
    # an owner's edit that leaves the group as it is goes through
    assert client.patch(url, json={"runner_group_id": None}, headers=owner).status_code == 200
    # the admin may, and the group's runs go there
    assert client.patch(url, json={"runner_group_id": group}).status_code == 200
    run = workbench.launch(template)
    assert run["runner_group"] == "dmz"
    assert client.get(url, headers=owner).json()["runner_group_id"] == group


@pytest.mark.parametrize(
    "name", ["DMZ", "a b", "../etc", "", "-x", "x" * 64, "dmz\n", "d\u00e9mz", "*"]
)
def test_group_names_are_queue_names(db_session: Session, name: str) -> None:
    """Below HTTP (the request model's rule); over HTTP, a refused field of the same body:
    test_group_fields_are_bounded_and_the_name_never_changes."""

    def create() -> RunnerGroup:
        body = RunnerGroupCreate.model_validate_json(json.dumps({"name": name}))
        return service.create(db_session, services.admin(db_session), body)

    services.refused(create, "name")
    assert db_session.scalar(select(func.count()).select_from(RunnerGroup)) == 0


def test_group_fields_are_bounded_and_the_name_never_changes(client: TestClient) -> None:
    assert_problem(client.post(GROUPS, json={"name": "../etc"}), 422, "name")
    assert_problem(client.post(GROUPS, json={"name": "a", "max_parallel_runs": 0}), 422, "max")
    too_long = {"name": "a", "description": "x" * 100_000}
    assert_problem(client.post(GROUPS, json=too_long), 422, "description")
    group = client.post(GROUPS, json={"name": "edge"}).json()["id"]
    assert_problem(client.patch(f"{GROUPS}/{group}", json={"name": "other"}), 422, "name")
    assert client.post(GROUPS, json={"name": "edge"}).status_code == 409
    cleared = client.patch(f"{GROUPS}/{group}", json={"max_parallel_runs": None})
    assert cleared.status_code == 200
    assert_problem(client.patch(f"{GROUPS}/{group}", json={"description": None}), 422, "desc")


def test_a_group_in_use_is_not_deleted_and_a_missing_one_is_not_chosen(
    client: TestClient, workbench: Workbench
) -> None:
    project = f"/api/v1/projects/{workbench.project_id}"
    assert_problem(client.patch(project, json={"runner_group_id": 999_999}), 422, "runner_group_id")
    group = client.post(GROUPS, json={"name": "dmz"}).json()["id"]
    assert client.patch(project, json={"runner_group_id": group}).status_code == 200
    refused = client.delete(f"{GROUPS}/{group}")
    assert refused.status_code == 409
    assert "project 'bench'" in refused.json()["detail"]
    assert client.patch(project, json={"runner_group_id": None}).status_code == 200
    assert client.delete(f"{GROUPS}/{group}").status_code == 204


def test_worker_refuses_bad_queue_names_and_a_missing_broker(tmp_path: object) -> None:
    env = {"PATH": "/usr/bin:/bin", "STEWARD_DATA_DIR": str(tmp_path)}
    no_broker = steward("worker", env=env)
    assert no_broker.returncode == 1
    assert "STEWARD_BROKER_URL" in no_broker.stderr
    env["STEWARD_BROKER_URL"] = "redis://127.0.0.1:1/0"
    bad = steward("worker", "--queues", "default,../x", env=env)
    assert bad.returncode == 1
    assert "--queues" in bad.stderr
