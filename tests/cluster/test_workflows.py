"""A workflow in cluster mode: node runs execute on a worker, two servers tick the workflows on
one PostgreSQL; each node is launched once, a join after both its parents, an approval decided
through the other server."""

from __future__ import annotations

from collections import Counter

import pytest
from support.workflows import Workflows, approval_node, edge, node_waiting, template_node

from cluster.harness import Cluster, Project

# the cluster tests stop and restart their PostgreSQL and Redis, SIGKILL workers and measure
# leases: one after another on one worker (xdist's loadgroup), the other runs the rest meanwhile
pytestmark = pytest.mark.xdist_group("cluster")


def test_two_servers_advance_a_workflow_run_by_a_worker_once(cluster: Cluster) -> None:
    cluster.settings["workflow_tick_seconds"] = "0.1"
    first, second = cluster.server("api-1"), cluster.server("api-2")
    cluster.worker("w-default", queues="default")
    api, other = first.api(), second.api()
    project = Project.make(api, cluster.root)
    ok = project.template("ok.yml", name="ok")
    flows = Workflows(api, project.ids["project"], prefix="")
    wf = flows.create(
        [
            template_node("a", ok),
            template_node("b", ok),
            template_node("c", ok),
            template_node("join", ok),
            approval_node("gate", must_differ=False),  # the admin launches and decides
            template_node("last", ok),
        ],
        [
            edge("a", "b"),
            edge("a", "c"),
            edge("b", "join"),
            edge("c", "join"),
            edge("join", "gate"),
            edge("gate", "last"),
        ],
    )
    wrun = flows.launch(wf["id"])["id"]
    flows.wait(wrun, until=node_waiting("gate"), timeout=90)
    decided = other.post(f"{project.base}/workflow-runs/{wrun}/nodes/gate/approve")
    assert decided.status_code == 200, decided.text
    done = flows.wait(wrun, timeout=90)
    assert done["status"] == "successful", done

    rows = cluster.sql(
        "select template_id, started_at, finished_at, worker_id from runs"
        " where workflow_run_id = :id order by id",
        id=wrun,
    )
    assert len(rows) == 5  # a, b, c, join, last: each once
    assert Counter(r.template_id for r in rows) == Counter({ok: 5})
    assert all(r.worker_id for r in rows)  # executed by the worker, not a server
    by_node = {n["key"]: n for n in done["nodes"]}
    runs = {n["run_id"]: project.run(n["run_id"]) for n in by_node.values() if n["run_id"]}
    join = runs[by_node["join"]["run_id"]]
    for parent in ("b", "c"):
        assert join["created_at"] >= runs[by_node[parent]["run_id"]]["finished_at"]
    api.close()
    other.close()
