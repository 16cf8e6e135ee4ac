"""The wiring of how a run went over HTTP: the run's read (``story``, ``host_counts``), the
runs list (``host_counts``, no story) and the live stream's progress events (``events_after``).
The rules themselves are tested below HTTP (test_story.py)."""

from __future__ import annotations

from support.builders import LOCALHOST_INVENTORY, Workbench
from support.sse import messages as _sse

# a host whose ssh port is closed: unreachable at its first connection, beside localhost
UNREACHABLE = "dead ansible_host=127.0.0.1 ansible_port=9 ansible_connection=ssh\n"
PLAYBOOK = """- hosts: all
  gather_facts: false
  tasks:
    - name: connect
      ansible.builtin.ping:
    - name: explode
      ansible.builtin.fail: {msg: boom}
"""


def test_a_failed_run_reads_with_its_story_counts_and_progress(workbench: Workbench) -> None:
    inventory = workbench.inventory("two", LOCALHOST_INVENTORY + UNREACHABLE)
    (workbench.repo_dir / "connect_fail.yml").write_text(PLAYBOOK)
    run = workbench.launch(workbench.template("connect_fail.yml", inventory_id=inventory))
    done = workbench.wait(run["id"])
    assert done["status"] == "failed"

    failure = done["story"]["first_failure"]
    assert (failure["host"], failure["task"], failure["unreachable"]) == (
        "dead",
        "connect",
        True,
    )
    lines = workbench.lines(run["id"])
    assert "Connection refused" in lines[failure["line"]]
    assert "Connection refused" in failure["message"]
    counts = {"hosts": 2, "ok": 0, "changed": 0, "failed": 1, "unreachable": 1}
    assert done["host_counts"] == counts
    listed = workbench.client.get(workbench.url("runs")).json()["items"][0]
    assert (listed["id"], listed["host_counts"], listed["story"]) == (run["id"], counts, None)

    url = workbench.url(f"runs/{run['id']}/stream")
    streamed = _sse(workbench.client.get(url, params={"events_after": -1}).text)
    events = [e for _, kind, data in streamed if kind == "events" for e in data["events"]]
    play = events[0]
    assert (play["kind"], sorted(play["hosts"]), play["task_count"]) == (
        "play",
        ["dead", "localhost"],
        2,
    )
    results = {(e["host"], e["task"]): e["status"] for e in events if e["kind"] == "result"}
    assert results == {
        ("localhost", "connect"): "ok",
        ("dead", "connect"): "unreachable",
        ("localhost", "explode"): "failed",
    }
    assert events[-1]["kind"] == "stats"
    assert streamed[-1][1] == "end"
    # control: without events_after the stream sends no progress, as before
    plain = _sse(workbench.client.get(url).text)
    assert plain[-1][1] == "end"
    assert not [kind for _, kind, _ in plain if kind == "events"]
