"""The embedded dispatcher: parallel runs of one template, per-project limit, queued cancel."""

from __future__ import annotations

import pytest
from support.builders import Workbench

pytestmark = pytest.mark.sqlite_only  # dispatching, not the database


def _limit(workbench: Workbench, value: int) -> None:
    response = workbench.client.patch(
        f"/api/v1/projects/{workbench.project_id}", json={"max_parallel_runs": value}
    )
    assert response.status_code == 200, response.text


def test_runs_of_one_template_run_in_parallel(workbench: Workbench) -> None:
    _limit(workbench, 2)
    template = workbench.template("slow.yml", timeout_seconds=4)
    first, second = workbench.launch(template), workbench.launch(template)
    both = workbench.wait(
        second["id"],
        until=lambda r: (
            r["status"] == "running" and workbench.run(first["id"])["status"] == "running"
        ),
        timeout=30,
    )
    assert both["status"] == "running"
    assert workbench.wait(first["id"])["status"] == "timed_out"
    assert workbench.wait(second["id"])["status"] == "timed_out"


def test_project_limit_keeps_extra_runs_queued_until_a_slot_frees(workbench: Workbench) -> None:
    _limit(workbench, 1)
    slow = workbench.template("slow.yml", timeout_seconds=3)
    first = workbench.launch(slow)
    second = workbench.launch(workbench.template("ok.yml"))
    workbench.wait(first["id"], until=lambda r: r["status"] == "running", timeout=30)
    assert workbench.run(second["id"])["status"] == "queued"
    done_first = workbench.wait(first["id"])
    done_second = workbench.wait(second["id"])
    assert done_first["status"] == "timed_out"
    assert done_second["status"] == "successful"
    assert done_second["started_at"] >= done_first["finished_at"]


def test_cancel_of_a_queued_run_never_starts_it(workbench: Workbench) -> None:
    _limit(workbench, 1)
    blocker = workbench.launch(workbench.template("slow.yml", timeout_seconds=3))
    waiting = workbench.launch(workbench.template("ok.yml"))
    workbench.wait(blocker["id"], until=lambda r: r["status"] == "running", timeout=30)
    canceled = workbench.client.post(workbench.url(f"runs/{waiting['id']}/cancel"))
    assert canceled.status_code == 202
    assert canceled.json()["status"] == "canceled"
    workbench.wait(blocker["id"])
    final = workbench.run(waiting["id"])
    assert final["status"] == "canceled"
    assert final["started_at"] is None
    assert final["line_count"] == 0
