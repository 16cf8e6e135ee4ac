"""Hostile workflows: cycles and oversized documents, templates of another project, Jinja in
node launch values (data, never templates, as in a normal launch), decisions by those who may
not decide, decisions twice or too late, cancels racing decisions, and launchers approving
their own runs (as admins, through a schedule, before the node waits, after switching the
option off)."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from support.builders import (
    Workbench,
    assert_problem,
    assign_local_roots,
    bearer,
    login,
    make_project,
    make_user,
    token,
)
from support.notifications import messages, subscribe, webhook_destination
from support.schedules import YEARLY, make_due
from support.waits import wait_until
from support.workflows import (
    Workflows,
    approval_node,
    edge,
    fast,
    nodes,
    statuses,
    template_node,
)

from steward.config import Settings

pytestmark = [pytest.mark.security, pytest.mark.loops("workflows", "scheduler")]

ECHO = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "{{ {'evil': evil, 'answer': answer} | to_json }}"
"""


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return fast(settings).model_copy(update={"scheduler_tick_seconds": 0.1})


@pytest.fixture
def flows(workbench: Workbench) -> Workflows:
    return Workflows(workbench.client, workbench.project_id)


@pytest.fixture
def ok(workbench: Workbench) -> int:
    return workbench.template("ok.yml", name="ok")


def payload(marker: Path) -> str:
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}{% if true %}x{% endif %}"


def member(workbench: Workbench, name: str, role: str | None, scope: str = "write") -> TestClient:
    """A client of a new user holding ``role`` in the project (None: no role)."""
    client = workbench.client
    user = make_user(client, name)
    if role is not None:
        body = {"user_id": user["id"], "role": role}
        assert client.put(workbench.url("members"), json=body).status_code == 200
    other = TestClient(client.app, base_url="http://testserver")
    other.headers.update(bearer(token(client, name, scope)))
    return other


def grant(workbench: Workbench, username: str, template_id: int, permission: str = "run") -> None:
    users = workbench.client.get("/api/v1/users", params={"limit": 500}).json()["items"]
    user_id = next(u["id"] for u in users if u["username"] == username)
    body = {"user_id": user_id, "permission": permission}
    answer = workbench.client.post(workbench.url(f"templates/{template_id}/grants"), json=body)
    assert answer.status_code == 201, answer.text


# --- the document --------------------------------------------------------------------------


def test_a_long_cycle_and_oversized_documents_are_422s(flows: Workflows) -> None:
    url = f"{flows.base}/workflows"
    ring = [approval_node(f"n{i}") for i in range(100)]
    loop = [edge(f"n{i}", f"n{(i + 1) % 100}") for i in range(100)]
    detail = assert_problem(
        flows.api.post(url, json={"name": "ring", "nodes": ring, "edges": loop}), 422, "edges.99"
    )
    assert "cycle" in detail
    many = [approval_node(f"n{i}") for i in range(101)]
    assert_problem(flows.api.post(url, json={"name": "many", "nodes": many}), 422, "nodes")
    chain = [approval_node(f"n{i}") for i in range(100)]
    edges = [edge(f"n{i}", f"n{j}") for i in range(100) for j in range(i + 1, 100)][:301]
    assert_problem(
        flows.api.post(url, json={"name": "dense", "nodes": chain, "edges": edges}), 422, "edges"
    )
    long_name = {"key": "a", "kind": "approval", "name": "x" * 101}
    assert_problem(flows.api.post(url, json={"name": "n", "nodes": [long_name]}), 422, "name")
    huge = {"key": "a", "kind": "approval", "name": "x", "timeout_seconds": 10**12}
    assert_problem(flows.api.post(url, json={"name": "n", "nodes": [huge]}), 422, "timeout_seconds")
    too_big = flows.api.post(url, content=b'{"name": "' + b"x" * 5_000_000 + b'"}')
    assert too_big.status_code == 413
    assert flows.api.get(url).json()["total"] == 0  # nothing was saved


