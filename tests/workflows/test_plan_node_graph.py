"""The graph rules of plan and apply nodes (``workflows.graph.check``), below HTTP: an apply
node names a plan node of the same document that precedes it on every path."""

from __future__ import annotations

from typing import Any

import pytest

from steward.errors import InvalidInput
from steward.workflows import graph
from steward.workflows.models import EdgeOn


def plan(key: str) -> dict[str, Any]:
    return {"key": key, "kind": "plan", "template_id": 1}


def apply(key: str, plan_node: str | None) -> dict[str, Any]:
    node: dict[str, Any] = {"key": key, "kind": "apply"}
    if plan_node is not None:
        node["plan_node"] = plan_node
    return node


def approval(key: str) -> dict[str, Any]:
    return {"key": key, "kind": "approval", "name": "go?"}


def template(key: str) -> dict[str, Any]:
    return {"key": key, "kind": "template", "template_id": 2}


def link(source: str, target: str, on: EdgeOn = EdgeOn.SUCCESS) -> graph.Edge:
    return graph.Edge(source, target, on)


def refused(nodes: list[dict[str, Any]], edges: list[graph.Edge]) -> InvalidInput:
    with pytest.raises(InvalidInput) as caught:
        graph.check(nodes, edges)
    return caught.value


def test_plan_approval_apply_is_a_valid_graph() -> None:
    graph.check(
        [plan("plan"), approval("ok"), apply("apply", "plan"), template("after")],
        [link("plan", "ok"), link("ok", "apply"), link("apply", "after", EdgeOn.FAILURE)],
    )
    graph.check([plan("plan"), apply("apply", "plan")], [link("plan", "apply", EdgeOn.ALWAYS)])


def test_an_apply_node_without_its_plan_node_is_refused_naming_the_field() -> None:
    error = refused([plan("plan"), apply("apply", None)], [link("plan", "apply")])
    assert (error.field, error.reason) == (
        "nodes.1.plan_node",
        "an apply node needs the key of the plan node it applies",
    )
    error = refused([plan("plan"), apply("apply", "elsewhere")], [link("plan", "apply")])
    assert error.field == "nodes.1.plan_node"
    assert error.reason == "no node has the key 'elsewhere'"


@pytest.mark.parametrize("other", [template("t"), approval("t")])
def test_a_plan_node_of_the_wrong_kind_is_refused(other: dict[str, Any]) -> None:
    error = refused([other, apply("apply", "t")], [link("t", "apply")])
    assert error.field == "nodes.1.plan_node"
    assert error.reason == f"'t' is a {other['kind']} node, not a plan node"


def test_a_plan_node_after_its_apply_or_beside_it_is_refused() -> None:
    error = refused([apply("apply", "plan"), plan("plan")], [link("apply", "plan")])
    assert error.field == "nodes.0.plan_node"
    assert "can be reached without passing its plan node 'plan'" in error.reason
    # unconnected: the apply node is a root of its own
    assert refused([plan("plan"), apply("apply", "plan")], []).field == "nodes.1.plan_node"
    # a second way in that does not pass the plan node ("any" convergence would run it)
    error = refused(
        [plan("plan"), template("side"), apply("apply", "plan")],
        [link("plan", "apply"), link("side", "apply")],
    )
    assert (error.field, "'apply' can be reached without" in error.reason) == (
        "nodes.2.plan_node",
        True,
    )
    # the control: the side branch leading through the plan node is fine
    graph.check(
        [template("side"), plan("plan"), apply("apply", "plan")],
        [link("side", "plan"), link("plan", "apply")],
    )


def test_two_apply_nodes_of_one_plan_and_misplaced_fields_are_refused() -> None:
    error = refused(
        [plan("plan"), apply("a", "plan"), apply("b", "plan")],
        [link("plan", "a"), link("plan", "b")],
    )
    assert (error.field, error.reason) == (
        "nodes.2.plan_node",
        "nodes.1 applies the plan of 'plan' already",
    )
    fields = [
        ([plan("p"), {**apply("a", "p"), "template_id": 3}], "nodes.1.template_id"),
        ([plan("p"), {**apply("a", "p"), "launch": {}}], "nodes.1.launch"),
        ([plan("p"), {**apply("a", "p"), "timeout_seconds": 5}], "nodes.1.timeout_seconds"),
        ([{**plan("p"), "plan_node": "p"}, apply("a", "p")], "nodes.0.plan_node"),
        ([plan("p"), {**approval("x"), "plan_node": "p"}], "nodes.1.plan_node"),
        ([{"key": "p", "kind": "plan"}], "nodes.0.template_id"),
    ]
    for nodes, field in fields:
        assert (
            refused(nodes, [link(nodes[0]["key"], nodes[1]["key"])] if len(nodes) > 1 else []).field
            == field
        )
