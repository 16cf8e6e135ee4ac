"""Real `steward serve` processes with real clocks fire the schedules: the tick is short
(STEWARD_SCHEDULER_TICK_SECONDS), nothing in the scheduler is mocked. An occurrence "comes"
either by itself (an RRULE every 2 s) or because the test moves ``next_fire_at`` to now in the
database (support.schedules.make_due); the launch is always done by a server's loop."""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from support.admin import ADMIN_TOKEN
from support.builders import PLAYBOOKS, bearer, localhost_project, post
from support.schedules import make_due, make_schedule
from support.server import Server
from support.waits import wait_until

FAST = {"scheduler_tick_seconds": "0.2", "schedule_min_interval_seconds": "1"}


@contextlib.contextmanager
def servers(
    tmp_path: Path, database_url: str, count: int, **settings: str
) -> Iterator[list[Server]]:
    """``count`` servers on one database, sharing the master key (one installation)."""
    shared = {
        "database_url": database_url,
        "secret_key_file": str(tmp_path / "secret.key"),
        **FAST,
        **settings,
    }
    with contextlib.ExitStack() as stack:
        started = [
            stack.enter_context(Server(tmp_path / f"data-{n}", **shared).running())
            for n in range(count)
        ]
        yield started


def api_of(server: Server) -> httpx2.Client:
    """A client of the seeded admin (support.databases), valid on every server of the database."""
    return httpx2.Client(
        base_url=f"http://127.0.0.1:{server.port}/api/v1", headers=bearer(ADMIN_TOKEN), timeout=30
    )


def setup_template(api: httpx2.Client, tmp_path: Path, *, runnable: bool = True) -> dict[str, int]:
    """A project and template ``ok.yml``; not ``runnable``: the repository's directory is
    removed once the template is saved, so its runs end at once (``error``: their checkout
    fails) instead of starting ansible-playbook."""
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    ids = localhost_project(api, repo, "timed")
    template = post(
        api,
        f"/projects/{ids['project']}/templates",
        {
            "name": "ok",
            "playbook": "ok.yml",
            "repository_id": ids["repository"],
            "inventory_id": ids["inventory"],
        },
    )
    if not runnable:
        shutil.rmtree(repo)
    return {**ids, "template": template["id"]}


def runs_of(api: httpx2.Client, project_id: int) -> list[dict[str, Any]]:
    response = api.get(f"/projects/{project_id}/runs", params={"limit": 500})
    assert response.status_code == 200, response.text
    runs: list[dict[str, Any]] = response.json()["items"]
    return runs