def test_templates_of_another_project_are_not_found(workbench: Workbench, flows: Workflows) -> None:
    client = workbench.client
    other = client.post("/api/v1/projects", json={"name": "other"}).json()["id"]
    base = f"/api/v1/projects/{other}"
    assign_local_roots(client, other, workbench.repo_dir)  # shared with the workbench's project
    repo = {"name": "r", "kind": "local", "url": str(workbench.repo_dir)}
    repository = client.post(f"{base}/repositories", json=repo).json()["id"]
    inv = {"name": "i", "kind": "static", "format": "ini", "content": "localhost\n"}
    inventory = client.post(f"{base}/inventories", json=inv).json()["id"]
    body = {"name": "theirs", "playbook": "ok.yml", "repository_id": repository,
            "inventory_id": inventory}  # fmt: skip
    theirs = client.post(f"{base}/templates", json=body).json()["id"]
    refused = flows.api.post(
        f"{flows.base}/workflows", json={"name": "x", "nodes": [template_node("a", theirs)]}
    )
    detail = assert_problem(refused, 422, "nodes.0.template_id")
    assert "not found in project 'bench'" in detail
    # nor are another project's workflows and workflow runs
    mine = flows.create([approval_node("gate")], [])
    wrun = flows.launch(mine["id"])
    assert client.get(f"{base}/workflows/{mine['id']}").status_code == 404
    assert client.get(f"{base}/workflow-runs/{wrun['id']}").status_code == 404
    assert client.post(f"{base}/workflow-runs/{wrun['id']}/nodes/gate/approve").status_code == 404
    assert client.post(f"{base}/workflows/{mine['id']}/launch").status_code == 404


def test_an_apply_node_applies_only_a_plan_node_of_its_own_document(
    workbench: Workbench, flows: Workflows
) -> None:
    """A plan node's key from another workflow, a key that injects, a plan node of a template
    that does not plan or of another project: each a 422 naming the field."""
    planning = workbench.template("ok.yml", name="planning", plans_allowed=True)
    plan = {"key": "plan", "kind": "plan", "template_id": planning}
    other = flows.create([plan], [], name="has-the-plan")
    assert other["nodes"][0]["key"] == "plan"

    def save(nodes: list[dict[str, Any]], edges: list[dict[str, str]]) -> httpx2.Response:
        body = {"name": "applies", "nodes": nodes, "edges": edges}
        return flows.api.post(f"{flows.base}/workflows", json=body)

    # another workflow's plan node is no node of this document
    refused = save([{"key": "apply", "kind": "apply", "plan_node": "plan"}], [])
    assert "no node has the key 'plan'" in assert_problem(refused, 422, "nodes.0.plan_node")
    for injected in ["plan' OR '1'='1", "../plan", "plan\u0000", "PLAN", 7, {"$ne": None}]:
        node = {"key": "apply", "kind": "apply", "plan_node": injected}
        assert_problem(save([plan, node], [edge("plan", "apply")]), 422, "plan_node")
    # a template that does not allow plans, as a plan node
    plain = {"key": "plan", "kind": "plan", "template_id": workbench.template("ok.yml")}
    detail = assert_problem(save([plain], []), 422, "nodes.0.template_id")
    assert "does not allow plans" in detail
    # the control: the same apply node after its own plan node is saved
    node = {"key": "apply", "kind": "apply", "plan_node": "plan"}
    saved = save([plan, node], [edge("plan", "apply")])
    assert saved.status_code == 201, saved.text
    assert saved.json()["nodes"][1]["plan_node"] == "plan"


# --- launch values -------------------------------------------------------------------------


@pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database
def test_jinja_in_node_launch_values_stays_data(
    workbench: Workbench, flows: Workflows, markers_dir: Path
) -> None:
    (workbench.repo_dir / "echo.yml").write_text(ECHO)
    survey = [{"variable": "answer", "label": "a", "type": "text", "required": True}]
    echo = workbench.template("echo.yml", name="echo", overridable=["extra_vars"], survey=survey)
    evil, answer = markers_dir / "evil", markers_dir / "answer"
    wf = flows.create(
        [
            template_node(
                "echo", echo, extra_vars={"evil": payload(evil)}, survey={"answer": payload(answer)}
            )
        ],
        [],
    )
    done = flows.wait(flows.launch(wf["id"])["id"])
    assert done["status"] == "successful", done
    text = re.sub(r"\x1b\[[0-9;]*m", "", workbench.text(nodes(done)["echo"]["run_id"]))
    start = text.index('"msg": ') + len('"msg": ')
    seen = json.loads(json.loads(text[start : text.index("\n", start)]))
    assert seen == {"evil": payload(evil), "answer": payload(answer)}
    assert not evil.exists()
    assert not answer.exists()


# --- who may do what -----------------------------------------------------------------------


def test_grant_holders_viewers_and_read_tokens_may_not_decide(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    wf = flows.create([approval_node("gate"), template_node("run", ok)], [edge("gate", "run")])
    wrun = flows.launch(wf["id"])["id"]
    url = workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve")
    runner = member(workbench, "runner", None)
    grant(workbench, "runner", ok)  # may launch the template, not decide workflows
    assert_problem(runner.post(url), 403, "workflow:view")
    viewer = member(workbench, "viewer", "viewer")
    assert viewer.get(workbench.url(f"workflow-runs/{wrun}")).json()["can_decide"] is False
    assert_problem(viewer.post(url), 403, "workflow:approve")
    reader = member(workbench, "reader", "operator", scope="read")
    assert_problem(reader.post(url), 403, "workflow:approve")
    anonymous = TestClient(workbench.client.app, base_url="http://testserver")
    assert anonymous.post(url).status_code == 401
    assert anonymous.get(workbench.url(f"workflow-runs/{wrun}")).status_code == 401
    assert flows.read(wrun)["nodes"][0]["status"] == "waiting"  # none of them decided
    operator = member(workbench, "operator", "operator")
    assert operator.get(workbench.url(f"workflow-runs/{wrun}")).json()["can_decide"] is True
    decided = operator.post(url, json={"comment": "fine"})
    assert decided.status_code == 200, decided.text
    assert nodes(decided.json())["gate"]["decided_by"] == "operator"


def test_launching_needs_run_launch_on_every_template(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    other = workbench.template("ok.yml", name="guarded")
    wf = flows.create([template_node("a", ok), template_node("b", other)], [edge("a", "b")])
    viewer = member(workbench, "viewer", "viewer")
    grant(workbench, "viewer", ok)
    url = workbench.url(f"workflows/{wf['id']}/launch")
    detail = assert_problem(viewer.post(url), 403, "template 'guarded'")
    assert "run:launch" in detail
    assert viewer.get(workbench.url("workflow-runs")).json()["items"] == []
    assert viewer.post(workbench.url("workflows"), json={"name": "mine"}).status_code == 403
    grant(workbench, "viewer", other)
    launched = viewer.post(url)
    assert launched.status_code == 201, launched.text
    assert launched.json()["launched_by"] == "viewer"
    run = workbench.run(nodes(launched.json())["a"]["run_id"])
    assert run["launched_by"] == "viewer"


def test_long_comments_and_keys_are_refused(workbench: Workbench, flows: Workflows) -> None:
    wrun = flows.launch(flows.create([approval_node("gate")], [])["id"])["id"]
    long = flows.decide(wrun, "gate", "approve", "x" * 1001)
    assert_problem(long, 422, "comment")
    key = flows.decide(wrun, "k" * 65, "approve")
    assert_problem(key, 422, "key")
    assert flows.decide(wrun, "nope", "approve").status_code == 404
    assert flows.read(wrun)["nodes"][0]["status"] == "waiting"


# --- decisions and cancels racing ----------------------------------------------------------


def _at_once(calls: list[Any]) -> list[httpx2.Response]:
    """Call each at the same moment from its own thread; their answers in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def one(i: int) -> None:
        barrier.wait()
        try:
            answers[i] = calls[i]()
        except Exception as exc:  # noqa: BLE001 - the server's (TestClient raises it): reported
            answers[i] = exc

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for i, answer in enumerate(answers):
        if isinstance(answer, Exception):
            raise AssertionError(f"call {i} raised") from answer
        assert answer is not None, f"call {i} did not answer within 30 s"
    return answers


@pytest.mark.both_databases
def test_two_decisions_at_once_one_wins(workbench: Workbench, flows: Workflows) -> None:
    wrun = flows.launch(flows.create([approval_node("gate", must_differ=False)], [])["id"])["id"]
    clients = [
        TestClient(workbench.client.app, headers=dict(workbench.client.headers)) for _ in "ab"
    ]
    url = workbench.url(f"workflow-runs/{wrun}/nodes/gate")
    answers = _at_once(
        [lambda: clients[0].post(f"{url}/approve"), lambda: clients[1].post(f"{url}/deny")]
    )
    assert sorted(a.status_code for a in answers) == [200, 409]
    done = flows.wait(wrun)
    winner = "approved" if answers[0].status_code == 200 else "denied"
    assert nodes(done)["gate"]["reason"].startswith(winner)
    assert done["status"] == ("successful" if winner == "approved" else "failed")
    audit = workbench.client.get(
        "/api/v1/audit", params={"object_type": "workflow_run", "object_id": wrun}
    ).json()["items"]
    assert sum(a["action"] in ("workflow:approve", "workflow:deny") for a in audit) == 1


def test_a_decision_after_the_timeout_is_refused(workbench: Workbench, flows: Workflows) -> None:
    wrun = flows.launch(flows.create([approval_node("gate", timeout=1)], [])["id"])["id"]
    done = flows.wait(wrun, timeout=20)
    assert done["status"] == "failed"
    late = flows.decide(wrun, "gate", "approve")
    assert_problem(late, 409, "not waiting")
    assert nodes(flows.read(wrun))["gate"]["decided_by"] == ""


@pytest.mark.both_databases
def test_cancel_racing_an_approval_launches_nothing_that_keeps_running(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    wf = flows.create(
        [
            approval_node("gate", must_differ=False),
            template_node("next", ok),
            template_node("last", ok),
        ],
        [edge("gate", "next"), edge("next", "last")],
    )
    client = workbench.client
    for _ in range(3):
        wrun = flows.launch(wf["id"])["id"]
        clients = [TestClient(client.app, headers=dict(client.headers)) for _ in "ab"]
        base = workbench.url(f"workflow-runs/{wrun}")
        answers = _at_once(
            [
                lambda c=clients[0], b=base: c.post(f"{b}/nodes/gate/approve"),
                lambda c=clients[1], b=base: c.post(f"{b}/cancel"),
            ]
        )
        assert answers[1].status_code == 200, answers[1].text
        assert answers[0].status_code in (200, 409), answers[0].text
        done = flows.wait(wrun, timeout=30)
        assert done["status"] == "canceled", done
        assert statuses(done)["last"] == "canceled"
        launched = [n["run_id"] for n in done["nodes"] if n["run_id"] is not None]
        assert len(launched) <= 1
        for run_id in launched:
            assert workbench.wait(run_id)["status"] in ("canceled", "successful")
        again = client.post(f"{base}/cancel")
        assert_problem(again, 409, "already ended")


@pytest.mark.both_databases
def test_two_cancels_at_once_cancel_once(workbench: Workbench, flows: Workflows, ok: int) -> None:
    slow = workbench.template("slow.yml", name="slow")
    wf = flows.create(
        [template_node("slow", slow), template_node("after", ok)], [edge("slow", "after")]
    )
    wrun = flows.launch(wf["id"])
    run_id = nodes(wrun)["slow"]["run_id"]
    client = workbench.client
    clients = [TestClient(client.app, headers=dict(client.headers)) for _ in "ab"]
    url = workbench.url(f"workflow-runs/{wrun['id']}/cancel")
    answers = _at_once([lambda: clients[0].post(url), lambda: clients[1].post(url)])
    # the second is answered 200 while the first stops the runs, 409 once it has ended them
    codes = sorted(a.status_code for a in answers)
    assert codes in ([200, 200], [200, 409]), [a.text for a in answers]
    if codes == [200, 409]:
        late = next(a for a in answers if a.status_code == 409)
        assert_problem(late, 409, "already ended")
    done = flows.wait(wrun["id"], timeout=30)
    assert statuses(done) == {"slow": "canceled", "after": "canceled"}
    assert workbench.run(run_id)["status"] == "canceled"
    audit = client.get(
        "/api/v1/audit", params={"object_type": "workflow_run", "object_id": wrun["id"]}
    ).json()["items"]
    assert sum(a["action"] == "workflow:cancel" for a in audit) == 1


def test_an_approval_is_told_only_to_its_own_projects_subscriptions_of_it(
    workbench: Workbench, flows: Workflows, ok: int
) -> None:
    """Project-wide subscriptions and those of a template the workflow run runs; never one of
    a template it does not run, nor another project's."""
    client = workbench.client
    project = workbench.project_id
    elsewhere = make_project(client, "elsewhere")
    unused = workbench.template("ok.yml", name="not-in-the-workflow")
    nowhere = "http://127.0.0.1:9/"  # never answers: what matters is what is queued
    mine = webhook_destination(client, project, nowhere, "s3cret", name="approvers")
    subscribe(client, project, destination_id=mine["id"], events=["approval_needed"])
    scoped = webhook_destination(client, project, nowhere, "s3cret", name="of-a-template")
    subscribe(
        client, project, destination_id=scoped["id"], events=["approval_needed"], template_id=ok
    )
    other = webhook_destination(client, project, nowhere, "s3cret", name="of-another")
    subscribe(
        client, project, destination_id=other["id"], events=["approval_needed"], template_id=unused
    )
    theirs = webhook_destination(client, elsewhere, nowhere, "s3cret", name="theirs")
    subscribe(client, elsewhere, destination_id=theirs["id"], events=["approval_needed"])

    wf = flows.create([approval_node("gate"), template_node("run", ok)], [edge("gate", "run")])
    wrun = flows.launch(wf["id"])  # the root approval waits from the launch's transaction

    for destination in (mine, scoped):
        queued = messages(client, project, destination["id"])
        assert [(m["event"], m["workflow_run_id"], m["node_key"]) for m in queued] == [
            ("approval_needed", wrun["id"], "gate")
        ]
    assert messages(client, project, other["id"]) == []  # a template the workflow never runs
    assert messages(client, elsewhere, theirs["id"]) == []


def test_the_mask_is_no_answer_where_no_secret_answer_is_saved(
    workbench: Workbench, flows: Workflows
) -> None:
    # a new node, or a node whose key changed, has no saved answer for '********' to keep
    survey = [{"variable": "pw", "label": "pw", "type": "password", "required": True}]
    guarded = workbench.template("ok.yml", name="guarded", survey=survey)
    url = f"{flows.base}/workflows"
    made = flows.api.post(
        url,
        json={
            "name": "w",
            "nodes": [template_node("a", guarded, survey={"pw": "********"})],
            "edges": [],
        },
    )
    assert_problem(made, 422, "nodes.0.launch.survey.pw")
    wf = flows.create([template_node("a", guarded, survey={"pw": "real"})], [])
    kept = flows.api.patch(
        f"{url}/{wf['id']}",
        json={"nodes": [template_node("a", guarded, survey={"pw": "********"})]},
    )
    assert kept.status_code == 200, kept.text
    renamed = flows.api.patch(
        f"{url}/{wf['id']}",
        json={"nodes": [template_node("b", guarded, survey={"pw": "********"})]},
    )
    assert_problem(renamed, 422, "nodes.0.launch.survey.pw")


# --- separation of duties: the launcher does not approve their own run ----------------------

TOUCH = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.file:
        path: "{{ marker }}"
        state: touch
"""
OWN = "the approval of node 'gate' needs someone other than {}, who launched this run"


@pytest.fixture
def shipped(workbench: Workbench, markers_dir: Path) -> tuple[int, Path]:
    """A template that touches a marker (its path written by the template's editor: trusted),
    and the marker: it exists once the node after the approval ran."""
    (workbench.repo_dir / "touch.yml").write_text(TOUCH)
    marker = markers_dir / "shipped"
    template = workbench.template("touch.yml", name="ship", extra_vars={"marker": str(marker)})
    return template, marker


def gated(flows: Workflows, template: int, first: dict[str, Any] | None = None) -> int:
    """The approval 'gate' (its option left to the default), then ``template`` on success;
    ``first``: a node before the gate."""
    made = [approval_node("gate", "ship it?"), template_node("ship", template)]
    edges = [edge("gate", "ship")]
    if first is not None:
        made.insert(0, first)
        edges.append(edge(first["key"], "gate"))
    workflow_id: int = flows.create(made, edges, name=f"gated-{len(made)}")["id"]
    return workflow_id


def test_the_launcher_approving_their_own_run_is_refused_by_every_credential(
    workbench: Workbench, flows: Workflows, shipped: tuple[int, Path]
) -> None:
    """alice launches with a token and tries her session, a run-scope token, a comment; the
    node stays waiting and nothing after it runs. CONTROL: bob, an operator as she is, makes
    the same call and the template after the gate writes its marker."""
    template, marker = shipped
    alice = member(workbench, "alice", "operator")
    bob = member(workbench, "bob", "operator")
    launched = alice.post(workbench.url(f"workflows/{gated(flows, template)}/launch"))
    assert launched.status_code == 201, launched.text
    wrun = launched.json()["id"]
    url = workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve")
    web, csrf = login(workbench.client, "alice")
    by_run_token = TestClient(
        workbench.client.app, headers=bearer(token(workbench.client, "alice", "run"))
    )
    for attempt in (
        alice.post(url),
        alice.post(url, json={"comment": "I checked it myself"}),
        web.post(url, headers={"X-CSRF-Token": csrf}),
        by_run_token.post(url),
    ):
        assert assert_problem(attempt, 403, "gate") == OWN.format("alice")
    assert nodes(flows.read(wrun))["gate"]["status"] == "waiting"
    assert nodes(flows.read(wrun))["ship"]["run_id"] is None
    assert not marker.exists()

    control = bob.post(url)  # the same call by another operator
    assert control.status_code == 200, control.text
    done = flows.wait(wrun)
    assert done["status"] == "successful", done
    assert marker.exists()


def test_an_admin_launcher_is_refused_and_may_deny(
    workbench: Workbench, flows: Workflows, shipped: tuple[int, Path]
) -> None:
    """Separation of duties binds global admins: one admin is one person. Denying (withdrawing)
    stays open to the launcher. CONTROL: an operator approves the admin's run."""
    template, marker = shipped
    workflow = gated(flows, template)
    wrun = flows.launch(workflow)["id"]
    assert assert_problem(flows.decide(wrun, "gate"), 403, "gate") == OWN.format("admin")
    assert nodes(flows.read(wrun))["gate"]["approval"]["can_approve"] is False
    withdrawn = flows.launch(workflow)["id"]
    assert flows.decide(withdrawn, "gate", "deny").status_code == 200
    assert flows.wait(withdrawn)["status"] == "failed"
    assert not marker.exists()

    operator = member(workbench, "operator", "operator")
    control = operator.post(workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve"))
    assert control.status_code == 200, control.text
    assert flows.wait(wrun)["status"] == "successful"
    assert marker.exists()


def test_the_launcher_is_refused_before_the_node_waits(
    workbench: Workbench, flows: Workflows, shipped: tuple[int, Path]
) -> None:
    """An approval posted while its node is still pending (a slow run before it) is refused by
    the rule, not let through to race the node's start: the rule never depends on the status.
    CONTROL: the same early call by another operator is only 'not waiting' (409)."""
    template, _marker = shipped
    slow = workbench.template("slow.yml", name="slow")
    alice = member(workbench, "alice", "operator")
    bob = member(workbench, "bob", "operator")
    launched = alice.post(
        workbench.url(f"workflows/{gated(flows, template, template_node('first', slow))}/launch")
    )
    wrun = launched.json()["id"]
    assert nodes(launched.json())["gate"]["status"] == "pending"
    url = workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve")
    assert assert_problem(alice.post(url), 403, "gate") == OWN.format("alice")
    assert_problem(bob.post(url), 409, "not waiting")
    workbench.client.post(workbench.url(f"workflow-runs/{wrun}/cancel"))
    flows.wait(wrun, timeout=30)


def test_a_manager_switching_the_option_off_does_not_free_a_run_under_way(
    workbench: Workbench, flows: Workflows, shipped: tuple[int, Path]
) -> None:
    """An operator may not switch the option off (workflow:write); a manager who launched a run
    and then switches it off is still refused on that run (it keeps the document it was
    launched with). CONTROL: a run launched after the change, which the manager may approve."""
    template, marker = shipped
    workflow = gated(flows, template)
    operator = member(workbench, "operator", "operator")
    manager = member(workbench, "manager", "manager")
    url = workbench.url(f"workflows/{workflow}")
    off = [approval_node("gate", "ship it?", must_differ=False), template_node("ship", template)]
    assert_problem(operator.patch(url, json={"nodes": off}), 403, "workflow:write")
    wrun = manager.post(f"{url}/launch").json()["id"]
    switched = manager.patch(url, json={"nodes": off})
    assert switched.status_code == 200, switched.text
    approve = workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve")
    assert assert_problem(manager.post(approve), 403, "gate") == OWN.format("manager")
    assert not marker.exists()
    changed = workbench.client.get(
        "/api/v1/audit", params={"action": "workflow:update", "object_id": workflow}
    ).json()["items"]
    # switching it off is on the record, by whom
    assert changed[0]["actor"] == "manager (token manager-write)"
    assert "'approver_must_differ': False" in str(changed[0]["changes"])

    later = manager.post(f"{url}/launch").json()["id"]
    control = manager.post(workbench.url(f"workflow-runs/{later}/nodes/gate/approve"))
    assert control.status_code == 200, control.text
    assert flows.wait(later)["status"] == "successful"
    assert marker.exists()


def test_a_schedules_owner_may_not_approve_the_runs_it_fires(
    workbench: Workbench,
    flows: Workflows,
    shipped: tuple[int, Path],
    settings: Settings,
    database_url: str,
) -> None:
    """The launcher of a schedule-fired run is the schedule's owner, who may not approve it by
    having the schedule launch instead of them. CONTROL: another operator approves it."""
    template, marker = shipped
    manager = member(workbench, "manager", "manager")
    body = {
        "name": "nightly",
        "kind": "cron",
        "expression": YEARLY,
        "workflow_id": gated(flows, template),
    }
    made = manager.post(workbench.url("schedules"), json=body)
    assert made.status_code == 201, made.text
    make_due(database_url, made.json()["id"])
    wrun = wait_until(
        lambda: manager.get(workbench.url(f"schedules/{made.json()['id']}")).json()[
            "last_workflow_run_id"
        ],
        timeout=20,
        what="the schedule fired",
    )
    read = flows.wait(wrun, until=lambda w: nodes(w)["gate"]["status"] == "waiting")
    assert (read["launch_type"], read["launched_by"]) == ("schedule", "manager")
    url = workbench.url(f"workflow-runs/{wrun}/nodes/gate/approve")
    assert assert_problem(manager.post(url), 403, "gate") == OWN.format("manager")
    assert not marker.exists()
    operator = member(workbench, "operator", "operator")
    assert operator.post(url).status_code == 200
    assert flows.wait(wrun)["status"] == "successful"
    assert marker.exists()
