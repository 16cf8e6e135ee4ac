"""Failures of a real cluster: a worker SIGKILLed mid-run, Redis stopped, PostgreSQL restarted,
an API server killed while a client streams. Real processes only (tests/cluster/harness.py)."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx2
import pytest
from support.waits import wait_until

from cluster.harness import Cluster, Project, restart_postgres
from steward.execution.ansible import processes

# the cluster tests stop and restart their PostgreSQL and Redis, SIGKILL workers and measure
# leases: one after another on one worker (xdist's loadgroup), the other runs the rest meanwhile
pytestmark = pytest.mark.xdist_group("cluster")

TICKS = 40  # lines of a ticks.yml run, one per 0.2 s tick: about 10 s of playbook


def _ticks(project: Project, ticks: int = TICKS, tick: float = 0.2) -> int:
    extra = {"ticks": ticks, "tick": tick}
    return project.template("ticks.yml", name=f"ticks-{ticks}-{tick}", extra_vars=extra)


def _tick_lines(project: Project, run_id: int) -> list[int]:
    """The loop items the run's output reports, in line order."""
    items = []
    for line in project.lines(run_id):
        if "(item=" in line["text"]:
            items.append(int(line["text"].split("(item=")[1].split(")")[0]))
    return items


def _uuid(cluster: Cluster, run_id: int) -> str:
    return str(cluster.sql("select uuid from runs where id = :id", id=run_id)[0][0])


@pytest.mark.slow
def test_a_sigkilled_worker_loses_its_run_its_queue_moves_and_its_orphans_die(
    cluster: Cluster,
) -> None:
    # unsandboxed, so that something survives the worker: inside bubblewrap the PID namespace
    # ends with ansible-playbook, and a killed worker leaves no process behind at all
    cluster.settings["sandbox"] = "off"
    server = cluster.server("api")
    api = server.api()
    project = Project.make(api, cluster.root)
    limited = api.patch(project.base, json={"max_parallel_runs": 1})
    assert limited.status_code == 200, limited.text
    slow = project.template("slow.yml")
    quick = project.template("ok.yml")
    workers = {w.pid: w for w in (cluster.worker("a"), cluster.worker("b"))}

    running = project.launch(slow)
    queued = project.launch(quick)
    project.wait(running, "running")
    run_uuid = _uuid(cluster, running)
    wait_until(lambda: "sleep" in processes.names(run_uuid), what="the playbook's sleep")
    waiting = project.run(queued)
    assert waiting["waiting_reason"] == "project limit reached (1 of 1 runs running)"

    owner_id = str(cluster.sql("select worker_id from runs where id = :id", id=running)[0][0])
    victim = workers.pop(int(owner_id.split(":")[1]))
    killed_at = time.monotonic()
    victim.kill()

    lost = project.wait(running, "error", timeout=30)
    lost_after = time.monotonic() - killed_at
    assert lost["status_reason"] == "worker lost: no heartbeat within the lease"
    assert lost_after < 4 + 2  # the lease (4 s) and a housekeeping tick or two
    moved = project.wait(queued, timeout=60)
    assert moved["status"] == "successful", moved
    (survivor,) = workers.values()
    (worker_id,) = cluster.sql("select worker_id from runs where id = :id", id=queued)[0]
    assert f":{survivor.pid}:" in worker_id

    # the killed worker's playbook outlived it; its restart kills it
    assert "sleep" in processes.names(run_uuid)
    victim.start()
    wait_until(lambda: not processes.run_processes(run_uuid), timeout=30, what="orphans killed")
    assert project.run(running)["status_reason"] == lost["status_reason"]
    api.close()


@pytest.mark.slow
def test_redis_down_for_two_leases_loses_no_run(cluster: Cluster) -> None:
    """Down for twice the lease (8 s): a run whose worker's lease hung on Redis would be reaped
    as lost, and the housekeepers' re-sends fail some eight times meanwhile."""
    down_seconds = 2 * float(cluster.settings["lease_seconds"])
    server = cluster.server("api")
    api = server.api()
    project = Project.make(api, cluster.root)
    ticks = 60  # ~12 s: runs through the whole outage (8 s, from its first seconds)
    long = _ticks(project, ticks=ticks, tick=0.2)
    quick = project.template("ok.yml")
    cluster.worker("a", concurrency=4)
    running = project.launch(long)
    project.wait(running, "running")

    cluster.redis.stop()
    try:
        down_at = time.monotonic()
        started = time.monotonic()
        launched = [project.launch(quick) for _ in range(3)]
        assert time.monotonic() - started < 3  # a launch does not wait for the broker
        lines_at_stop = project.run(running)["line_count"]
        time.sleep(max(0.0, down_seconds - (time.monotonic() - down_at)))
        during = project.run(running)
        assert during["status"] == "running"
        assert during["line_count"] > lines_at_stop + 50  # the run kept recording
        # waiting for the broker, none lost or failed; a wake-up the worker had already taken
        # off Redis before it stopped (a housekeeper's re-send) drains every claimable run, so
        # some may have run already
        assert {project.run(r)["status"] for r in launched} <= {"queued", "successful"}
    finally:
        cluster.redis.start()  # the next tests' broker, whatever this one found

    for run_id in launched:
        assert project.wait(run_id, timeout=60)["status"] == "successful"
    done = project.wait(running, timeout=90)
    assert done["status"] == "successful", done
    assert _tick_lines(project, running) == list(range(ticks))
    api.close()


