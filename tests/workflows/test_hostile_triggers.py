"""Schedules and webhooks of a workflow as a hostile user writes them: ids of another project's
workflow, both targets at once, huge, negative or malformed ids, launch values and webhook
overrides smuggled in for a workflow target, and callers without the rights a workflow's
trigger needs. Every refusal is a 4xx problem naming the field, never a 500, and reveals
nothing of what the caller may not see."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import (
    Workbench,
    assert_problem,
    bearer,
    make_project,
    make_user,
    token,
)
from support.schedules import YEARLY
from support.workflows import Workflows, template_node

pytestmark = pytest.mark.security

SCHEDULE = {"name": "s", "kind": "cron", "expression": YEARLY}
HOSTILE_IDS: list[Any] = [
    0,
    -1,
    2**31,
    2**63,
    10**30,
    "1 OR 1=1",
    "1\x00",
    1.5,
    True,
    [1],
    {"id": 1},
]


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def workflow(workbench: Workbench, flows: Workflows) -> dict[str, Any]:
    ok = workbench.template("ok.yml", overridable=["extra_vars", "ref", "limit"])
    return flows.create([template_node("only", ok)], [])


@pytest.fixture
def secret_key(workbench: Workbench) -> int:
    return workbench.key(name="hook-secret", kind="secret", value="hostile-hook-secret-3b7c")


def hook_body(secret_key: int, **body: Any) -> dict[str, Any]:
    return {"name": "h", "auth": "github", "secret_key_id": secret_key, **body}


def other_projects_workflow(client: TestClient) -> int:
    """A workflow of another project (the admin sees both: only the project decides)."""
    other = make_project(client, "other")
    base = f"/api/v1/projects/{other}"
    created = client.post(
        f"{base}/workflows",
        json={
            "name": "theirs",
            "nodes": [{"key": "wait", "kind": "approval", "name": "ok?"}],
            "edges": [],
        },
    )
    assert created.status_code == 201, created.text
    workflow_id: int = created.json()["id"]
    return workflow_id


def test_another_projects_workflow_is_not_found(
    workbench: Workbench, workflow: dict[str, Any], secret_key: int
) -> None:
    client = workbench.client
    theirs = other_projects_workflow(client)
    schedule = client.post(workbench.url("schedules"), json={**SCHEDULE, "workflow_id": theirs})
    detail = assert_problem(schedule, 422, "workflow_id")
    assert detail == f"workflow_id: workflow {theirs} not found in project 'bench'"
    hook = client.post(workbench.url("webhooks"), json=hook_body(secret_key, workflow_id=theirs))
    assert assert_problem(hook, 422, "workflow_id") == detail
    assert client.get(workbench.url("schedules")).json()["total"] == 0
    assert client.get(workbench.url("webhooks")).json()["total"] == 0


@pytest.mark.parametrize("value", HOSTILE_IDS)
def test_hostile_ids_are_refused_naming_the_field(
    workbench: Workbench, secret_key: int, value: Any
) -> None:
    client = workbench.client
    for field in ("workflow_id", "template_id"):
        schedule = client.post(workbench.url("schedules"), json={**SCHEDULE, field: value})
        assert_problem(schedule, 422, field)
        hook = client.post(workbench.url("webhooks"), json=hook_body(secret_key, **{field: value}))
        assert_problem(hook, 422, field)
    for path in ("schedules", "webhooks"):
        listed = client.get(workbench.url(path), params={"workflow_id": str(value)})
        assert_problem(listed, 422, "workflow_id")


def test_both_targets_and_smuggled_values_are_refused(
    workbench: Workbench, workflow: dict[str, Any], secret_key: int
) -> None:
    client = workbench.client
    template_id = workflow["nodes"][0]["template_id"]
    both = {"template_id": template_id, "workflow_id": workflow["id"]}
    assert_problem(
        client.post(workbench.url("schedules"), json={**SCHEDULE, **both}), 422, "workflow_id"
    )
    assert_problem(
        client.post(workbench.url("webhooks"), json=hook_body(secret_key, **both)),
        422,
        "workflow_id",
    )
    # the template routes take no second target
    for path, body in (
        (f"templates/{template_id}/schedules", {**SCHEDULE, "workflow_id": workflow["id"]}),
        (f"templates/{template_id}/webhooks", hook_body(secret_key, workflow_id=workflow["id"])),
    ):
        assert_problem(client.post(workbench.url(path), json=body), 422, "workflow_id")
    target = {"workflow_id": workflow["id"]}
    smuggled = [
        {"extra_vars": {"ansible_become_password": "x"}},
        {"limit": "all"},
        {"ref": "evil"},
        {"survey": {"x": "{{ lookup('pipe', 'id') }}"}},
    ]
    for launch in smuggled:
        made = client.post(
            workbench.url("schedules"), json={**SCHEDULE, **target, "launch": launch}
        )
        assert_problem(made, 422, "launch")
    for override in ({"extractors": {"ansible_connection": "a"}}, {"ref_from": "after"}):
        made = client.post(
            workbench.url("webhooks"), json=hook_body(secret_key, **target, **override)
        )
        assert_problem(made, 422, next(iter(override)))
    assert client.get(workbench.url("schedules")).json()["total"] == 0
    assert client.get(workbench.url("webhooks")).json()["total"] == 0

    schedule = client.post(workbench.url("schedules"), json={**SCHEDULE, **target}).json()
    hook = client.post(workbench.url("webhooks"), json=hook_body(secret_key, **target)).json()
    for launch in smuggled:
        patched = client.patch(
            workbench.url(f"schedules/{schedule['id']}"), json={"launch": launch}
        )
        assert_problem(patched, 422, "launch")
    for override in ({"extractors": {"v": "a"}}, {"ref_from": "after"}):
        patched = client.patch(workbench.url(f"webhooks/{hook['id']}"), json=override)
        assert_problem(patched, 422, next(iter(override)))
    # nor can the target be changed afterwards
    for path, item in ((f"schedules/{schedule['id']}", schedule), (f"webhooks/{hook['id']}", hook)):
        moved = client.patch(workbench.url(path), json={"template_id": template_id})
        assert_problem(moved, 422, "template_id")
        assert client.get(workbench.url(path)).json()["workflow_id"] == item["workflow_id"]


def test_rights_a_workflow_trigger_needs(
    workbench: Workbench, workflow: dict[str, Any], secret_key: int
) -> None:
    """An operator may launch the workflow but not schedule it (workflow:write); a user holding
    only a run grant on its template does not see the workflow nor its triggers."""
    client = workbench.client
    template_id = workflow["nodes"][0]["template_id"]
    schedule = client.post(
        workbench.url("schedules"), json={**SCHEDULE, "workflow_id": workflow["id"]}
    ).json()
    hook = client.post(
        workbench.url("webhooks"), json=hook_body(secret_key, workflow_id=workflow["id"])
    ).json()
    members = workbench.url("members")
    olga = make_user(client, "olga")
    assert client.put(members, json={"user_id": olga["id"], "role": "operator"}).status_code == 200
    as_olga = TestClient(client.app, headers=bearer(token(client, "olga")))
    target = {"workflow_id": workflow["id"]}
    made = as_olga.post(workbench.url("schedules"), json={**SCHEDULE, **target, "name": "o"})
    assert_problem(made, 403, "workflow:write")
    made = as_olga.post(workbench.url("webhooks"), json=hook_body(secret_key, **target, name="o"))
    assert_problem(made, 403, "workflow:write")
    assert_problem(
        as_olga.patch(workbench.url(f"schedules/{schedule['id']}"), json={"name": "x"}),
        403,
        "workflow:write",
    )
    assert_problem(
        as_olga.patch(workbench.url(f"webhooks/{hook['id']}"), json={"name": "x"}),
        403,
        "workflow:write",
    )
    assert as_olga.get(workbench.url(f"webhooks/{hook['id']}/deliveries")).status_code == 403
    assert as_olga.get(workbench.url(f"schedules/{schedule['id']}")).status_code == 200

    rita = make_user(client, "rita")
    grant = {"user_id": rita["id"], "permission": "run"}
    assert (
        client.post(workbench.url(f"templates/{template_id}/grants"), json=grant).status_code == 201
    )
    as_rita = TestClient(client.app, headers=bearer(token(client, "rita")))
    assert as_rita.get(workbench.url("schedules")).json()["items"] == []
    assert as_rita.get(workbench.url("webhooks")).json()["items"] == []
    assert as_rita.get(workbench.url(f"schedules/{schedule['id']}")).status_code == 404
    assert as_rita.get(workbench.url(f"webhooks/{hook['id']}")).status_code == 404
    # the same answer as for a workflow that does not exist
    made = as_rita.post(workbench.url("schedules"), json={**SCHEDULE, **target, "name": "r"})
    missing = as_rita.post(
        workbench.url("schedules"), json={**SCHEDULE, "workflow_id": workflow["id"] + 999}
    )
    assert assert_problem(made, 422, "workflow_id").replace(str(workflow["id"]), "N") == (
        assert_problem(missing, 422, "workflow_id").replace(str(workflow["id"] + 999), "N")
    )
    made = as_rita.post(workbench.url("webhooks"), json=hook_body(secret_key, **target, name="r"))
    assert_problem(made, 422, "workflow_id")
