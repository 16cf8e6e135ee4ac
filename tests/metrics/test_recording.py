"""Host metrics recorded while real playbooks run: the controller (psutil) and a target host
through a real pmcd + pmproxy on 127.0.0.1; gaps when the endpoint hangs or is absent."""

from __future__ import annotations

import datetime as dt
import socket
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from support.builders import Workbench
from support.pcp import PcpServer
from support.processes import free_port
from support.waits import wait_until

LOCAL = f"ansible_connection=local ansible_python_interpreter={sys.executable}"


def _ms(stamp: str) -> int:
    return int(dt.datetime.fromisoformat(stamp).timestamp() * 1000)


def metrics(workbench: Workbench, run_id: int, **params: Any) -> dict[str, Any]:
    response = workbench.client.get(workbench.url(f"runs/{run_id}/metrics"), params=params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def lane(answer: dict[str, Any], kind: str, host: str | None = None) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        x for x in answer["lanes"] if x["kind"] == kind and host in (None, x["host"])
    ]
    assert len(found) == 1, answer["lanes"]
    return found[0]


def mean(found: dict[str, Any], series: str, start: int, end: int) -> float:
    values = [
        v
        for t, v in zip(found["times"], found["series"][series], strict=True)
        if start <= t <= end and v is not None
    ]
    assert values, f"no {series} sample between {start} and {end}: {found['times']}"
    return float(sum(values) / len(values))


def duration(run: dict[str, Any]) -> float:
    started = dt.datetime.fromisoformat(run["started_at"])
    return (dt.datetime.fromisoformat(run["finished_at"]) - started).total_seconds()


def task_window(workbench: Workbench, run_id: int, task: str) -> tuple[int, int]:
    timeline = workbench.client.get(workbench.url(f"runs/{run_id}/timeline")).json()
    entry = next(e for e in timeline if e["task"] == task)
    return _ms(entry["started_at"]), _ms(entry["ended_at"])


