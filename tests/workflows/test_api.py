"""The workflows API: create, read, edit, delete; the document checked as a
whole (422 naming the field); launch values checked like a launch and their secrets sealed;
templates in use kept; every change audited."""

from __future__ import annotations

from typing import Any

import pytest
from cryptography.fernet import Fernet
from support.builders import Workbench, assert_problem
from support.workflows import Workflows, approval_node, edge, template_node

from steward.keys import rotation
from steward.workflows.models import Workflow

pytestmark = pytest.mark.loops("workflows")

SURVEY = [
    {"variable": "release", "label": "Release", "type": "text", "required": True},
    {"variable": "db_password", "label": "DB password", "type": "password", "required": True},
]


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def deploy(workbench: Workbench) -> int:
    return workbench.template("ok.yml", name="deploy", overridable=["limit"], survey=SURVEY)


def answers(**extra: Any) -> dict[str, Any]:
    return {"survey": {"release": "v1", "db_password": "hunter2-secret"}, **extra}


def audit_of(workbench: Workbench, workflow_id: int) -> list[dict[str, Any]]:
    params: dict[str, str | int] = {"object_type": "workflow", "object_id": workflow_id}
    items: list[dict[str, Any]] = workbench.client.get("/api/v1/audit", params=params).json()[
        "items"
    ]
    return items[::-1]


