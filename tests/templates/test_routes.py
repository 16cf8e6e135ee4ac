from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import (
    PLAYBOOKS,
    assert_problem,
    make_file_inventory,
    make_key,
    make_local_repository,
    make_project,
    make_template,
)


def url(project_id: int, suffix: str = "") -> str:
    return f"/api/v1/projects/{project_id}/templates{suffix}"


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


@pytest.fixture
def refs(client: TestClient, project_id: int) -> dict[str, int]:
    """A repository and an inventory: what every template needs."""
    repository_id = make_local_repository(client, project_id, PLAYBOOKS)
    return {"repository_id": repository_id, "inventory_id": make_file_inventory(client, project_id)}


def key_id(client: TestClient, project_id: int, kind: str, name: str, **body: Any) -> int:
    secrets = {"login_password": {"password": "pw"}, "vault_password": {"password": "pw"}}
    created = make_key(client, project_id, kind=kind, name=name, **secrets.get(kind, {}), **body)
    found: int = created["id"]
    return found


def test_template_read_carries_ids_and_names_of_what_it_references(
    client: TestClient, project_id: int, refs: dict[str, int]
) -> None:
    env = client.post(f"/api/v1/projects/{project_id}/environments", json={"name": "prod"})
    assert env.status_code == 201, env.text
    login = key_id(client, project_id, "login_password", "root")
    vault = [
        key_id(client, project_id, "vault_password", f"v{i}", vault_id=f"id{i}") for i in (1, 2)
    ]
    body = {
        "playbook": "./deploy//site.yml",
        "environment_id": env.json()["id"],
        "ssh_key_id": login,
        "become_key_id": login,
        "vault_key_ids": vault,
        "extra_vars": {"release": "1.2"},
        "limit": "web",
        "verbosity": 2,
        "forks": 10,
        "overridable": ["limit", "extra_vars"],
        "survey": [{"variable": "db_port", "label": "Port", "type": "integer", "default": 80}],
    }
    created = make_template(client, project_id, **refs, **body)
    assert created["playbook"] == "deploy/site.yml"
    assert created["repository"] == {"id": refs["repository_id"], "name": "playbooks"}
    assert created["repository_id"] == refs["repository_id"]
    assert created["inventory"] == {"id": refs["inventory_id"], "name": "hosts"}
    assert created["environment"]["name"] == "prod"
    assert created["ssh_key"] == created["become_key"] == {"id": login, "name": "root"}
    assert created["vault_key_ids"] == vault
    assert [k["name"] for k in created["vault_keys"]] == ["v1", "v2"]
    assert created["survey"][0]["default"] == 80
    read = client.get(url(project_id, f"/{created['id']}"))
    assert read.json() == created
    assert client.get(url(project_id)).json()["items"] == [created]


@pytest.mark.parametrize(
    "playbook", ["../../etc/passwd.yml", "/etc/site.yml", "roles/../../x.yml", "site.txt", ""]
)
def test_playbook_must_be_a_yaml_file_inside_the_repository(
    client: TestClient, project_id: int, refs: dict[str, int], playbook: str
) -> None:
    body = {"name": "t", "playbook": playbook, **refs}
    assert_problem(client.post(url(project_id), json=body), 422, "playbook")


def test_unknown_field_is_named(client: TestClient, project_id: int, refs: dict[str, int]) -> None:
    body = {"name": "t", "playbook": "ok.yml", "become_user": "root", **refs}
    detail = assert_problem(client.post(url(project_id), json=body), 422, "become_user")
    assert "unknown field" in detail


@pytest.mark.parametrize(
    ("field", "kind", "expected"),
    [
        ("become_key_id", "vault_password", "is a vault_password key; a login_password key is"),
        ("ssh_key_id", "secret", "is a secret key; a login_password or ssh key is required"),
        ("vault_key_ids", "login_password", "is a login_password key; only vault_password keys"),
    ],
)
def test_key_of_the_wrong_kind_is_refused(
    client: TestClient,
    project_id: int,
    refs: dict[str, int],
    field: str,
    kind: str,
    expected: str,
) -> None:
    key = key_id(client, project_id, kind, "k")
    value: Any = [key] if field == "vault_key_ids" else key
    body = {"name": "t", "playbook": "ok.yml", field: value, **refs}
    detail = assert_problem(client.post(url(project_id), json=body), 422, field)
    assert f"{field}: key {key} {expected}" in detail


def test_vault_keys_need_distinct_vault_ids(
    client: TestClient, project_id: int, refs: dict[str, int]
) -> None:
    first, second = (key_id(client, project_id, "vault_password", n) for n in ("a", "b"))
    body = {"name": "t", "playbook": "ok.yml", "vault_key_ids": [first, second], **refs}
    detail = assert_problem(client.post(url(project_id), json=body), 422, "vault_key_ids")
    assert "both have vault id 'default'" in detail
    repeated = {**body, "vault_key_ids": [first, first]}
    assert_problem(client.post(url(project_id), json=repeated), 422, "vault_key_ids")


def foreign(client: TestClient, project_id: int, field: str) -> int:
    """An object of ``project_id`` fit to be referenced as ``field``."""
    if field == "repository_id":
        return make_local_repository(client, project_id, PLAYBOOKS)
    if field == "inventory_id":
        return make_file_inventory(client, project_id)
    if field == "environment_id":
        environments = f"/api/v1/projects/{project_id}/environments"
        found: int = client.post(environments, json={"name": "e"}).json()["id"]
        return found
    return key_id(client, project_id, "login_password", "k")