@pytest.mark.slow
def test_postgres_restarted_during_a_run_loses_no_line(cluster: Cluster) -> None:
    cluster.settings["lease_seconds"] = "20"  # longer than the restart
    server = cluster.server("api")
    api = server.api()
    project = Project.make(api, cluster.root)
    template = _ticks(project, ticks=45, tick=0.2)  # ~9 s: through the restart (~2 s)
    cluster.worker("a")
    run_id = project.launch(template)
    wait_until(lambda: project.run(run_id)["line_count"] > 10, what="output")

    restart_postgres(cluster.postgres, down_seconds=1)
    # the restart fell inside the run: it was still running once PostgreSQL answered again
    assert _running(project, run_id)

    done = wait_until(
        lambda: _finished(api, project, run_id), timeout=90, interval=0.5, what="the run's end"
    )
    assert done is not None
    assert done["status"] == "successful", done
    assert _tick_lines(project, run_id) == list(range(45))
    numbers = [line["line_no"] for line in project.lines(run_id)]
    assert numbers == list(range(done["line_count"]))
    api.close()


def _running(project: Project, run_id: int) -> bool:
    """Whether the run is still running, read once the server's connections are back."""
    read = wait_until(
        lambda: _read(project, run_id), timeout=60, interval=0.2, what="the server's answer"
    )
    assert read is not None
    return bool(read["status"] == "running")


def _read(project: Project, run_id: int) -> dict[str, Any] | None:
    try:
        return project.run(run_id)
    except (httpx2.HTTPError, AssertionError):
        return None  # the server's own connections are being re-established


def _finished(api: httpx2.Client, project: Project, run_id: int) -> dict[str, Any] | None:
    run = _read(project, run_id)
    return run if run is not None and run["status"] not in ("queued", "running") else None


def _stream(
    api: httpx2.Client, url: str, last_event_id: int | None, seen: list[int], stop_after: int
) -> str | None:
    """Read the SSE stream into ``seen`` (line numbers) until ``stop_after`` lines or its end;
    the final status, or None when it stopped early or the server went away."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id is not None else {}
    event = ""
    try:
        with api.stream("GET", url, headers=headers, timeout=30) as response:
            assert response.status_code == 200
            for line in response.iter_lines():
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "lines":
                    seen.extend(item["n"] for item in json.loads(line[6:])["lines"])
                    if len(seen) >= stop_after:
                        return None
                elif line.startswith("data: ") and event == "end":
                    return str(json.loads(line[6:])["status"])
    except httpx2.HTTPError:
        return None
    return None


@pytest.mark.slow
def test_a_stream_resumes_on_another_server_without_loss_or_duplicate(cluster: Cluster) -> None:
    one, two = cluster.server("api-1"), cluster.server("api-2")
    api_one, api_two = one.api(), two.api()
    project = Project.make(api_one, cluster.root)
    template = _ticks(project, ticks=30, tick=0.15)
    cluster.worker("a")
    run_id = project.launch(template)
    url = f"{project.base}/runs/{run_id}/stream"

    seen: list[int] = []
    assert _stream(api_one, url, None, seen, stop_after=15) is None
    one.kill()  # the browser's server dies mid-stream
    status = _stream(api_two, url, seen[-1], seen, stop_after=10**6)

    assert status == "successful"
    final = project.run(run_id, api_two)
    assert seen == list(range(final["line_count"]))
    api_one.close()
    api_two.close()


@pytest.mark.slow
def test_a_stopped_worker_interrupts_its_runs_and_leaves_the_group(cluster: Cluster) -> None:
    server = cluster.server("api")
    api = server.api()
    project = Project.make(api, cluster.root)
    worker = cluster.worker("a")
    run_id = project.launch(project.template("slow.yml"))
    project.wait(run_id, "running")
    run_uuid = _uuid(cluster, run_id)
    wait_until(lambda: "sleep" in processes.names(run_uuid), what="the playbook's sleep")

    worker.stop()  # SIGTERM, as systemd does

    assert worker.proc is not None
    assert worker.proc.returncode == 0
    stopped = project.run(run_id)
    assert (stopped["status"], stopped["status_reason"]) == (
        "error",
        "interrupted: server stopped during the run",
    )
    assert processes.run_processes(run_uuid) == []
    assert api.get("/workers").json() == []
    waiting = project.run(project.launch(project.template("ok.yml")))
    assert waiting["waiting_reason"] == "no worker of runner group 'default' is online"
    api.close()