def test_create_read_update_delete_with_sealed_answers(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    client = workbench.client
    created = flows.create(
        [
            template_node("ship", deploy, **answers(limit="localhost")),
            approval_node("gate", "ok?", must_differ=False),
        ],
        [edge("gate", "ship")],
    )
    ship = created["nodes"][0]
    assert ship["template_name"] == "deploy"
    assert ship["launch"]["survey"] == {"release": "v1", "db_password": "********"}
    assert ship["launch"]["limit"] == "localhost"
    assert created["edges"] == [{"from": "gate", "to": "ship", "on": "success"}]
    assert client.get(workbench.url(f"workflows/{created['id']}")).json() == created
    listed = client.get(workbench.url("workflows")).json()
    assert listed["total"] == 1
    assert "hunter2" not in str(listed)

    # sending the masked answer back keeps it: the launch still has the real one
    masked = [{k: v for k, v in n.items() if k != "template_name"} for n in created["nodes"]]
    patched = client.patch(
        workbench.url(f"workflows/{created['id']}"),
        json={"name": "renamed", "nodes": masked},
    )
    assert patched.status_code == 200, patched.text
    assert patched.json()["name"] == "renamed"
    assert patched.json()["edges"] == created["edges"]  # kept: only nodes were sent
    wrun = flows.launch(created["id"])
    assert flows.decide(wrun["id"], "gate").status_code == 200
    done = flows.wait(wrun["id"])
    assert done["status"] == "successful", done
    run_id = done["nodes"][0]["run_id"]
    params = client.get(workbench.url(f"runs/{run_id}")).json()["params"]
    assert params["secret_extra_vars"] == {"db_password": "********"}

    # PATCH replaces the graph as a whole
    replaced = client.patch(
        workbench.url(f"workflows/{created['id']}"),
        json={"nodes": [approval_node("only")], "edges": []},
    )
    assert replaced.status_code == 200, replaced.text
    assert [n["key"] for n in replaced.json()["nodes"]] == ["only"]

    actions = [a["action"] for a in audit_of(workbench, created["id"])]
    assert actions == ["workflow:create", "workflow:update", "workflow:update"]
    assert "hunter2" not in str(audit_of(workbench, created["id"]))
    assert client.delete(workbench.url(f"workflows/{created['id']}")).status_code == 204
    assert client.get(workbench.url(f"workflows/{created['id']}")).status_code == 404
    # its runs stay, without their workflow
    kept = client.get(workbench.url(f"workflow-runs/{wrun['id']}")).json()
    assert kept["workflow_id"] is None
    assert kept["workflow_name"] == "renamed"


@pytest.mark.parametrize(
    ("nodes", "edges", "field"),
    [
        ([approval_node("a"), approval_node("a")], [], "nodes.1.key"),
        ([approval_node("a")], [edge("a", "b")], "edges.0.to"),
        ([approval_node("a")], [edge("x", "a")], "edges.0.from"),
        ([approval_node("a")], [edge("a", "a")], "edges.0.to"),
        (
            [approval_node("a"), approval_node("b")],
            [edge("a", "b"), edge("a", "b", "failure")],
            "edges.1",
        ),
        (
            [approval_node("a"), approval_node("b"), approval_node("c")],
            [edge("a", "b"), edge("b", "c"), edge("c", "a")],
            "edges.2",
        ),
        ([{"key": "Upper", "kind": "approval", "name": "x"}], [], "nodes.0.key"),
        ([{"key": "a" * 65, "kind": "approval", "name": "x"}], [], "nodes.0.key"),
        ([{"key": "a", "kind": "template"}], [], "nodes.0.template_id"),
        ([{"key": "a", "kind": "approval"}], [], "nodes.0.name"),
        (
            [{"key": "a", "kind": "approval", "name": "x", "template_id": 1}],
            [],
            "nodes.0.template_id",
        ),
        (
            [{"key": "a", "kind": "approval", "name": "x", "timeout_seconds": -1}],
            [],
            "timeout_seconds",
        ),
        ([approval_node("a")], [{"from": "a", "to": "a", "on": "maybe"}], "on"),
        ([{"key": "a", "kind": "approval", "name": "x", "extra": 1}], [], "extra"),
        ([{"key": "b", "kind": "apply"}], [], "nodes.0.plan_node"),
        (
            [approval_node("a"), {"key": "b", "kind": "apply", "plan_node": "a"}],
            [edge("a", "b")],
            "nodes.1.plan_node",
        ),
    ],
)
def test_bad_documents_are_refused_naming_the_field(
    flows: Workflows, nodes: list[dict[str, Any]], edges: list[dict[str, str]], field: str
) -> None:
    response = flows.api.post(
        f"{flows.base}/workflows", json={"name": "bad", "nodes": nodes, "edges": edges}
    )
    assert_problem(response, 422, field)


def test_launch_values_are_checked_like_a_launch(flows: Workflows, deploy: int) -> None:
    cases = [
        ({"survey": {"release": "v1"}}, "nodes.0.launch.survey.db_password"),
        ({**answers(), "forks": 3}, "nodes.0.launch.forks"),  # not overridable
        ({**answers(), "inventory_id": 999999}, "nodes.0.launch.inventory_id"),
    ]
    for launch, field in cases:
        body = {"name": "x", "nodes": [template_node("n", deploy, **launch)], "edges": []}
        detail = assert_problem(flows.api.post(f"{flows.base}/workflows", json=body), 422, field)
        assert "hunter2" not in detail


@pytest.mark.both_databases
def test_a_template_in_use_is_not_deleted_and_names_are_unique(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    flows.create([template_node("ship", deploy, **answers())], [], name="release")
    refused = workbench.client.delete(workbench.url(f"templates/{deploy}"))
    detail = assert_problem(refused, 409, "workflow 'release'")
    assert "template 'deploy'" in detail
    again = flows.api.post(f"{flows.base}/workflows", json={"name": "release"})
    assert_problem(again, 409, "name")


def test_key_rotation_reencrypts_sealed_answers_of_workflows_and_their_runs(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    wf = flows.create(
        [approval_node("gate", must_differ=False), template_node("ship", deploy, **answers())],
        [edge("gate", "ship")],
    )
    waiting = flows.launch(wf["id"])["id"]
    report = rotation.rotate(runtime.sessions, runtime.settings.key_file, drop_old=True, batch=2)
    assert report.reencrypted["workflow answers"] == 1
    assert report.reencrypted["workflow run answers"] == 1
    # the run launched after the rotation opens the answer sealed before it
    assert flows.decide(waiting, "gate").status_code == 200
    done = flows.wait(waiting)
    assert done["status"] == "successful", done


def test_launch_values_refused_now_are_a_422_at_launch_and_a_failed_node_later(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    wf = flows.create(
        [approval_node("gate", must_differ=False), template_node("ship", deploy, **answers())],
        [edge("gate", "ship")],
    )
    waiting = flows.launch(wf["id"])["id"]
    # the template's survey asks one more question after the workflow was saved
    asked = [*SURVEY, {"variable": "ticket", "label": "Ticket", "type": "text", "required": True}]
    changed = workbench.client.patch(workbench.url(f"templates/{deploy}"), json={"survey": asked})
    assert changed.status_code == 200, changed.text
    refused = workbench.client.post(workbench.url(f"workflows/{wf['id']}/launch"))
    assert_problem(refused, 422, "nodes.ship.launch.survey.ticket")
    # the run already under way: its node fails with the reason, the workflow with it
    assert flows.decide(waiting, "gate").status_code == 200
    done = flows.wait(waiting)
    ship = next(n for n in done["nodes"] if n["key"] == "ship")
    assert ship["status"] == "failed"
    assert ship["run_id"] is None
    assert "could not be launched" in ship["reason"]
    assert "ticket" in ship["reason"]
    assert "hunter2" not in ship["reason"]
    assert done["status"] == "failed"


def test_answers_the_master_key_cannot_open_are_a_409_naming_the_node_never_a_500(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    client = workbench.client
    wf = flows.create(
        [approval_node("gate", must_differ=False), template_node("ship", deploy, **answers())],
        [edge("gate", "ship")],
    )
    url = workbench.url(f"workflows/{wf['id']}")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:  # sealed by a key this installation does not hold
        row = session.get_one(Workflow, wf["id"])
        row.secret_launch = Fernet(Fernet.generate_key()).encrypt(b'{"nodes": {}}')
        session.commit()
    masked = [{k: v for k, v in n.items() if k != "template_name"} for n in wf["nodes"]]
    keeping: list[dict[str, Any]] = [{"nodes": masked}, {"edges": []}]
    for body in keeping:  # both keep the stored answers
        detail = assert_problem(client.patch(url, json=body), 409, "node 'ship'")
        assert "cannot be decrypted with the master key" in detail
    assert_problem(client.post(f"{url}/launch"), 409, "node 'ship'")
    # a rename opens nothing; sending the answers again replaces what cannot be opened
    assert client.patch(url, json={"name": "renamed"}).status_code == 200
    again = [template_node("ship", deploy, **answers()), approval_node("gate", must_differ=False)]
    saved = client.patch(url, json={"nodes": again})
    assert saved.status_code == 200, saved.text
    wrun = flows.launch(wf["id"])
    assert flows.decide(wrun["id"], "gate").status_code == 200
    assert flows.wait(wrun["id"])["status"] == "successful"


def test_a_workflow_is_not_deleted_while_one_of_its_runs_is_running(
    workbench: Workbench, flows: Workflows, deploy: int
) -> None:
    created = flows.create(
        [approval_node("gate"), template_node("ship", deploy, **answers())],
        [edge("gate", "ship")],
    )
    wrun = flows.launch(created["id"])  # it waits at the approval: running
    url = workbench.url(f"workflows/{created['id']}")
    detail = assert_problem(workbench.client.delete(url), 409, f"workflow '{created['name']}'")
    assert f"has a running workflow run ({wrun['id']}); cancel it first" in detail

    canceled = workbench.client.post(workbench.url(f"workflow-runs/{wrun['id']}/cancel"))
    assert canceled.status_code in (200, 202), canceled.text
    flows.wait(wrun["id"])
    assert workbench.client.delete(url).status_code == 204  # the control: no run running
