"""The workflow document as a graph: its checks on save, and which nodes a pass starts or skips.

Pure functions on keys and statuses, no database: the service checks a document with ``check``,
the progress pass (``workflows.progress``) asks ``next_steps`` and ``outcome`` what follows.

Convergence is AWX's "any": a node with several parents is decided once every parent has
finished; it runs when at least one edge into it fired (its parent ended with the edge's
outcome), else it is skipped. A skipped or canceled node fires no edge.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from steward.errors import InvalidInput
from steward.workflows.models import EdgeOn, NodeKind, NodeStatus


@dataclasses.dataclass(frozen=True)
class Edge:
    source: str
    target: str
    on: EdgeOn


def check(nodes: Sequence[Mapping[str, object]], edges: Sequence[Edge]) -> None:
    """A 422 naming the field: keys unique, each node's fields fit its kind, edges between
    existing nodes, no self edge, no second edge between the same two nodes, no cycle, each
    apply node after its own plan node (``_check_applies``)."""
    seen: dict[str, int] = {}
    for i, node in enumerate(nodes):
        key = str(node["key"])
        if key in seen:
            raise InvalidInput(f"nodes.{i}.key", f"'{key}' is already the key of nodes.{seen[key]}")
        seen[key] = i
        _check_kind(i, node)
    pairs: dict[tuple[str, str], int] = {}
    for j, edge in enumerate(edges):
        for end, key in (("from", edge.source), ("to", edge.target)):
            if key not in seen:
                raise InvalidInput(f"edges.{j}.{end}", f"no node has the key '{key}'")
        if edge.source == edge.target:
            raise InvalidInput(
                f"edges.{j}.to", f"an edge may not lead from '{edge.source}' to itself"
            )
        pair = (edge.source, edge.target)
        if pair in pairs:
            raise InvalidInput(
                f"edges.{j}", f"edges.{pairs[pair]} already leads from '{pair[0]}' to '{pair[1]}'"
            )
        pairs[pair] = j
    cycle = find_cycle(list(seen), edges)
    if cycle is not None:
        j, path = cycle
        raise InvalidInput(f"edges.{j}", f"makes a cycle: {' -> '.join(path)}")
    _check_applies(nodes, edges)


def _check_kind(i: int, node: Mapping[str, object]) -> None:
    kind = NodeKind(str(node["kind"]))
    if kind.launches:
        if node.get("template_id") is None:
            raise InvalidInput(f"nodes.{i}.template_id", f"a {kind} node needs a template_id")
        if node.get("timeout_seconds") is not None:
            raise InvalidInput(
                f"nodes.{i}.timeout_seconds",
                "only approval nodes wait for a decision (a run's own timeout is"
                " launch.timeout_seconds)",
            )
        if node.get("approver_must_differ") is not None:
            raise InvalidInput(
                f"nodes.{i}.approver_must_differ", "only approval nodes are decided by someone"
            )
        if node.get("plan_node") is not None:
            raise InvalidInput(f"nodes.{i}.plan_node", "only apply nodes apply a plan node's plan")
        return
    for field in ("template_id", "launch"):
        if node.get(field) is not None:
            runs = (
                "applies its plan node's template" if kind is NodeKind.APPLY else "runs no template"
            )
            raise InvalidInput(f"nodes.{i}.{field}", f"an {kind} node {runs}")
    if kind is NodeKind.APPLY:
        for field in ("timeout_seconds", "approver_must_differ"):
            if node.get(field) is not None:
                raise InvalidInput(
                    f"nodes.{i}.{field}",
                    "only approval nodes are decided by someone (an apply node waits for its"
                    " plan's approval when the template asks for one)",
                )
        if not node.get("plan_node"):
            raise InvalidInput(
                f"nodes.{i}.plan_node", "an apply node needs the key of the plan node it applies"
            )
        return
    if node.get("plan_node") is not None:
        raise InvalidInput(f"nodes.{i}.plan_node", "only apply nodes apply a plan node's plan")
    if not node.get("name"):
        raise InvalidInput(f"nodes.{i}.name", "an approval node needs a name (what is asked)")


def _check_applies(nodes: Sequence[Mapping[str, object]], edges: Sequence[Edge]) -> None:
    """Each apply node names a plan node of this document that precedes it on every path
    (removing the plan node leaves the apply node unreachable from every root), and no two
    apply nodes apply the same plan."""
    index = {str(node["key"]): i for i, node in enumerate(nodes)}
    applied: dict[str, int] = {}
    for i, node in enumerate(nodes):
        if node["kind"] != NodeKind.APPLY:
            continue
        key, planned = str(node["key"]), str(node["plan_node"])
        field = f"nodes.{i}.plan_node"
        j = index.get(planned)
        if j is None:
            raise InvalidInput(field, f"no node has the key '{planned}'")
        if nodes[j]["kind"] != NodeKind.PLAN:
            raise InvalidInput(field, f"'{planned}' is a {nodes[j]['kind']} node, not a plan node")
        if planned in applied:
            raise InvalidInput(
                field, f"nodes.{applied[planned]} applies the plan of '{planned}' already"
            )
        applied[planned] = i
        if _reachable_without(key, planned, list(index), edges):
            raise InvalidInput(
                field,
                f"'{key}' can be reached without passing its plan node '{planned}': the plan"
                " node must precede it on every path",
            )


def _reachable_without(
    target: str, avoided: str, keys: Sequence[str], edges: Sequence[Edge]
) -> bool:
    """Whether ``target`` is reached from a root on a path that does not pass ``avoided``."""
    out: dict[str, list[str]] = {key: [] for key in keys}
    entered = set()
    for edge in edges:
        out[edge.source].append(edge.target)
        entered.add(edge.target)
    seen = {key for key in keys if key not in entered and key != avoided}
    todo = list(seen)
    while todo:
        for child in out[todo.pop()]:
            if child != avoided and child not in seen:
                seen.add(child)
                todo.append(child)
    return target in seen


def find_cycle(keys: Sequence[str], edges: Sequence[Edge]) -> tuple[int, list[str]] | None:
    """(index of an edge closing a cycle, the cycle's keys) or None; iterative DFS."""
    out: dict[str, list[tuple[int, str]]] = {key: [] for key in keys}
    for j, edge in enumerate(edges):
        out[edge.source].append((j, edge.target))
    state: dict[str, int] = dict.fromkeys(keys, 0)  # 0 new, 1 on the path, 2 done
    for root in keys:
        if state[root]:
            continue
        path = [root]
        stack = [iter(out[root])]
        state[root] = 1
        while stack:
            step = next(stack[-1], None)
            if step is None:
                stack.pop()
                state[path.pop()] = 2
                continue
            j, child = step
            if state[child] == 1:
                return j, [*path[path.index(child) :], child]
            if state[child] == 0:
                state[child] = 1
                path.append(child)
                stack.append(iter(out[child]))
    return None


def layers(keys: Sequence[str], edges: Sequence[Edge]) -> list[list[str]]:
    """Keys by depth (longest path from a root), for a drawing; keys in document order."""
    depth = dict.fromkeys(keys, 0)
    for _ in range(len(keys)):
        changed = False
        for edge in edges:
            if depth[edge.target] < depth[edge.source] + 1:
                depth[edge.target] = depth[edge.source] + 1
                changed = True
        if not changed:
            break
    rows: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for key in keys:
        rows[depth[key]].append(key)
    return rows


def fires(status: NodeStatus, on: EdgeOn) -> bool:
    """Whether an edge ``on`` from a node that ended ``status`` fires."""
    if status is NodeStatus.SUCCESSFUL:
        return on in (EdgeOn.SUCCESS, EdgeOn.ALWAYS)
    if status is NodeStatus.FAILED:
        return on in (EdgeOn.FAILURE, EdgeOn.ALWAYS)
    return False  # skipped, canceled: nothing follows


def next_steps(
    statuses: Mapping[str, NodeStatus], edges: Sequence[Edge]
) -> tuple[list[str], list[str]]:
    """(keys to start, keys to skip) among the pending nodes, given every node's status; the
    skips cascade (a node whose parents are all decided and skipped is skipped too). Keys in
    the order of ``statuses``."""
    parents: dict[str, list[Edge]] = {key: [] for key in statuses}
    for edge in edges:
        parents[edge.target].append(edge)
    now = dict(statuses)
    start: list[str] = []
    skip: list[str] = []
    changed = True
    while changed:
        changed = False
        for key, status in now.items():
            if status is not NodeStatus.PENDING or key in start:
                continue
            incoming = parents[key]
            if not incoming:
                start.append(key)
                continue
            if not all(now[e.source].is_finished for e in incoming):
                continue
            if any(fires(now[e.source], e.on) for e in incoming):
                start.append(key)
            else:
                now[key] = NodeStatus.SKIPPED
                skip.append(key)
                changed = True
    return start, skip


def unhandled_failures(statuses: Mapping[str, NodeStatus], edges: Sequence[Edge]) -> list[str]:
    """The failed nodes with no failure or always edge out of them: they fail the workflow."""
    handled = {e.source for e in edges if e.on in (EdgeOn.FAILURE, EdgeOn.ALWAYS)}
    return [k for k, s in statuses.items() if s is NodeStatus.FAILED and k not in handled]
