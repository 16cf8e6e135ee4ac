"""Runs compared side by side (``GET …/runs/compare?ids=``) with real ansible-playbook runs:
tasks aligned by play, role, name and occurrence (a repeated name aligns with its own
occurrence), a task a run did not reach shown as missing, deltas against the first run, the
parameters' differences and the per-host recaps; a template's stats over the same runs.

The runs are made once for the module (``module_client``): the tests only read them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import Workbench

PLAYBOOK = """- hosts: all
  gather_facts: false
  tasks:
    - name: step
      ansible.builtin.command: "sleep {{ nap | default(0) }}"
      changed_when: false
    - name: step
      ansible.builtin.debug: {msg: "the second step"}
    - name: stop early
      ansible.builtin.meta: end_play
      when: stop | default(false) | bool
    - name: last
      ansible.builtin.debug: {msg: "last"}
"""


def _runs(workbench: Workbench, *launches: dict[str, Any]) -> tuple[int, list[int]]:
    (workbench.repo_dir / "compare.yml").write_text(PLAYBOOK)
    template = workbench.template("compare.yml", overridable=["extra_vars"])
    ids = []
    for extra in launches:
        run = workbench.launch(template, extra_vars=extra)
        assert workbench.wait(run["id"])["status"] == "successful"
        ids.append(run["id"])
    return template, ids


@dataclass
class World:
    workbench: Workbench
    template: int  # compare.yml
    ids: list[int]  # its runs: naps of 0 s and 3 s, then 0 s stopping early
    other: int  # a run of another template (ok.yml)


@pytest.fixture(scope="module")
def world(module_client: TestClient) -> World:
    # beside the shared app's data directory: a local repository root of its settings
    runtime = module_client.app.state.runtime  # type: ignore[attr-defined]
    workbench = Workbench(module_client, runtime.settings.data_dir.parent / "compare")
    template, ids = _runs(workbench, {"nap": 0}, {"nap": 3}, {"nap": 0, "stop": True})
    other = workbench.launch(workbench.template("ok.yml"))["id"]
    assert workbench.wait(other)["status"] == "successful"
    return World(workbench, template, ids, other)


def _compare(workbench: Workbench, ids: list[int]) -> dict[str, Any]:
    response = workbench.client.get(
        workbench.url("runs/compare"), params={"ids": ",".join(map(str, ids))}
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_tasks_align_by_occurrence_with_deltas_and_missing_tasks(world: World) -> None:
    ids = world.ids
    body = _compare(world.workbench, ids)

    assert [r["id"] for r in body["runs"]] == ids
    assert body["same_template"] is True
    names = [(t["task"], t["occurrence"]) for t in body["tasks"]]
    assert names == [("step", 1), ("step", 2), ("stop early", 1), ("last", 1)]
    first, second, _, last = body["tasks"]
    # the nap is in the first "step" only: 3 s more in the second run (less what a loaded
    # machine adds to the baseline's step), the other step not
    assert first["delta_seconds"][0] == 0
    assert first["delta_seconds"][1] >= 1.5
    base, slower = first["cells"][0]["seconds"], first["cells"][1]["seconds"]
    assert first["delta_seconds"][1] == round(slower - base, 3)
    assert first["delta_percent"][1] == round((slower - base) / base * 100, 1)
    assert second["delta_seconds"][1] < first["delta_seconds"][1]
    # the third run ended its play early: "last" is missing there, and has no delta
    assert last["cells"][2] is None
    assert last["delta_seconds"][2] is None
    cell = first["cells"][1]
    assert cell["hosts"] == 1
    assert cell["failed"] == 0
    assert cell["status"] == "ok"
    assert 0 <= cell["start"] <= cell["end"]
    assert cell["seconds"] >= 2.9
    assert body["durations"][1] > body["durations"][0]

    parameters = {p["name"]: p for p in body["parameters"]}
    assert parameters["vars.nap"]["values"] == ["0", "3", "0"]
    assert parameters["vars.nap"]["differs"] is True
    assert parameters["vars.stop"]["values"] == ["(not set)", "(not set)", "true"]
    assert parameters["Inventory"] == {
        "name": "Inventory",
        "values": ["localhost"] * 3,
        "differs": False,
    }
    assert parameters["Template"]["values"] == ["compare"] * 3
    assert parameters["Launched by"]["values"] == ["admin"] * 3
    assert parameters["Repository"]["values"][0].startswith("local")

    assert [h["host"] for h in body["hosts"]] == ["localhost"]
    recaps = body["hosts"][0]["recaps"]
    assert [r["ok"] for r in recaps] == [3, 3, 2]  # the skipped meta task is not "ok"
    assert body["hosts"][0]["differs"] is True


def test_runs_of_two_templates_are_compared_and_flagged(world: World) -> None:
    body = _compare(world.workbench, [world.ids[0], world.other])
    assert body["same_template"] is False
    template = next(p for p in body["parameters"] if p["name"] == "Template")
    assert template == {"name": "Template", "values": ["compare", "ok"], "differs": True}
    # no task in common: every row has one side missing
    assert all(None in t["cells"] for t in body["tasks"])
    assert {t["task"] for t in body["tasks"]} >= {"step", "greet", "touch nothing"}


def test_a_template_page_stats_follow_its_last_runs(world: World) -> None:
    workbench, ids = world.workbench, world.ids
    response = workbench.client.get(
        workbench.url(f"templates/{world.template}/stats"), params={"last": 2}
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["last"] == 2
    assert [r["id"] for r in body["runs"]] == ids[1:]  # the last two, oldest first
    assert all(r["status"] == "successful" and r["seconds"] > 0 for r in body["runs"])
    assert body["success_last"] == {
        "finished": 2,
        "judged": 2,
        "successful": 2,
        "rate": 1.0,
        "by_status": {"successful": 2},
    }
    assert body["success_30_days"]["finished"] == 3  # its runs only, not the other template's
    assert body["trend_run_ids"] == ids[1:]
    slowest = body["slowest_tasks"][0]
    assert (slowest["task"], slowest["occurrence"]) == ("step", 1)
    assert slowest["seconds"][0] >= 2.8
    assert slowest["seconds"][1] < slowest["seconds"][0] - 1.5
    # step twice, stop early (skipped), last (in the run of 3 s only: the other stopped early)
    assert len(body["slowest_tasks"]) == 4
    last = next(t for t in body["slowest_tasks"] if t["task"] == "last")
    assert last["seconds"][0] is not None
    assert last["seconds"][1] is None
