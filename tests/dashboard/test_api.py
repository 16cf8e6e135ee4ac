"""The home dashboard over the API, on SQLite and PostgreSQL: runs per day and status in the
caller's zone, failing templates, running and queued runs with why each waits, and nothing of
the projects or templates the caller may not see (the runs list's own rule)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import (
    PLAYBOOKS,
    bearer,
    browser,
    inserted_run,
    make_file_inventory,
    make_local_repository,
    make_project,
    make_template,
    make_user,
    token,
)

from steward.access.actor import Actor
from steward.auth.models import TokenScope, User
from steward.dashboard import service
from steward.dashboard.days import window
from steward.db import utcnow
from steward.runs.status import RunStatus
from steward.runtime import Runtime

# PostgreSQL too: aggregates per day and status, in the caller's zone
pytestmark = pytest.mark.both_databases

S, F, E, C = RunStatus.SUCCESSFUL, RunStatus.FAILED, RunStatus.ERROR, RunStatus.CANCELED


def _templates(client: TestClient, project: int, *names: str) -> dict[str, int]:
    repository = make_local_repository(client, project, PLAYBOOKS, "r")
    inventory = make_file_inventory(client, project, "i")
    return {
        name: make_template(
            client, project, repository_id=repository, inventory_id=inventory, name=name
        )["id"]
        for name in names
    }


def _runtime(client: TestClient) -> Runtime:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    return runtime


def _insert(client: TestClient, project: int, template: int, status: RunStatus, **cols: Any) -> int:
    with _runtime(client).sessions() as session:
        run = inserted_run(project, template, status)
        for column, value in cols.items():
            setattr(run, column, value)
        if status is RunStatus.RUNNING:  # someone else's, alive for a year: never reaped
            run.worker_id = "elsewhere:1:1"
            run.heartbeat_at = utcnow() + dt.timedelta(days=365)
        session.add(run)
        session.commit()
        return run.id


def _dashboard(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/api/v1/dashboard", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_runs_per_day_and_status_fall_on_the_callers_days(client: TestClient) -> None:
    project = make_project(client, "daily")
    t = _templates(client, project, "patch")["patch"]
    now = utcnow()
    # around the caller's last midnights, in a zone of a half-hour offset and in UTC
    kolkata = ZoneInfo("Asia/Kolkata")
    midnight = dt.datetime.combine(now.astimezone(kolkata).date(), dt.time(), tzinfo=kolkata)
    instants = {
        midnight - dt.timedelta(minutes=1): F,  # yesterday in Kolkata
        midnight + dt.timedelta(minutes=1): S,  # today
        midnight - dt.timedelta(days=1, minutes=1): S,  # the day before yesterday
        midnight - dt.timedelta(days=1) + dt.timedelta(seconds=1): E,  # yesterday
        midnight - dt.timedelta(days=3): C,  # outside a 3-day window
    }
    for at, status in instants.items():
        _insert(client, project, t, status, created_at=at.astimezone(dt.UTC))

    body = _dashboard(client, days=3, tz="Asia/Kolkata")
    today = now.astimezone(kolkata).date()
    days = [today - dt.timedelta(days=n) for n in (2, 1, 0)]
    assert [d["day"] for d in body["per_day"]] == [d.isoformat() for d in days]
    expected = {d: Counter[str]() for d in days}
    for at, status in instants.items():
        if at.date() in expected:  # the instants are Kolkata times: .date() is the local day
            expected[at.date()][status.value] += 1
    for entry, date in zip(body["per_day"], days, strict=True):
        assert {k: v for k, v in entry["counts"].items() if v} == dict(expected[date]), date
        assert entry["total"] == sum(expected[date].values())
        assert set(entry["counts"]) == {s.value for s in RunStatus}
    assert body["since"].startswith(
        dt.datetime.combine(days[0], dt.time(), tzinfo=kolkata).astimezone(dt.UTC).isoformat()[:19]
    )
    assert body["totals"]["runs"] == 4
    assert body["totals"]["by_status"]["failed"] == 1
    assert body["totals"]["success_rate"] == 2 / 4  # successful / (successful + failed + error)

    # the same runs in UTC: each falls on its UTC date
    utc = _dashboard(client, days=7)
    counted = {d["day"]: d["total"] for d in utc["per_day"] if d["total"]}
    expected_utc = Counter(at.astimezone(dt.UTC).date().isoformat() for at in instants)
    assert counted == dict(expected_utc)  # all within the last 7 UTC days
    assert utc["tz"] == "UTC"
    assert len(utc["per_day"]) == 7


def test_a_day_across_a_daylight_saving_change_is_counted_in_local_time(
    client: TestClient,
) -> None:
    """Day bounds from Python's zone database, both sides of a change (Berlin, 30 March 2025:
    02:00 CET became 03:00 CEST, a 23-hour day) and of local midnight, counted in SQL."""
    project = make_project(client, "dst")
    t = _templates(client, project, "patch")["patch"]
    berlin = ZoneInfo("Europe/Berlin")
    instants = [
        dt.datetime(2025, 3, 29, 23, 0, 0, tzinfo=dt.UTC),  # 30 Mar 00:00 CET
        dt.datetime(2025, 3, 29, 22, 59, 59, 999999, tzinfo=dt.UTC),  # 29 Mar 23:59:59.999999
        dt.datetime(2025, 3, 30, 0, 59, 59, tzinfo=dt.UTC),  # 30 Mar 01:59:59 CET
        dt.datetime(2025, 3, 30, 1, 0, 0, tzinfo=dt.UTC),  # 30 Mar 03:00 CEST
        dt.datetime(2025, 3, 30, 21, 59, 59, tzinfo=dt.UTC),  # 30 Mar 23:59:59 CEST
        dt.datetime(2025, 3, 30, 22, 0, 0, tzinfo=dt.UTC),  # 31 Mar 00:00 CEST
        dt.datetime(2025, 1, 10, 23, 0, 0, tzinfo=dt.UTC),  # 11 Jan 00:00 CET
        dt.datetime(2024, 12, 1, 12, 0, 0, tzinfo=dt.UTC),  # before the window
    ]
    for at in instants:
        _insert(client, project, t, S, created_at=at)
    win = window(90, "Europe/Berlin", dt.datetime(2025, 4, 2, 12, tzinfo=dt.UTC))
    day = win.dates.index(dt.date(2025, 3, 30))
    assert win.bounds[day + 1] - win.bounds[day] == dt.timedelta(hours=23)
    with _runtime(client).sessions() as session:
        admin = session.scalars(select(User).where(User.username == "admin")).one()
        counted = service.runs_per_day(session, Actor(admin, TokenScope.READ, "token"), win)
    got = {d.day: d.total for d in counted if d.total}
    assert got == Counter(a.astimezone(berlin).date() for a in instants if a >= win.start)
    assert got == {
        dt.date(2025, 1, 11): 1,
        dt.date(2025, 3, 29): 1,
        dt.date(2025, 3, 30): 4,
        dt.date(2025, 3, 31): 1,
    }


def test_failing_templates_are_those_whose_latest_finished_run_failed(client: TestClient) -> None:
    project = make_project(client, "health")
    t = _templates(client, project, "broken", "fixed", "aborted", "healthy")
    now = utcnow()

    def runs(name: str, *statuses: RunStatus) -> list[int]:
        return [
            _insert(
                client,
                project,
                t[name],
                status,
                created_at=now - dt.timedelta(hours=10 - n),
                finished_at=now - dt.timedelta(hours=10 - n, minutes=-5),
            )
            for n, status in enumerate(statuses)
        ]

    broken = runs("broken", S, F, E)
    runs("fixed", F, S)
    aborted = runs("aborted", RunStatus.TIMED_OUT, C)  # a cancel says nothing of its health
    runs("healthy", S, S)
    # a failure before the window is not this window's story
    _insert(client, project, t["healthy"], F, created_at=now - dt.timedelta(days=30))

    failing = _dashboard(client, days=7)["failing_templates"]
    assert [f["template_name"] for f in failing] == ["aborted", "broken"]  # latest failure first
    by_name = {f["template_name"]: f for f in failing}
    assert by_name["broken"] | {"last_failure_at": None} == {
        "project_id": project,
        "project_name": "health",
        "template_id": t["broken"],
        "template_name": "broken",
        "failures": 2,
        "finished": 3,
        "failure_rate": 2 / 3,
        "last_failure_at": None,
        "last_failed_run_id": broken[2],
        "last_status": "error",
    }
    last = dt.datetime.fromisoformat(by_name["broken"]["last_failure_at"])
    assert abs(last - (now - dt.timedelta(hours=8, minutes=-5))) < dt.timedelta(seconds=1)
    assert by_name["aborted"]["last_failed_run_id"] == aborted[0]
    assert by_name["aborted"]["failure_rate"] == 1.0
    assert _dashboard(client, days=7)["totals"]["failing_templates"] == 2


def test_running_and_queued_runs_say_why_they_wait(client: TestClient) -> None:
    project = make_project(client, "busy")
    limited = client.patch(f"/api/v1/projects/{project}", json={"max_parallel_runs": 1})
    assert limited.status_code == 200, limited.text
    t = _templates(client, project, "long")["long"]
    running = _insert(client, project, t, RunStatus.RUNNING)
    queued = [_insert(client, project, t, RunStatus.QUEUED, started_at=None) for _ in range(2)]

    body = _dashboard(client)
    assert [r["id"] for r in body["running"]] == [running]
    assert body["running"][0]["template_name"] == "long"
    assert body["running"][0]["project_name"] == "busy"
    assert body["running"][0]["waiting_reason"] is None
    assert [r["id"] for r in body["queued"]] == queued  # in claim order
    assert {r["waiting_reason"] for r in body["queued"]} == {
        "project limit reached (1 of 1 runs running)"
    }
    assert (body["totals"]["running"], body["totals"]["queued"]) == (1, 2)
    today = body["per_day"][-1]
    assert (today["counts"]["running"], today["counts"]["queued"]) == (1, 2)


def test_a_user_sees_only_what_the_runs_list_shows_them(client: TestClient) -> None:
    """A ``run`` grant on one template: its runs only (the runs list's rule); a viewer of the
    project: all of its runs; a user with no role: nothing at all."""
    mine, other = make_project(client, "mine"), make_project(client, "other")
    t = _templates(client, mine, "granted", "hidden")
    t_other = _templates(client, other, "elsewhere")["elsewhere"]
    for name, statuses in (("granted", (S, F, F)), ("hidden", (F, S, E))):
        for status in statuses:
            _insert(client, mine, t[name], status)
    _insert(client, mine, t["granted"], RunStatus.RUNNING)
    _insert(client, mine, t["hidden"], RunStatus.RUNNING)
    for status in (F, F, RunStatus.RUNNING):
        _insert(client, other, t_other, status)

    runner = make_user(client, "runner")
    granted = client.post(
        f"/api/v1/projects/{mine}/templates/{t['granted']}/grants",
        json={"user_id": runner["id"], "permission": "run"},
    )
    assert granted.status_code == 201, granted.text
    viewer = make_user(client, "viewer")
    role = client.put(
        f"/api/v1/projects/{mine}/members", json={"user_id": viewer["id"], "role": "viewer"}
    )
    assert role.status_code in (200, 201), role.text
    make_user(client, "nobody")

    for username, templates in (
        ("runner", {"granted"}),
        ("viewer", {"granted", "hidden"}),
        ("nobody", set()),
    ):
        web = browser(client)
        web.headers.update(bearer(token(client, username, scope="read")))
        body = _dashboard(web)
        listed = web.get("/api/v1/runs", params={"limit": 500}).json()["items"]
        by_status = Counter(r["status"] for r in listed)
        assert body["totals"]["by_status"] == {s.value: by_status[s.value] for s in RunStatus}
        assert body["totals"]["runs"] == len(listed)
        names = {r["template_name"] for r in listed}
        assert names == templates, username
        assert {f["template_name"] for f in body["failing_templates"]} == templates & {
            "granted",
            "hidden",
        }, username
        assert {r["template_name"] for r in body["running"]} == templates, username
        assert {r["id"] for r in body["running"]} <= {r["id"] for r in listed}
    admin = _dashboard(client)
    assert {r["template_name"] for r in admin["running"]} == {"granted", "hidden", "elsewhere"}
    assert admin["totals"]["runs"] == 11
