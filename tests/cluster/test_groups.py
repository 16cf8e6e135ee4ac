"""Runner groups with real workers: a run waits, saying why, until a worker of its group runs it."""

from __future__ import annotations

import pytest
from support.builders import post

from cluster.harness import Cluster, Project

# the cluster tests stop and restart their PostgreSQL and Redis, SIGKILL workers and measure
# leases: one after another on one worker (xdist's loadgroup), the other runs the rest meanwhile
pytestmark = pytest.mark.xdist_group("cluster")


def test_a_run_waits_for_a_worker_of_its_group_and_says_why(cluster: Cluster) -> None:
    server = cluster.server("api")
    api = server.api()
    project = Project.make(api, cluster.root)
    dmz = post(api, "/runner-groups", {"name": "dmz", "description": "behind the firewall"})
    in_dmz = project.template("ok.yml", name="in-dmz", runner_group_id=dmz["id"])
    anywhere = project.template("ok.yml", name="anywhere")

    waiting = project.launch(in_dmz)
    first = project.run(waiting)
    assert first["runner_group"] == "dmz"
    assert first["waiting_reason"] == "no worker of runner group 'dmz' is online"

    cluster.worker("w-default", queues="default")
    assert project.wait(project.launch(anywhere))["status"] == "successful"
    # a worker of another group changes nothing for it
    assert project.run(waiting)["status"] == "queued"
    assert project.run(waiting)["waiting_reason"] == "no worker of runner group 'dmz' is online"

    dmz_worker = cluster.worker("w-dmz", queues="dmz")
    done = project.wait(waiting)
    assert done["status"] == "successful", done
    assert done["waiting_reason"] is None
    (worker_id,) = cluster.sql("select worker_id from runs where id = :id", id=waiting)[0]
    assert f":{dmz_worker.pid}:" in worker_id
    workers = api.get("/workers").json()
    assert sorted((w["queues"], w["online"], w["concurrency"]) for w in workers) == [
        (["default"], True, 2),
        (["dmz"], True, 2),
    ]
    groups = api.get("/runner-groups").json()["items"]
    assert [(g["name"], g["workers_online"], g["slots_online"]) for g in groups] == [("dmz", 1, 2)]
    api.close()