@pytest.mark.parametrize(
    "field", ["repository_id", "inventory_id", "environment_id", "ssh_key_id", "become_key_id"]
)
def test_objects_of_another_project_are_refused(
    client: TestClient, project_id: int, refs: dict[str, int], field: str
) -> None:
    foreign_id = foreign(client, make_project(client, "other"), field)
    body = {"name": "t", "playbook": "ok.yml", **refs, field: foreign_id}
    detail = assert_problem(client.post(url(project_id), json=body), 422, field)
    assert f"{foreign_id} does not exist in this project" in detail


@pytest.mark.parametrize(
    ("question", "field"),
    [
        ({"type": "choice"}, "survey.0.choices"),
        ({"type": "choice", "choices": ["a", "a"]}, "survey.0.choices"),
        ({"type": "text", "choices": ["a"]}, "survey.0.choices"),
        ({"type": "integer", "min": 10, "max": 1}, "survey.0.max"),
        ({"type": "integer", "max": 5, "default": 8}, "survey.0.default"),
        ({"type": "integer", "default": "abc"}, "survey.0.default"),
        ({"type": "choice", "choices": ["a"], "default": "b"}, "survey.0.default"),
        ({"type": "password", "default": "hunter2"}, "survey.0.default"),
        ({"type": "boolean", "min": 1}, "survey.0.min"),
        ({"type": "colour"}, "survey.0.type"),
        ({"type": "text", "variable": "not-a-var"}, "survey.0.variable"),
        ({"type": "text", "variable": "class"}, "survey.0.variable"),
    ],
)
def test_survey_definition_errors_name_their_place(
    client: TestClient,
    project_id: int,
    refs: dict[str, int],
    question: dict[str, Any],
    field: str,
) -> None:
    survey = [{"variable": "v", "label": "V", **question}]
    body = {"name": "t", "playbook": "ok.yml", "survey": survey, **refs}
    assert_problem(client.post(url(project_id), json=body), 422, field)


def test_survey_may_not_ask_a_variable_twice(
    client: TestClient, project_id: int, refs: dict[str, int]
) -> None:
    question = {"variable": "v", "label": "V", "type": "text"}
    body = {"name": "t", "playbook": "ok.yml", "survey": [question, question], **refs}
    detail = assert_problem(client.post(url(project_id), json=body), 422, "survey")
    assert "variable 'v' is asked twice" in detail


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"overridable": ["playbook"]}, "overridable.0"),
        ({"overridable": ["limit", "limit"]}, "overridable"),
        ({"extra_vars": {"bad-name": 1}}, "extra_vars"),
        ({"verbosity": 5}, "verbosity"),
        ({"forks": 0}, "forks"),
        ({"timeout_seconds": 0}, "timeout_seconds"),
    ],
)
def test_launch_defaults_are_checked(
    client: TestClient, project_id: int, refs: dict[str, int], change: dict[str, Any], field: str
) -> None:
    body = {"name": "t", "playbook": "ok.yml", **refs, **change}
    assert_problem(client.post(url(project_id), json=body), 422, field)


def test_update_changes_only_what_is_sent_and_null_clears_optional_references(
    client: TestClient, project_id: int, refs: dict[str, int]
) -> None:
    ssh = key_id(client, project_id, "login_password", "deployer")
    template = make_template(client, project_id, **refs, ssh_key_id=ssh, forks=5)
    item = url(project_id, f"/{template['id']}")
    second = make_file_inventory(client, project_id, "second")
    updated = client.patch(item, json={"inventory_id": second, "ssh_key_id": None, "forks": None})
    assert updated.status_code == 200, updated.text
    assert updated.json()["inventory"] == {"id": second, "name": "second"}
    assert (updated.json()["ssh_key"], updated.json()["forks"]) == (None, None)
    assert updated.json()["playbook"] == "ok.yml"
    assert client.get(item).json() == updated.json()
    assert_problem(client.patch(item, json={"inventory_id": None}), 422, "inventory_id")
    assert_problem(client.patch(item, json={"playbook": "../x.yml"}), 422, "playbook")


@pytest.mark.both_databases
def test_names_are_unique_and_delete_removes(
    client: TestClient, project_id: int, refs: dict[str, int]
) -> None:
    template = make_template(client, project_id, **refs)
    again = client.post(url(project_id), json={"name": "deploy", "playbook": "ok.yml", **refs})
    assert_problem(again, 409, "name")
    other = make_project(client, "other")
    assert client.get(url(other, f"/{template['id']}")).status_code == 404
    assert client.delete(url(project_id, f"/{template['id']}")).status_code == 204
    assert_problem(client.get(url(project_id, f"/{template['id']}")), 404, str(template["id"]))


def test_list_sends_the_same_number_of_queries_for_1_and_20_templates(
    client: TestClient, project_id: int, refs: dict[str, int], statements: list[str]
) -> None:
    environments = f"/api/v1/projects/{project_id}/environments"

    def add_template(i: int) -> None:
        # objects of its own: a lazy load would hit the identity map for shared ones
        login = key_id(client, project_id, "login_password", f"root{i}")
        vault = key_id(client, project_id, "vault_password", f"vault{i}")
        env = client.post(environments, json={"name": f"e{i}"}).json()["id"]
        make_template(
            client,
            project_id,
            name=f"t{i}",
            repository_id=make_local_repository(client, project_id, PLAYBOOKS, f"r{i}"),
            inventory_id=make_file_inventory(client, project_id, f"i{i}"),
            environment_id=env,
            ssh_key_id=login,
            become_key_id=login,
            vault_key_ids=[vault],
        )

    def count_list() -> int:
        statements.clear()
        listed = client.get(url(project_id), params={"limit": 100})
        assert listed.status_code == 200
        return len(statements)

    add_template(0)
    one = count_list()
    for i in range(1, 20):
        add_template(i)
    assert count_list() == one
    assert client.get(url(project_id)).json()["total"] == 20
