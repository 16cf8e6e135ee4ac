"""Bounded input everywhere: the body as a whole (413), every field (422 naming it), bodies that
are not UTF-8 or not JSON (422 naming the cause), and an audit trail that stays small."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from support.builders import (
    PLAYBOOKS,
    assert_problem,
    make_inventory,
    make_local_repository,
    make_project,
    make_template,
)

from steward.audit.service import VALUE_MAX_BYTES
from steward.bounds import (
    ENV_VALUE_MAX,
    ENV_VARS_MAX,
    ID_MAX,
    INVENTORY_CONTENT_MAX,
    JSON_MAX_BYTES,
    JSON_MAX_DEPTH,
    SECRET_MAX,
    SURVEY_ANSWER_MAX,
    SURVEY_QUESTIONS_MAX,
    TIMEOUT_MAX_SECONDS,
)
from steward.config import Settings

pytestmark = pytest.mark.security

BODY_MAX = 2 * 1024 * 1024  # above every field limit (inventory content is 1 MiB), below default
BODY_MAX_TEXT = "2 MiB (2097152 bytes)"


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """A lower body limit than the default, so the oversized bodies stay small in memory."""
    return settings.model_copy(update={"max_body_bytes": BODY_MAX})


@pytest.fixture
def project(client: TestClient) -> dict[str, int]:
    """A project with a repository and an inventory, ready for templates."""
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, PLAYBOOKS)
    inventory_id = make_inventory(client, project_id)["id"]
    return {"id": project_id, "repository_id": repository_id, "inventory_id": inventory_id}


def _template_body(project: dict[str, int], **fields: Any) -> dict[str, Any]:
    return {
        "name": "deploy",
        "playbook": "ok.yml",
        "repository_id": project["repository_id"],
        "inventory_id": project["inventory_id"],
        **fields,
    }


def _templates_url(project: dict[str, int]) -> str:
    return f"/api/v1/projects/{project['id']}/templates"


def _template_count(client: TestClient, project: dict[str, int]) -> int:
    listed = client.get(_templates_url(project))
    assert listed.status_code == 200
    total: int = listed.json()["total"]
    return total


def _body_of_size(body: dict[str, Any], size: int) -> bytes:
    """``body`` as JSON, padded inside ``extra_vars.padding`` to exactly ``size`` bytes."""
    empty = json.dumps({**body, "extra_vars": {"padding": ""}}).encode()
    padded = {**body, "extra_vars": {"padding": "x" * (size - len(empty))}}
    data = json.dumps(padded).encode()
    assert len(data) == size
    return data


def _errors(response: httpx2.Response) -> dict[str, str]:
    assert response.headers["content-type"] == "application/problem+json"
    return {error["field"]: error["message"] for error in response.json()["errors"]}


# --- the body as a whole ---------------------------------------------------------------------


def test_body_over_the_limit_is_413_and_creates_nothing(
    client: TestClient, project: dict[str, int]
) -> None:
    data = _body_of_size(_template_body(project), BODY_MAX + 1)
    response = client.post(
        _templates_url(project), content=data, headers={"Content-Type": "application/json"}
    )
    detail = assert_problem(response, 413, BODY_MAX_TEXT)
    assert "request body" in detail
    assert _template_count(client, project) == 0


def test_body_at_the_limit_is_read(client: TestClient, project: dict[str, int]) -> None:
    """Exactly the limit passes the middleware; the field limit is what refuses it then."""
    data = _body_of_size(_template_body(project), BODY_MAX)
    response = client.post(
        _templates_url(project), content=data, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert "extra_vars" in _errors(response)


def test_chunked_body_without_length_over_the_limit_is_413(
    client: TestClient, project: dict[str, int]
) -> None:
    data = _body_of_size(_template_body(project), BODY_MAX + 1)

    def chunks() -> Iterator[bytes]:
        for start in range(0, len(data), 64 * 1024):
            yield data[start : start + 64 * 1024]

    request = client.build_request(
        "POST",
        _templates_url(project),
        content=chunks(),
        headers={"Content-Type": "application/json"},
    )
    assert "content-length" not in request.headers
    response = client.send(request)
    assert_problem(response, 413, BODY_MAX_TEXT)
    assert _template_count(client, project) == 0


def test_chunked_body_under_the_limit_is_accepted(
    client: TestClient, project: dict[str, int]
) -> None:
    data = json.dumps(_template_body(project)).encode()
    request = client.build_request(
        "POST",
        _templates_url(project),
        content=iter([data[:10], data[10:]]),
        headers={"Content-Type": "application/json"},
    )
    assert "content-length" not in request.headers
    assert client.send(request).status_code == 201


# --- JSON fields -----------------------------------------------------------------------------


def test_extra_vars_over_the_json_limit_is_422_naming_it(
    client: TestClient, project: dict[str, int]
) -> None:
    body = _template_body(project, extra_vars={"blob": "x" * JSON_MAX_BYTES})
    assert len(json.dumps(body)) < BODY_MAX
    response = client.post(_templates_url(project), json=body)
    detail = assert_problem(response, 422, "extra_vars")
    assert "256 KiB (262144 bytes)" in detail
    assert _template_count(client, project) == 0


def test_deeply_nested_extra_vars_is_422(client: TestClient, project: dict[str, int]) -> None:
    nested: Any = "leaf"
    for _ in range(JSON_MAX_DEPTH + 1):
        nested = [nested]
    response = client.post(
        _templates_url(project), json=_template_body(project, extra_vars={"a": nested})
    )
    assert response.status_code == 422
    assert f"{JSON_MAX_DEPTH} levels" in _errors(response)["extra_vars"]
    assert _template_count(client, project) == 0


def test_nesting_deeper_than_the_parser_is_422_naming_the_body(
    client: TestClient, project: dict[str, int]
) -> None:
    data = b'{"extra_vars": {"a": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    response = client.post(
        _templates_url(project), content=data, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert "nested too deeply" in _errors(response)["body"]


def test_nesting_at_the_limit_is_accepted(client: TestClient, project: dict[str, int]) -> None:
    nested: Any = "leaf"
    for _ in range(JSON_MAX_DEPTH - 1):  # the extra_vars object itself is the first level
        nested = [nested]
    created = make_template(
        client,
        project["id"],
        repository_id=project["repository_id"],
        inventory_id=project["inventory_id"],
        extra_vars={"a": nested},
    )
    assert created["extra_vars"] == {"a": nested}


def test_launch_extra_vars_and_survey_answers_are_bounded(
    client: TestClient, project: dict[str, int]
) -> None:
    question = {"variable": "note", "label": "Note", "type": "text"}
    template = make_template(
        client,
        project["id"],
        repository_id=project["repository_id"],
        inventory_id=project["inventory_id"],
        overridable=["extra_vars"],
        survey=[question],
    )
    runs = f"/api/v1/projects/{project['id']}/runs"
    too_big = {"template_id": template["id"], "extra_vars": {"blob": "x" * JSON_MAX_BYTES}}
    assert_problem(client.post(runs, json=too_big), 422, "extra_vars")
    long_answer = {"template_id": template["id"], "survey": {"note": "x" * (SURVEY_ANSWER_MAX + 1)}}
    detail = assert_problem(client.post(runs, json=long_answer), 422, "survey.note")
    assert str(SURVEY_ANSWER_MAX) in detail
    many = {f"v{i}": 1 for i in range(SURVEY_QUESTIONS_MAX + 1)}
    assert_problem(
        client.post(runs, json={"template_id": template["id"], "survey": many}), 422, "survey"
    )
    assert client.get(runs).json()["items"] == []


# --- text fields and lists -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("name", "n" * 101),
        ("description", "d" * 10_001),
        ("limit", "web," * 251),
        ("tags", "t" * 1001),
        ("playbook", "p/" * 520 + "x.yml"),
        ("timeout_seconds", TIMEOUT_MAX_SECONDS + 1),
        ("repository_id", 2**64),  # no database integer holds it: 422, not a 500
        ("vault_key_ids", [ID_MAX + 1]),
    ],
)
def test_out_of_bounds_template_field_is_422_naming_it(
    client: TestClient, project: dict[str, int], field: str, value: Any
) -> None:
    response = client.post(_templates_url(project), json=_template_body(project, **{field: value}))
    assert response.status_code == 422
    assert [name.partition(".")[0] for name in _errors(response)] == [field]
    assert _template_count(client, project) == 0


def test_long_inventory_content_is_422_naming_it(client: TestClient) -> None:
    project_id = make_project(client)
    inventories = f"/api/v1/projects/{project_id}/inventories"
    body = {
        "name": "big",
        "kind": "static",
        "format": "ini",
        "content": "h\n" * (INVENTORY_CONTENT_MAX // 2 + 1),
    }
    response = client.post(inventories, json=body)
    assert response.status_code == 422
    assert str(INVENTORY_CONTENT_MAX) in _errors(response)["content"]
    assert client.get(inventories).json()["total"] == 0


def test_environment_variables_are_bounded(client: TestClient) -> None:
    project_id = make_project(client)
    environments = f"/api/v1/projects/{project_id}/environments"
    many = {"name": "many", "env_vars": {f"V{i}": "1" for i in range(ENV_VARS_MAX + 1)}}
    assert _errors(client.post(environments, json=many)).keys() == {"env_vars"}
    long_value = {"name": "long", "env_vars": {"TOKEN": "x" * (ENV_VALUE_MAX + 1)}}
    assert "env_vars.TOKEN" in _errors(client.post(environments, json=long_value))
    big_vars = {"name": "big", "extra_vars": {"blob": "x" * JSON_MAX_BYTES}}
    assert "extra_vars" in _errors(client.post(environments, json=big_vars))
    assert client.get(environments).json()["total"] == 0


def test_ssh_key_over_64_kib_is_422(client: TestClient) -> None:
    project_id = make_project(client)
    keys = f"/api/v1/projects/{project_id}/keys"
    body = {"name": "huge", "kind": "ssh", "private_key": "k" * (SECRET_MAX + 1)}
    response = client.post(keys, json=body)
    assert response.status_code == 422
    # the key kind is the union's tag, so pydantic's location names it first
    assert "65536" in _errors(response)["ssh.private_key"]
    assert client.get(keys).json()["total"] == 0


def test_too_many_survey_questions_is_422(client: TestClient, project: dict[str, int]) -> None:
    survey = [
        {"variable": f"q{i}", "label": f"Question {i}", "type": "text"}
        for i in range(SURVEY_QUESTIONS_MAX + 1)
    ]
    response = client.post(_templates_url(project), json=_template_body(project, survey=survey))
    assert response.status_code == 422
    assert f"at most {SURVEY_QUESTIONS_MAX}" in _errors(response)["survey"]
    assert _template_count(client, project) == 0


def test_long_survey_choice_is_422_naming_it(client: TestClient, project: dict[str, int]) -> None:
    question = {"variable": "size", "label": "Size", "type": "choice", "choices": ["s" * 201]}
    response = client.post(_templates_url(project), json=_template_body(project, survey=[question]))
    assert response.status_code == 422
    assert "survey.0.choices.0" in _errors(response)


# --- bodies that are not UTF-8 or not JSON ----------------------------------------------------


def test_invalid_utf8_body_is_422_naming_the_byte(client: TestClient) -> None:
    data = b'{"name": "caf\xe9"}'
    response = client.post(
        "/api/v1/projects", content=data, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert _errors(response) == {"body": "is not valid UTF-8 (byte 0xe9 at position 13)"}
    assert client.get("/api/v1/projects").json()["total"] == 0


def test_invalid_json_is_422_naming_line_and_column(client: TestClient) -> None:
    data = b'{\n  "name": "infra",\n  "description": oops\n}'
    response = client.post(
        "/api/v1/projects", content=data, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    message = _errors(response)["body"]
    assert message.startswith("is not valid JSON: Expecting value"), message
    assert "(line 3, column 18)" in message
    assert client.get("/api/v1/projects").json()["total"] == 0


def test_number_too_long_to_parse_is_422_naming_the_body(client: TestClient) -> None:
    data = b'{"name": "infra", "max_parallel_runs": ' + b"9" * 5000 + b"}"
    response = client.post(
        "/api/v1/projects", content=data, headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert "4300 digits" in _errors(response)["body"]


# --- the audit trail -------------------------------------------------------------------------


def test_audit_stores_a_large_value_as_size_and_sha256(
    client: TestClient, project: dict[str, int]
) -> None:
    template = make_template(
        client,
        project["id"],
        repository_id=project["repository_id"],
        inventory_id=project["inventory_id"],
    )
    large = {"blob": "x" * (200 * 1024)}
    updated = client.patch(
        f"{_templates_url(project)}/{template['id']}", json={"extra_vars": large}
    )
    assert updated.status_code == 200, updated.text

    page = client.get("/api/v1/audit", params={"action": "template:update"})
    assert page.status_code == 200
    [entry] = page.json()["items"]
    before, after = entry["changes"]["extra_vars"]
    assert before == {}
    canonical = json.dumps(large, sort_keys=True, separators=(",", ":")).encode()
    assert after == {"size": len(canonical), "sha256": hashlib.sha256(canonical).hexdigest()}

    first_page = client.get("/api/v1/audit")
    assert first_page.status_code == 200
    assert len(first_page.content) < 20 * VALUE_MAX_BYTES
    exported = client.get("/api/v1/audit/export")
    assert "x" * (VALUE_MAX_BYTES + 1) not in exported.text


def test_audit_keeps_small_values_in_full(client: TestClient, project: dict[str, int]) -> None:
    template = make_template(
        client,
        project["id"],
        repository_id=project["repository_id"],
        inventory_id=project["inventory_id"],
    )
    client.patch(f"{_templates_url(project)}/{template['id']}", json={"extra_vars": {"v": 1}})
    [entry] = client.get("/api/v1/audit", params={"action": "template:update"}).json()["items"]
    assert entry["changes"]["extra_vars"] == [{}, {"v": 1}]


def test_a_yaml_alias_bomb_in_environment_extra_vars_is_a_422(client: TestClient) -> None:
    """A few hundred bytes of YAML whose aliases expand to billions of values."""
    project = client.post("/api/v1/projects", json={"name": "bomb"}).json()["id"]
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    levels += [
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    created = client.post(
        f"/api/v1/projects/{project}/environments",
        json={"name": "bomb", "extra_vars_yaml": "\n".join(levels) + "\n"},
    )
    assert created.status_code == 422, created.text
    assert created.json()["errors"][0]["field"] == "extra_vars_yaml"
    # refused while reading the text, before anything is expanded (tests/api/
    # test_hostile_expression_budgets.py); the JSON size check behind it stays
    assert "aliases expanded" in created.json()["errors"][0]["message"]
    assert client.get(f"/api/v1/projects/{project}/environments").json()["items"] == []