@pytest.mark.sqlite_only  # sampling; the database is incidental
def test_cpu_of_a_burst_task_rises_on_the_controller_and_through_pcp(
    workbench: Workbench, pcp_server: PcpServer
) -> None:
    inventory = workbench._post(
        workbench.url("inventories"),
        {
            "name": "pcp",
            "kind": "static",
            "format": "ini",
            "content": f"localhost ansible_host=127.0.0.1 {LOCAL}\n",
            "metrics_endpoint": pcp_server.endpoint,
        },
    )["id"]
    template = workbench.template("cpu_burst.yml", inventory_id=inventory)
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful", run
    _, burn_end = task_window(workbench, run["id"], "burn")
    _, rest_end = task_window(workbench, run["id"], "rest again")
    # inside the loops' 4 seconds (they end just before their task does), and inside the
    # second rest's sleep; a sample is the rate over the half second before it
    burning = (burn_end - 3000, burn_end - 600)
    sleeping = (rest_end - 1300, rest_end - 100)

    answer = metrics(workbench, run["id"])
    controller = lane(answer, "controller")
    assert controller["gaps"] == []
    assert controller["bucket_ms"] is None  # a few seconds: every sample as taken
    # the run's own processes (percent of one CPU). This machine may be shared: the loops get
    # every core when it is idle, a fair share of it when it is not; either way far more than
    # a sleep
    burst = mean(controller, "run.cpu", *burning)
    rest = mean(controller, "run.cpu", *sleeping)
    assert burst > max(2 * rest, rest + 15), (burst, rest)
    assert mean(controller, "run.processes", *burning) > mean(
        controller, "run.processes", *sleeping
    )
    assert mean(controller, "run.rss", *burning) > 10_000_000
    assert mean(controller, "mem.total", *burning) > mean(controller, "mem.used", *burning) > 0

    host = lane(answer, "host", "localhost")
    assert host["gaps"] == []

    def busy(found: dict[str, Any], start: int, end: int) -> float:
        return mean(found, "cpu.user", start, end) + mean(found, "cpu.system", start, end)

    # the whole machine: up by 20 points, or near full when other work kept it busy already
    assert busy(host, *burning) >= min(busy(host, *sleeping) + 20, 75)
    # PCP and psutil look at the same machine at the same moments: they agree
    assert abs(busy(host, *burning) - busy(controller, *burning)) < 15
    assert abs(busy(host, *sleeping) - busy(controller, *sleeping)) < 15
    assert set(host["series"]) == {n for n in answer["units"] if not n.startswith("run.")}
    assert all(v is None or v >= 0 for v in host["series"]["net.rx_bytes"])

    # fewer points: averaged stretches on one axis, from the first sample to the last
    small = metrics(workbench, run["id"], points=4, series="cpu.user,run.cpu")
    controller = lane(small, "controller")
    assert controller["bucket_ms"] == -(-(small["end"] - small["start"] + 1) // 4)
    assert len(controller["times"]) == 4
    assert set(controller["series"]) == {"cpu.user", "run.cpu"}
    assert set(lane(small, "host")["series"]) == {"cpu.user"}  # a host has no run.* series


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A TCP server that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(16)
        yield server.getsockname()[1]


@pytest.mark.sqlite_only
def test_hanging_and_absent_endpoints_are_gaps_and_do_not_slow_the_run(
    workbench: Workbench, silent_port: int
) -> None:
    closed = free_port()
    content = (
        f"stuck steward_pmproxy_url=http://127.0.0.1:{silent_port} {LOCAL}\n"
        f"absent steward_pmproxy_url=http://127.0.0.1:{closed} {LOCAL}\n"
        f"skipped steward_pmproxy_url=off {LOCAL}\n"
    )
    body = {"name": "hosts", "kind": "static", "format": "ini", "content": content}
    plain = workbench._post(workbench.url("inventories"), body)["id"]
    body = {**body, "name": "watched", "metrics_endpoint": "http://{host}:44322"}
    watched = workbench._post(workbench.url("inventories"), body)["id"]
    hanging = workbench.template("cpu_burst.yml", name="hanging", inventory_id=watched)
    baseline = workbench.template("cpu_burst.yml", name="baseline", inventory_id=plain)
    plain_run = workbench.wait(workbench.launch(baseline)["id"])
    run = workbench.wait(workbench.launch(hanging)["id"])
    assert plain_run["status"] == run["status"] == "successful", (plain_run, run)
    # a sample waits up to 10 s for an answer that never comes: the run does not wait for it
    assert duration(run) < duration(plain_run) + 3, (run, plain_run)

    def gaps() -> dict[str, list[str]]:
        lanes = metrics(workbench, run["id"])["lanes"]
        found = {x["host"]: [g["reason"] for g in x["gaps"]] for x in lanes}
        return found if found.get("stuck") else {}

    reasons = wait_until(gaps, timeout=20, what="the hanging host's gap")
    assert reasons["stuck"] == ["no answer within 10 s"]
    assert reasons["absent"] == [
        f"PCP absent: connection refused on port {closed} (pmproxy not running?)"
    ]
    assert "skipped" not in reasons  # steward_pmproxy_url=off: no lane at all
    answer = metrics(workbench, run["id"], kind="host")
    for found in answer["lanes"]:
        assert found["times"] == []  # no invented zeros: no samples at all
        gap = found["gaps"][0]
        assert gap["end"] > gap["start"]


@pytest.mark.sqlite_only  # sampling; the database is incidental
def test_target_hosts_are_sampled_from_the_run_start_and_untouched_ones_are_not_kept(
    workbench: Workbench, pcp_server: PcpServer
) -> None:
    """The target's first event comes after another host's 4-second play: its lane has samples
    from before that event. A host the limit selects but no play touches is sampled too, and
    its lane is removed once the run ends; a host outside the limit never has one."""
    content = (
        f"target ansible_host=127.0.0.1 {LOCAL}\n"
        f"untouched ansible_host=127.0.0.1 {LOCAL}\n"
        f"outside ansible_host=127.0.0.1 {LOCAL}\n"
        f"waiter steward_pmproxy_url=off {LOCAL}\n"
    )
    inventory = workbench._post(
        workbench.url("inventories"),
        {
            "name": "late",
            "kind": "static",
            "format": "ini",
            "content": content,
            "metrics_endpoint": pcp_server.endpoint,
        },
    )["id"]
    template = workbench.template("late_target.yml", inventory_id=inventory, limit="all:!outside")
    run_id = workbench.launch(template)["id"]

    def sampled() -> set[str]:
        return {x["host"] for x in metrics(workbench, run_id, kind="host")["lanes"]}

    # while the waiter's play runs, before any event names them: both hosts of the limit
    def early() -> set[str]:
        hosts = sampled()
        return hosts if {"target", "untouched"} <= hosts else set()

    seen = wait_until(early, timeout=60, what="lanes of the limit's hosts")
    assert "outside" not in seen
    assert workbench.run(run_id)["status"] == "running"
    run = workbench.wait(run_id)
    assert run["status"] == "successful", run
    events = workbench.client.get(
        workbench.url(f"runs/{run_id}/events"), params={"host": "target"}
    ).json()["items"]
    first_event = min(_ms(e["created_at"]) for e in events)
    assert first_event - _ms(run["started_at"]) > 3000  # the waiter's play came first

    # once the run has ended: the untouched host's lane is gone, the outside one never was
    wait_until(lambda: sampled() == {"target"}, timeout=30, what="the untouched lane removed")
    target = lane(metrics(workbench, run_id), "host", "target")
    assert target["gaps"] == []
    before = [t for t in target["times"] if t < first_event]
    # a sample every half second from about the run's start (the inventory is read first)
    assert len(before) >= 3, (target["times"][:5], first_event)
    assert all(v is not None for v in target["series"]["cpu.user"][: len(before)])
