"""The hosts routes' wiring, on two real runs: the recorder keeps the host as the first run's
recap arrives, and its facts; each route reads them back; the second run gathers nothing and
sees them through the fact cache (the rules: test_service.py, test_facts.py)."""

from __future__ import annotations

import platform
from pathlib import Path
from typing import Any

import pytest
from support.builders import Workbench, assert_problem, make_user, token

pytestmark = pytest.mark.sqlite_only  # the SQL is tested on both databases below HTTP


def test_a_real_run_is_on_its_hosts_page_and_its_facts_the_next_runs_cache(
    workbench: Workbench, tmp_path: Path
) -> None:
    target = tmp_path / "made-by-the-run"
    template = workbench.template("facts.yml", extra_vars={"target_file": str(target)})
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful", run
    client = workbench.client

    listed = client.get(workbench.url("hosts"), params={"q": "local"}).json()
    assert listed["total"] == 1
    host = listed["items"][0]
    assert (host["name"], host["inventories"], host["runs"]) == ("localhost", ["localhost"], 1)
    assert (host["last_run_id"], host["last_outcome"]) == (run["id"], "changed")

    read = client.get(workbench.url("hosts/localhost")).json()
    assert [i["inventory"] for i in read["inventories"]] == ["localhost"]

    runs = client.get(workbench.url("hosts/localhost/runs")).json()
    assert [(r["run_id"], r["outcome"], r["changed"]) for r in runs["items"]] == [
        (run["id"], "changed", 1)
    ]
    exported = client.get(workbench.url("hosts/localhost/runs.csv"))
    assert exported.headers["content-type"].startswith("text/csv")
    assert exported.text.splitlines()[1].startswith(f"{run['id']},facts,successful,changed,admin")

    changes = client.get(workbench.url("hosts/localhost/changes")).json()
    assert [c["task"] for c in changes["items"]] == ["would create a file"]

    everywhere = client.get("/api/v1/hosts", params={"q": "localhost"}).json()
    assert [(h["project_id"], h["name"]) for h in everywhere["items"]] == [
        (workbench.project_id, "localhost")
    ]
    assert_problem(client.get(workbench.url("hosts"), params={"limit": 0}), 422, "limit")
    metrics = client.get(workbench.url("hosts/localhost/metrics"), params={"limit": 5}).json()
    assert metrics == {"host": "localhost", "runs": [], "more": False}  # no pmproxy: no lane
    assert_problem(client.get(workbench.url("hosts/localhost/metrics"), params={"limit": 0}),
                   422, "limit")  # fmt: skip
    assert_problem(client.get(workbench.url("hosts/nowhere")), 404, "")
    _facts_are_the_next_runs_fact_cache(workbench, run)


def test_every_projects_hosts_are_for_admins(workbench: Workbench) -> None:
    make_user(workbench.client, "someone")
    secret = token(workbench.client, "someone")
    refused = workbench.client.get("/api/v1/hosts", headers={"Authorization": f"Bearer {secret}"})
    assert refused.status_code == 403
    assert "admin" in refused.json()["detail"]
    health = workbench.client.get("/api/v1/hosts/health", params={"failing": "false"})
    assert health.status_code == 200
    assert {"hosts", "checked", "unreachable", "items"} <= health.json().keys()
    not_theirs = workbench.client.get(
        "/api/v1/hosts/health", headers={"Authorization": f"Bearer {secret}"}
    )
    assert not_theirs.status_code == 403


def _facts_are_the_next_runs_fact_cache(workbench: Workbench, gathering: dict[str, Any]) -> None:
    client = workbench.client
    cached = workbench.template("facts_cached.yml", use_fact_cache=True)
    assert client.get(workbench.url(f"templates/{cached}")).json()["use_fact_cache"] is True
    second = workbench.wait(workbench.launch(cached)["id"])
    assert second["status"] == "successful", second
    kernel = platform.release()
    assert any(
        f"cached kernel={kernel} stage=gathered" in line for line in workbench.lines(second["id"])
    ), workbench.lines(second["id"])

    facts = client.get(workbench.url("hosts/localhost/facts")).json()
    assert (facts["facts"]["ansible_kernel"], facts["run_id"]) == (kernel, second["id"])
    assert facts["facts"]["steward_stage"] == "cached"  # the second run's set_fact, stored back
    assert "ansible_env" not in facts["facts"]  # the job's environment is not a fact

    history = client.get(workbench.url("hosts/localhost/facts/history")).json()
    assert [(p["run_id"], p["first"]) for p in history["items"]] == [
        (second["id"], False),
        (gathering["id"], True),
    ]
    assert history["items"][0]["summary"] == "1 other fact"
    newer, older = (p["id"] for p in history["items"])
    at = client.get(workbench.url("hosts/localhost/facts"), params={"point": older}).json()
    assert at["facts"]["steward_stage"] == "gathered"

    diff = client.get(
        workbench.url("hosts/localhost/facts/diff"), params={"from": older, "to": newer}
    ).json()
    assert [(c["path"], c["old"], c["new"]) for c in diff["changed"]] == [
        ("steward_stage", "gathered", "cached")
    ]
    refused = client.get(
        workbench.url("hosts/localhost/facts/diff"), params={"from": older, "to": newer + 1000}
    )
    assert_problem(refused, 422, "to")
    assert_problem(client.get(workbench.url("hosts/nowhere/facts")), 404, "")
