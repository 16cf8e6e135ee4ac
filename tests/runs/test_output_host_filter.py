"""Filtering the output by host keeps the task and play headers of that host's results."""

from __future__ import annotations

import sys

from support.builders import Workbench

TWO_HOSTS = "\n".join(
    f"{name} ansible_connection=local ansible_python_interpreter={sys.executable}"
    for name in ("alpha", "beta")
)


def test_a_hosts_lines_keep_the_task_headers_they_belong_to(workbench: Workbench) -> None:
    inventory = workbench.inventory("two", TWO_HOSTS + "\n")
    template = workbench.template("fail.yml", inventory_id=inventory)
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "failed"

    alpha = workbench.lines(run["id"], host="alpha")
    text = "\n".join(alpha)
    # the header of each task comes before its result, in the order of the whole output
    assert text.index("TASK [before the failure]") < text.index("ok: [alpha]")
    assert text.index("TASK [explode]") < text.index("fatal: [alpha]")
    assert "PLAY [all]" in text
    assert "[beta]" not in text
    # each is the line of the whole output at its number
    everything = workbench.lines(run["id"])
    page = workbench.client.get(
        workbench.url(f"runs/{run['id']}/lines"), params={"host": "alpha"}
    ).json()
    assert [everything[line["line_no"]] for line in page["items"]] == alpha

    failed = "\n".join(workbench.lines(run["id"], failed=True))
    assert failed.index("TASK [explode]") < failed.index("fatal: [alpha]")
    assert "TASK [before the failure]" not in failed  # no failure there: no header either
    assert workbench.lines(run["id"], host="nosuchhost") == []
