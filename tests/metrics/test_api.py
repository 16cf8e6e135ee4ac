"""The metrics API over stored samples (written as the recorder writes them): lanes, averaging,
filters, exports, and rows that go with their run; the inventory's endpoint setting."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from support.builders import Workbench, assert_problem, inserted_run

from steward.metrics.lanes import Lane
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.series import LaneKind
from steward.runs.models import Run
from steward.runs.status import RunStatus

# PostgreSQL too: stored sample chunks read back, averaged and exported
pytestmark = pytest.mark.both_databases

T0 = 1_795_000_000_000  # epoch ms


def stored_run(workbench: Workbench) -> int:
    """A finished run with 30 s of the controller (one sample a second, cpu.user = the second)
    and a host whose pmproxy answered for 10 s, then not for 20 s."""
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    template = workbench.template("ok.yml")
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, template, RunStatus.SUCCESSFUL)
        session.add(run)
        session.flush()
        controller = Lane(LaneKind.CONTROLLER, "worker-1", 1000)
        host = Lane(LaneKind.HOST, "web1", 1000)
        for second in range(30):
            at = T0 + second * 1000
            controller.add(at, {"cpu.user": float(second), "run.cpu": 50.0})
            if second < 10:
                host.add(at, {"cpu.user": 1.0})
            else:
                host.fail(at, at + 1000, "no answer within 2 s")
            if second % 10 == 9:  # a flush every 10 s
                for lane in (controller, host):
                    chunk, gaps = lane.take(run.id)
                    session.add_all([chunk, *gaps] if chunk else gaps)
        session.commit()
        run_id: int = run.id
    return run_id


def read(client: TestClient, url: str, **params: Any) -> dict[str, Any]:
    response = client.get(url, params=params)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_lanes_come_as_sampled_or_averaged_with_their_gaps(workbench: Workbench) -> None:
    run_id = stored_run(workbench)
    url = workbench.url(f"runs/{run_id}/metrics")
    answer = read(workbench.client, url)
    assert (answer["start"], answer["end"]) == (T0, T0 + 30_000)
    assert answer["next_offset"] is None
    controller, host = answer["lanes"]  # the controller first
    assert (controller["kind"], controller["host"]) == ("controller", "worker-1")
    assert controller["bucket_ms"] is None
    assert controller["times"] == [T0 + s * 1000 for s in range(30)]
    assert controller["series"]["cpu.user"] == [float(s) for s in range(30)]
    assert controller["series"]["cpu.system"] == [None] * 30  # never measured: null
    assert controller["gaps"] == []
    assert answer["units"]["run.cpu"] == "% of one CPU"
    assert (host["kind"], host["host"]) == ("host", "web1")
    assert "run.cpu" not in host["series"]
    assert host["times"] == [T0 + s * 1000 for s in range(10)]
    # written in two flushes, read as one gap
    assert host["gaps"] == [
        {"start": T0 + 10_000, "end": T0 + 30_000, "reason": "no answer within 2 s"}
    ]

    averaged = read(workbench.client, url, points=3, series="cpu.user", kind="controller")
    (controller,) = averaged["lanes"]
    assert controller["bucket_ms"] == 10_001
    assert controller["times"] == [T0, T0 + 10_001, T0 + 20_002]
    # the axis is the run's (its host's gap ends at 30 s): 0-10 s, 11-20 s, 21-29 s
    assert controller["series"] == {"cpu.user": [5.0, 15.5, 25.0]}

    window = read(
        workbench.client,
        url,
        host="web1",
        series="cpu.user,mem.used",
        **{"from": "2026-11-18T11:06:45+00:00", "to": "2026-11-18T11:06:55Z"},
    )
    (host,) = window["lanes"]
    assert window["start"] == T0 + 5_000
    assert host["times"] == [T0 + s * 1000 for s in range(5, 10)]
    assert set(host["series"]) == {"cpu.user", "mem.used"}
    assert [g["reason"] for g in host["gaps"]] == ["no answer within 2 s"]

    first = read(workbench.client, url, limit=1)
    assert [x["host"] for x in first["lanes"]] == ["worker-1"]
    assert first["next_offset"] == 1
    assert [x["host"] for x in read(workbench.client, url, offset=1)["lanes"]] == ["web1"]


def test_exports_hold_every_sample_and_gap(workbench: Workbench) -> None:
    run_id = stored_run(workbench)
    url = workbench.url(f"runs/{run_id}/metrics/export")
    response = workbench.client.get(url, params={"series": "cpu.user,run.cpu"})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    assert f'filename="run-{run_id}-metrics.csv"' in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    controller = [r for r in rows if r["kind"] == "controller"]
    host = [r for r in rows if r["kind"] == "host"]
    assert len(controller) == 30
    assert controller[3] == {
        "time": "2026-11-18T11:06:43.000+00:00",
        "kind": "controller",
        "host": "worker-1",
        "cpu.user": "3.0",
        "run.cpu": "50.0",
        "gap_until": "",
        "gap_reason": "",
    }
    assert [r["cpu.user"] for r in host[:10]] == ["1.0"] * 10
    assert host[10]["gap_reason"] == "no answer within 2 s"
    assert host[10]["gap_until"] == "2026-11-18T11:07:10.000+00:00"
    assert host[10]["cpu.user"] == host[0]["run.cpu"] == ""

    response = workbench.client.get(url, params={"format": "json", "kind": "host"})
    assert response.status_code == 200, response.text
    exported = json.loads(response.text)
    assert exported["run_id"] == run_id
    (lane,) = exported["lanes"]
    assert lane["host"] == "web1"
    assert len(lane["samples"]) == 10
    assert lane["samples"][0]["time"] == T0
    assert lane["samples"][0]["cpu.user"] == 1.0
    assert lane["samples"][0]["mem.used"] is None
    assert lane["gaps"] == [
        {"start": T0 + 10_000, "end": T0 + 30_000, "reason": "no answer within 2 s"}
    ]


def test_a_run_without_samples_has_no_lanes(workbench: Workbench) -> None:
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, workbench.template("ok.yml"), RunStatus.QUEUED)
        session.add(run)
        session.commit()
        run_id = run.id
    answer = read(workbench.client, workbench.url(f"runs/{run_id}/metrics"))
    assert answer == {
        "run_id": run_id,
        "start": None,
        "end": None,
        "units": answer["units"],
        "lanes": [],
        "next_offset": None,
    }
    exported = workbench.client.get(workbench.url(f"runs/{run_id}/metrics/export"))
    assert exported.text.splitlines()[0].startswith("time,kind,host,cpu.user,")
    assert len(exported.text.splitlines()) == 1


def test_metrics_go_with_their_run(workbench: Workbench) -> None:
    run_id = stored_run(workbench)
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        counted = select(func.count()).where(MetricChunk.run_id == run_id)
        assert session.scalar(counted.select_from(MetricChunk)) == 4  # 3 + 1
        session.delete(session.get_one(Run, run_id))
        session.commit()
        assert session.scalar(counted.select_from(MetricChunk)) == 0
        gaps = select(func.count()).select_from(MetricGap).where(MetricGap.run_id == run_id)
        assert session.scalar(gaps) == 0


def test_an_inventory_names_its_pmproxy_endpoint(workbench: Workbench) -> None:
    url = workbench.url("inventories")
    body = {"name": "watched", "kind": "static", "format": "ini", "content": "web1\n"}
    created = workbench.client.post(url, json={**body, "metrics_endpoint": "http://{host}:44322"})
    assert created.status_code == 201, created.text
    assert created.json()["metrics_endpoint"] == "http://{host}:44322"
    inventory = f"{url}/{created.json()['id']}"
    gateway = "https://pcp.example.invalid:44322/pcp/?hostspec={host}"
    patched = workbench.client.patch(inventory, json={"metrics_endpoint": gateway})
    assert patched.status_code == 200, patched.text
    assert workbench.client.get(inventory).json()["metrics_endpoint"] == gateway
    assert workbench.client.patch(inventory, json={"metrics_endpoint": ""}).status_code == 200
    refused = {
        "ftp://{host}:44322": "scheme must be http or https",
        "http://user:secret@{host}:44322": "credentials",
        "http://{hostname}:44322": "only placeholder allowed is {host}",
        "http://{host}:44322/?context=1": "only query parameter allowed is hostspec",
        "http://{host}:99999": "not a valid URL",
        "x" * 501: "at most 500 characters",
    }
    for value, cause in refused.items():
        response = workbench.client.patch(inventory, json={"metrics_endpoint": value})
        detail = assert_problem(response, 422, "metrics_endpoint")
        assert cause in detail, detail
