from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, make_key, make_project, ssh_keygen

from steward.environments import service
from steward.environments.models import Environment
from steward.environments.schemas import EnvironmentCreate
from steward.runtime import Runtime


def envs_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/environments"


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


def create(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    created = client.post(envs_url(project_id), json={"name": "prod", **body})
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def test_create_read_update_delete(client: TestClient, project_id: int) -> None:
    token = make_key(client, project_id, name="token", value="tok-123456")
    env = create(
        client,
        project_id,
        extra_vars={"region": "eu", "replicas": 3},
        env_vars={"HTTP_PROXY": "http://proxy:3128"},
        secrets=[{"name": "API_TOKEN", "target": "env", "key_id": token["id"]}],
    )
    assert env["secrets"] == [
        {"name": "API_TOKEN", "target": "env", "key_id": token["id"], "key_name": "token"}
    ]
    assert "tok-123456" not in env
    url = f"{envs_url(project_id)}/{env['id']}"
    assert client.get(url).json() == env
    updated = client.patch(url, json={"extra_vars_yaml": "region: us\nsizes: [1, 2]\n"})
    assert updated.status_code == 200, updated.text
    assert updated.json()["extra_vars"] == {"region": "us", "sizes": [1, 2]}
    assert updated.json()["secrets"] == env["secrets"]
    cleared = client.patch(url, json={"extra_vars": {}, "secrets": []})
    assert (cleared.json()["extra_vars"], cleared.json()["secrets"]) == ({}, [])
    assert client.delete(url).status_code == 204
    assert_problem(client.get(url), 404, "environment")


def test_secret_reference_can_change_key_under_the_same_name(
    client: TestClient, project_id: int
) -> None:
    first = make_key(client, project_id, name="first")
    second = make_key(client, project_id, name="second")
    env = create(
        client, project_id, secrets=[{"name": "T", "target": "env", "key_id": first["id"]}]
    )
    changed = client.patch(
        f"{envs_url(project_id)}/{env['id']}",
        json={"secrets": [{"name": "T", "target": "env", "key_id": second["id"]}]},
    )
    assert changed.status_code == 200, changed.text
    assert changed.json()["secrets"][0]["key_name"] == "second"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"env_vars": {"BAD-NAME": "x"}}, "env_vars.BAD-NAME"),
        ({"env_vars": {"1ST": "x"}}, "env_vars.1ST"),
        ({"env_vars": {"OK": 1}}, "env_vars.OK"),
        ({"extra_vars": {"not valid": 1}}, "extra_vars.not valid"),
        ({"extra_vars_yaml": "a: [unclosed"}, "extra_vars_yaml"),
        ({"extra_vars_yaml": "- a list"}, "extra_vars_yaml"),
        ({"extra_vars_yaml": "when: 2024-01-01"}, "extra_vars_yaml"),
        ({"extra_vars": {}, "extra_vars_yaml": "a: 1"}, "extra_vars_yaml"),
        ({"secrets": [{"name": "x y", "target": "env", "key_id": 1}]}, "secrets[0].name"),
        ({"secrets": [{"name": "X", "target": "file", "key_id": 1}]}, "secrets.0.target"),
        ({"secrets": [{"name": "X", "target": "env", "key_id": 999}]}, "secrets[0].key_id"),
    ],
)
def test_invalid_input_names_the_field(
    db_session: Session, body: dict[str, Any], field: str
) -> None:
    """Below HTTP: the request model, then the service (test_invalid_input_is_a_422_over_http:
    the route, for a rule of each)."""
    project = services.project(db_session)
    actor = services.admin(db_session)

    def create() -> None:
        draft = EnvironmentCreate.model_validate({"name": "e", **body})
        service.create(db_session, project, draft, actor=actor)

    services.refused(create, field)
    assert db_session.scalar(select(func.count()).select_from(Environment)) == 0


def test_invalid_input_is_a_422_over_http(client: TestClient, project_id: int) -> None:
    by_service = client.post(envs_url(project_id), json={"name": "e", "env_vars": {"1ST": "x"}})
    assert_problem(by_service, 422, "env_vars.1ST")
    secret = {"name": "X", "target": "file", "key_id": 1}
    by_model = client.post(envs_url(project_id), json={"name": "e", "secrets": [secret]})
    assert_problem(by_model, 422, "secrets.0.target")
    assert client.get(envs_url(project_id)).json()["total"] == 0


def test_secret_names_may_not_clash(client: TestClient, project_id: int) -> None:
    key = make_key(client, project_id)
    ref = {"name": "TOKEN", "target": "env", "key_id": key["id"]}
    twice = client.post(envs_url(project_id), json={"name": "e", "secrets": [ref, ref]})
    assert_problem(twice, 422, "secrets[1].name")
    shadowed = client.post(
        envs_url(project_id), json={"name": "e", "env_vars": {"TOKEN": "x"}, "secrets": [ref]}
    )
    assert_problem(shadowed, 422, "secrets[0].name")
    as_extra_var = {**ref, "target": "extra_var"}
    both = client.post(envs_url(project_id), json={"name": "e", "secrets": [ref, as_extra_var]})
    assert both.status_code == 201, both.text


def test_secret_key_must_be_of_this_project_and_a_value_kind(
    client: TestClient, project_id: int, tmp_path: Any
) -> None:
    foreign = make_key(client, make_project(client, "other"))
    private, _ = ssh_keygen(tmp_path)
    ssh = make_key(client, project_id, name="ssh", kind="ssh", private_key=private)
    for key_id in (foreign["id"], ssh["id"]):
        body = {"name": "e", "secrets": [{"name": "S", "target": "env", "key_id": key_id}]}
        assert_problem(client.post(envs_url(project_id), json=body), 422, "secrets[0].key_id")


@pytest.mark.both_databases
def test_duplicate_name_is_a_conflict(client: TestClient, project_id: int) -> None:
    create(client, project_id)
    assert_problem(client.post(envs_url(project_id), json={"name": "prod"}), 409, "name")


def test_environment_of_another_project_is_not_found(client: TestClient, project_id: int) -> None:
    env = create(client, make_project(client, "other"))
    assert_problem(client.get(f"{envs_url(project_id)}/{env['id']}"), 404, "environment")


def test_resolve_decrypts_secrets_by_target(client: TestClient, project_id: int) -> None:
    token = make_key(client, project_id, name="t", value="tok-value")
    vault = make_key(client, project_id, name="v", kind="vault_password", password="vault-pw")
    env = create(
        client,
        project_id,
        extra_vars={"region": "eu"},
        env_vars={"MODE": "fast"},
        secrets=[
            {"name": "TOKEN", "target": "env", "key_id": token["id"]},
            {"name": "vault_pw", "target": "extra_var", "key_id": vault["id"]},
        ],
    )
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        environment = session.get_one(Environment, env["id"])
        resolved = service.resolve(session, runtime.cipher, environment)
    assert resolved.extra_vars == {"region": "eu"}
    assert resolved.env_vars == {"MODE": "fast"}
    assert resolved.secret_env == {"TOKEN": "tok-value"}
    assert resolved.secret_extra_vars == {"vault_pw": "vault-pw"}
    assert sorted(resolved.secret_values) == ["tok-value", "vault-pw"]
    assert "tok-value" not in repr(resolved)
