"""`steward plan` then `steward apply` against a real server: a plan longer than the plan read's
first results is printed whole (paged), and its apply is launched from its id."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from support.builders import post
from support.waits import wait_until

from cli.site import Site, Steward
from steward.cli.exits import Exit

pytestmark = [pytest.mark.sqlite_only, pytest.mark.xdist_group("cli-server")]

HOSTS = 130  # results beyond the plan read's first 100 (a task's hosts page is 200)
# a change on each host, reported on the controller (no module to run): cheap in both modes
MANY = """- hosts: all
  gather_facts: false
  tasks:
    - name: touch each
      ansible.builtin.debug:
        msg: touched
      changed_when: true
"""
INVENTORY = "".join(f"h{i:03} ansible_connection=local\n" for i in range(HOSTS))


def test_a_long_plan_is_printed_whole_then_applied_by_its_id(
    site: Site, steward_in: Steward
) -> None:
    base = f"/projects/{site.project}"
    repository = site.api.get(f"{base}/repositories").json()["items"][0]
    hosts = {"name": "many", "kind": "static", "format": "ini", "content": INVENTORY}
    inventory = post(site.api, f"{base}/inventories", hosts)
    (Path(repository["url"]) / "many.yml").write_text(MANY)
    body = {"name": "many", "playbook": "many.yml", "plans_allowed": True, "forks": 20,
            "repository_id": repository["id"], "inventory_id": inventory["id"]}  # fmt: skip
    post(site.api, f"{base}/templates", body)

    planned = steward_in("plan", "ops/many")
    assert planned.code == Exit.OK, planned.err
    lines = planned.out.splitlines()
    assert lines[0] == f"{HOSTS} hosts change, 1 task, 0 unknown", planned.out
    assert lines[2] == "~ touch each (many.yml:4, ansible.builtin.debug)"
    changes = sorted(line for line in lines if line.startswith("    h"))
    # every result (in the order they came), not the read's first 100
    assert changes == [f"    h{i:03}: changes (no diff)" for i in range(HOSTS)]
    assert "more results" not in planned.out
    plan_id = int(planned.err.split()[1])
    assert f"apply it: steward apply {plan_id}" in planned.err
    read = site.api.get(f"{base}/runs/{plan_id}/plan").json()
    assert read["tasks_truncated"]  # the control: the read alone would have cut it

    applied = steward_in("apply", str(plan_id))
    assert applied.code == Exit.OK, applied.err
    apply_id = int(applied.out)

    def ended() -> dict[str, Any]:
        found = site.run(apply_id)
        return found if found["status"] in ("successful", "failed") else {}

    run = wait_until(ended, timeout=90, what="the apply")
    assert (run["kind"], run["plan_id"], run["status"]) == ("apply", plan_id, "successful")
    again = steward_in("apply", str(plan_id))
    assert again.code == Exit.API
    assert "applied already" in again.err
    assert again.err.strip().endswith("plan again")
