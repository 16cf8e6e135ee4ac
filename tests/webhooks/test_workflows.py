"""Webhooks that launch a workflow: made with ``workflow_id`` (exactly one target, no launch
values from the body), a signed delivery launching a real workflow run whose node runs run the
real playbook, the owner's rights checked at each delivery (refused and recorded, the webhook
disabled), and the webhook deleted with its workflow. In-process app."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.webhooks import SECRET, encode, github_headers
from support.workflows import Workflows, approval_node, edge, fast, template_node

from steward.config import Settings

pytestmark = pytest.mark.loops("workflows")


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast(settings)


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def secret_key(workbench: Workbench) -> int:
    return workbench.key(name="hook-secret", kind="secret", value=SECRET)


def hook_of(
    client: TestClient, workbench: Workbench, secret_key: int, workflow_id: int, **body: Any
) -> dict[str, Any]:
    body = {"name": "hook", "auth": "github", "secret_key_id": secret_key, **body}
    response = client.post(workbench.url("webhooks"), json={"workflow_id": workflow_id, **body})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def deliver(client: TestClient, hook: dict[str, Any], document: Any) -> Any:
    body = encode(document)
    path = hook["url"][hook["url"].index("/api/v1/") :]
    return client.post(path, content=body, headers=github_headers(body))


def test_a_signed_delivery_launches_the_workflow(
    workbench: Workbench, flows: Workflows, secret_key: int
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml")
    workflow = flows.create(
        [template_node("build", ok), template_node("ship", ok)], [edge("build", "ship")]
    )
    matchers = [{"source": "body", "path": "ref", "op": "equals", "value": "refs/heads/main"}]
    hook = hook_of(client, workbench, secret_key, workflow["id"], matchers=matchers)
    assert (hook["target_kind"], hook["workflow_id"], hook["template_id"]) == (
        "workflow",
        workflow["id"],
        None,
    )
    assert hook["workflow_name"] == "pipeline"

    ignored = deliver(client, hook, {"ref": "refs/heads/dev"})
    assert (ignored.status_code, ignored.json()["outcome"]) == (202, "ignored")
    assert client.get(workbench.url("workflow-runs")).json()["items"] == []
    answer = deliver(client, hook, {"ref": "refs/heads/main"})
    assert answer.status_code == 202, answer.text
    result = answer.json()
    assert (result["outcome"], result["run_id"]) == ("launched", None)
    wrun = flows.wait(result["workflow_run_id"])

    assert wrun["status"] == "successful", wrun
    assert (wrun["launch_type"], wrun["webhook_id"], wrun["schedule_id"]) == (
        "webhook",
        hook["id"],
        None,
    )
    assert wrun["launched_by"] == "admin"
    runs = [workbench.run(n["run_id"]) for n in wrun["nodes"]]
    assert {(r["launch_type"], r["status"]) for r in runs} == {("workflow", "successful")}
    recorded = client.get(
        workbench.url(f"webhooks/{hook['id']}/deliveries/{result['delivery_id']}")
    ).json()
    assert (recorded["outcome"], recorded["workflow_run_id"], recorded["run_id"]) == (
        "launched",
        wrun["id"],
        None,
    )
    assert recorded["reason"] == f"launched workflow run {wrun['id']}"
    assert recorded["launch"] == {}
    assert SECRET not in str(recorded)
    [audited] = client.get(
        "/api/v1/audit", params={"action": "workflow:launch", "object_id": wrun["id"]}
    ).json()["items"]
    assert (audited["actor"], audited["actor_type"]) == (
        f"admin (via webhook {hook['id']})",
        "webhook",
    )
    listed = client.get(workbench.url("webhooks"), params={"workflow_id": workflow["id"]}).json()
    assert [w["id"] for w in listed["items"]] == [hook["id"]]


def test_no_launch_values_for_a_workflow_and_one_target(
    workbench: Workbench, flows: Workflows, secret_key: int
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml", overridable=["extra_vars", "ref"])
    workflow = flows.create([template_node("only", ok)], [])
    base = {"name": "h", "auth": "github", "secret_key_id": secret_key}
    url = workbench.url("webhooks")
    target = {"workflow_id": workflow["id"]}
    extract = client.post(url, json={**base, **target, "extractors": {"v": "head_commit.id"}})
    assert "carry their own launch values" in assert_problem(extract, 422, "extractors")
    ref = client.post(url, json={**base, **target, "ref_from": "after"})
    assert_problem(ref, 422, "ref_from")
    both = client.post(url, json={**base, **target, "template_id": ok})
    assert "not both" in assert_problem(both, 422, "workflow_id")
    assert_problem(client.post(url, json=base), 422, "template_id")
    made = client.post(url, json={**base, "template_id": ok, "ref_from": "after"})
    assert made.status_code == 201, made.text  # a template's webhook through the project route
    assert made.json()["target_kind"] == "template"

    hook = hook_of(client, workbench, secret_key, workflow["id"])
    patched = client.patch(
        workbench.url(f"webhooks/{hook['id']}"), json={"extractors": {"v": "head_commit.id"}}
    )
    assert_problem(patched, 422, "extractors")
    patched = client.patch(workbench.url(f"webhooks/{hook['id']}"), json={"ref_from": "after"})
    assert_problem(patched, 422, "ref_from")
    # a dry-run test delivery says what it would launch, launching nothing
    test = client.post(workbench.url(f"webhooks/{hook['id']}/test"), json={})
    assert test.status_code == 200, test.text
    assert (test.json()["outcome"], test.json()["reason"]) == (
        "matched",
        "dry run: it would launch workflow 'pipeline'",
    )
    assert client.get(workbench.url("workflow-runs")).json()["items"] == []


def test_an_owner_who_may_no_longer_launch_a_node_is_refused(
    workbench: Workbench, flows: Workflows, secret_key: int
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml")
    workflow = flows.create(
        [approval_node("gate"), template_node("ship", ok)], [edge("gate", "ship")]
    )
    bob = make_user(client, "bob")
    members = workbench.url("members")
    assert client.put(members, json={"user_id": bob["id"], "role": "manager"}).status_code == 200
    as_bob = TestClient(client.app, headers=bearer(token(client, "bob")))
    hook = hook_of(as_bob, workbench, secret_key, workflow["id"])
    assert hook["owner"] == "bob"
    assert client.put(members, json={"user_id": bob["id"], "role": "viewer"}).status_code == 200

    answer = deliver(client, hook, {"ref": "refs/heads/main"})
    assert answer.status_code == 409, answer.text
    reason = answer.json()["detail"]
    assert reason.startswith("its owner 'bob' may no longer launch workflow 'pipeline'"), reason
    assert "'run:launch'" in reason
    assert "node 'ship'" in reason
    [recorded] = client.get(workbench.url(f"webhooks/{hook['id']}/deliveries")).json()["items"]
    assert (recorded["outcome"], recorded["status_code"], recorded["workflow_run_id"]) == (
        "failed",
        409,
        None,
    )
    assert recorded["reason"] == reason
    assert client.get(workbench.url("workflow-runs")).json()["items"] == []
    read = client.get(workbench.url(f"webhooks/{hook['id']}")).json()
    assert read["enabled"] is False
    assert "may no longer launch" in read["disabled_reason"]
    # bob, a viewer now, may not save it again (the rights a launch needs, checked at save)
    again = as_bob.patch(workbench.url(f"webhooks/{hook['id']}"), json={"enabled": True})
    assert again.status_code in (403, 404), again.text


def test_deleting_the_workflow_deletes_its_webhooks(
    workbench: Workbench, flows: Workflows, secret_key: int
) -> None:
    client = workbench.client
    ok = workbench.template("ok.yml")
    workflow = flows.create([template_node("only", ok)], [])
    hook = hook_of(client, workbench, secret_key, workflow["id"])
    first = deliver(client, hook, {})
    assert first.status_code == 202, first.text
    wrun = flows.wait(first.json()["workflow_run_id"])
    assert wrun["status"] == "successful"

    assert client.delete(workbench.url(f"workflows/{workflow['id']}")).status_code == 204
    assert client.get(workbench.url(f"webhooks/{hook['id']}")).status_code == 404
    assert deliver(client, hook, {}).status_code == 404
    kept = flows.read(wrun["id"])  # the run stays, without the webhook it no longer has
    assert (kept["workflow_id"], kept["webhook_id"], kept["launch_type"]) == (
        None,
        None,
        "webhook",
    )