def by_schedule(runs: list[dict[str, Any]]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for run in runs:
        counts[run["schedule_id"]] = counts.get(run["schedule_id"], 0) + 1
    return counts


def _finished(api: httpx2.Client, project_id: int, run_id: int) -> dict[str, Any] | None:
    run: dict[str, Any] = api.get(f"/projects/{project_id}/runs/{run_id}").json()
    return run if run["status"] not in ("queued", "running") else None


def schedule_of(api: httpx2.Client, project_id: int, schedule_id: int) -> dict[str, Any]:
    response = api.get(f"/projects/{project_id}/schedules/{schedule_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


@pytest.mark.sqlite_only  # the loop's timing; claims race on both databases below, test_claims
def test_a_schedule_fires_every_occurrence_once_through_the_server_loop(
    tmp_path: Path, database_url: str
) -> None:
    with servers(tmp_path, database_url, 1) as (server,), api_of(server) as api:
        # the firing is the point, not ansible: each run ends at once (its playbook is gone)
        ids = setup_template(api, tmp_path, runnable=False)
        project = ids["project"]
        schedule = make_schedule(
            api,
            project,
            ids["template"],
            kind="rrule",
            expression="FREQ=SECONDLY;INTERVAL=2",
        )
        first = wait_until(lambda: runs_of(api, project), timeout=20, what="a first run")
        wait_until(lambda: len(runs_of(api, project)) >= 3, timeout=20, what="three runs")
        off = api.patch(f"/projects/{project}/schedules/{schedule['id']}", json={"enabled": False})
        assert off.status_code == 200, off.text
        runs = runs_of(api, project)
        run = wait_until(
            lambda: _finished(api, project, first[-1]["id"]), timeout=20, what="the first run"
        )
        assert run is not None
        audit = api.get("/audit", params={"action": "run:launch"}).json()["items"]
        read = schedule_of(api, project, schedule["id"])

    assert {(r["launch_type"], r["schedule_id"], r["launched_by"]) for r in runs} == {
        ("schedule", schedule["id"], "admin")
    }
    created = sorted(dt.datetime.fromisoformat(r["created_at"]) for r in runs)
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(created)]
    assert all(gap > 1.0 for gap in gaps), gaps  # one run per occurrence, 2 s apart
    assert read["last_run_id"] == max(r["id"] for r in runs)
    assert read["last_fired_at"] is not None
    assert read["next_fire_at"] is None  # disabled
    assert {r["actor"] for r in audit} == {f"admin (via schedule {schedule['id']})"}
    assert {r["actor_type"] for r in audit} == {"schedule"}
    # a normal run that the executor took: it ended because its repository is gone
    assert run["status"] == "error", run
    assert run["status_reason"].startswith("local repository 'r'"), run
    assert run["status_reason"].endswith("does not exist on the server"), run


def test_two_servers_launch_each_occurrence_exactly_once(tmp_path: Path, database_url: str) -> None:
    """Both servers tick every 50 ms over the same due schedules, three times."""
    count = 30
    with (
        servers(tmp_path, database_url, 2, scheduler_tick_seconds="0.05") as (one, two),
        api_of(one) as api,
        api_of(two) as other,
    ):
        ids = setup_template(api, tmp_path, runnable=False)
        project = ids["project"]
        made = [
            make_schedule(other, project, ids["template"], name=f"s{n}")["id"] for n in range(count)
        ]
        for round_ in (1, 2, 3):
            make_due(database_url, *made)
            wait_until(
                lambda round_=round_: len(runs_of(api, project)) >= count * round_,  # type: ignore[misc]
                timeout=30,
                what=f"round {round_}",
            )
        with contextlib.suppress(AssertionError):  # a duplicate would show within a few ticks
            wait_until(lambda: len(runs_of(api, project)) > count * 3, timeout=1)
        runs = runs_of(api, project)
    assert by_schedule(runs) == dict.fromkeys(made, 3)
    assert len(runs) == count * 3


@pytest.mark.sqlite_only
def test_after_a_week_down_run_once_launches_one_run_and_skip_none(
    tmp_path: Path, database_url: str
) -> None:
    hourly = "0 * * * *"
    with servers(tmp_path, database_url, 1) as (server,), api_of(server) as api:
        ids = setup_template(api, tmp_path, runnable=False)
        project = ids["project"]
        once = make_schedule(api, project, ids["template"], name="once", expression=hourly)
        skip = make_schedule(
            api, project, ids["template"], name="skip", expression=hourly, missed_policy="skip"
        )
        server.stop()
        week_ago = dt.datetime.now(dt.UTC) - dt.timedelta(days=7)
        make_due(database_url, once["id"], skip["id"], at=week_ago)
        server.start()
        wait_until(lambda: runs_of(api, project), timeout=20, what="the missed run")
        with contextlib.suppress(AssertionError):  # a replay would show within a few ticks
            wait_until(lambda: len(runs_of(api, project)) > 1, timeout=1.5)
        runs = runs_of(api, project)
        after = {s: schedule_of(api, project, s) for s in (once["id"], skip["id"])}
    assert by_schedule(runs) == {once["id"]: 1}
    now = dt.datetime.now(dt.UTC)
    for read in after.values():
        upcoming = dt.datetime.fromisoformat(read["next_fire_at"])
        assert now < upcoming <= now + dt.timedelta(hours=1)
        assert read["enabled"] is True
    assert after[once["id"]]["last_run_id"] == runs[0]["id"]
    assert after[skip["id"]]["last_run_id"] is None
