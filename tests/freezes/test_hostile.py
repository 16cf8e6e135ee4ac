"""Hostile freeze windows and overrides, each probe with its control: an expensive rule, a
project owner reaching for the instance, another project's window, an offset smuggled into a
wall-clock time, an override by a credential that only runs, and a launcher shedding a
template's labels or a label that is no slug."""

from __future__ import annotations

import datetime as dt
import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import freezes as support
from support import runs as support_runs
from support import services
from support.builders import Workbench, assert_problem, make_project, member_client

from steward.access.actor import Actor
from steward.auth.models import TokenScope
from steward.errors import InvalidInput, NotFound, PermissionDenied
from steward.freezes import service as freezes

pytestmark = pytest.mark.security

API = "/api/v1"


@pytest.mark.parametrize(
    ("rrule", "refused"),
    [
        ("FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30", True),  # never matches: searched to year 9999
        ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28", False),  # the control
    ],
    ids=["never-matching", "control"],
)
def test_an_expensive_rule_is_a_422_within_the_budget(
    db_session: Session, rrule: str, refused: bool
) -> None:
    project = services.project(db_session)
    started = time.monotonic()
    if refused:
        with pytest.raises(InvalidInput) as caught:
            support.window(db_session, project, rrule=rrule, lasts=dt.timedelta(seconds=60))
        assert caught.value.field == "rrule"
    else:
        support.window(db_session, project, rrule=rrule, lasts=dt.timedelta(seconds=60))
    assert time.monotonic() - started < 1.0


@pytest.mark.parametrize(
    "rrule",
    [
        "DTSTART;TZID=/dev/stdin:20260101T000000\nFREQ=DAILY",
        "RRULE:FREQ=DAILY;UNTIL=20270101T000000Z\nEXDATE:20261224",
    ],
)
def test_a_rule_of_more_than_one_line_is_refused(db_session: Session, rrule: str) -> None:
    project = services.project(db_session)
    with pytest.raises(InvalidInput) as caught:
        support.window(db_session, project, rrule=rrule)
    assert caught.value.field == "rrule"


def test_a_wall_clock_time_with_an_offset_is_refused(db_session: Session) -> None:
    project = services.project(db_session)
    with pytest.raises(InvalidInput) as caught:
        support.window(db_session, project, starts_local="2026-12-20T00:00:00+01:00")
    assert caught.value.field == "starts_local"


def test_a_project_owner_may_not_keep_instance_windows(client: TestClient) -> None:
    project = make_project(client, "shop")
    owner = member_client(client, project, "owen", "owner")
    body = {"name": "mine", "starts_local": "2027-12-20T00:00", "ends_local": "2027-12-21T00:00"}
    refused = owner.post(f"{API}/freezes", json=body)
    assert_problem(refused, 403, "only a global admin")
    made = owner.post(f"{API}/projects/{project}/freezes", json=body)  # the control
    assert made.status_code == 201, made.text
    assert made.json()["scope"] == "project"
    assert client.post(f"{API}/freezes", json=body).status_code == 201  # an admin may


def test_another_projects_window_is_not_found(db_session: Session) -> None:
    ours, theirs = services.project(db_session, "ours"), services.project(db_session, "theirs")
    window = support.window(db_session, theirs)
    with pytest.raises(NotFound):
        freezes.get(db_session, window.id, ours)
    with pytest.raises(NotFound):
        freezes.get(db_session, window.id, None)  # nor an instance window
    assert freezes.get(db_session, window.id, theirs) is window  # the control


@pytest.mark.parametrize("scope", [TokenScope.RUN, TokenScope.WRITE], ids=["run-token", "control"])
def test_an_override_needs_more_than_a_run_token(db_session: Session, scope: TokenScope) -> None:
    project = services.project(db_session)
    template = support_runs.template(db_session, project, "ship", survey=[])
    support.window(db_session, None)
    admin = services.admin(db_session)
    token = Actor(user=admin.user, scope=scope, via="token")
    if scope is TokenScope.RUN:  # what schedules and webhooks launch with: their owner, capped
        with pytest.raises(PermissionDenied, match="'freeze:override'"):
            support.launch(db_session, project, template, token, reason="because")
    else:
        assert support.launch(db_session, project, template, token, reason="because").id


LABEL_PROBES = ["Prod", "prod\u202e", 'pr"od', "../prod", "prod\n", "-prod", "x" * 41]


def test_labels_come_from_the_template_and_are_slugs(workbench: Workbench) -> None:
    client = workbench.client
    template = workbench.template("ok.yml", labels=["prod"])
    start = (dt.datetime.now(dt.UTC) - dt.timedelta(hours=1)).replace(tzinfo=None, microsecond=0)
    body = {"name": "prod freeze", "starts_local": start.isoformat()}
    body["ends_local"] = (start + dt.timedelta(hours=2)).isoformat()
    for label in LABEL_PROBES:
        refused = client.post(workbench.url("freezes"), json={**body, "labels": [label]})
        assert_problem(refused, 422, "labels.0")
        renamed = client.patch(workbench.url(f"templates/{template}"), json={"labels": [label]})
        assert_problem(renamed, 422, "labels.0")
        listed = client.get(workbench.url("templates"), params={"label": label})
        assert_problem(listed, 422, "label")
    too_many = [f"l{i}" for i in range(21)]
    assert_problem(
        client.patch(workbench.url(f"templates/{template}"), json={"labels": too_many}),
        422,
        "labels",
    )
    made = client.post(workbench.url("freezes"), json={**body, "labels": ["prod"]})  # the control
    assert made.status_code == 201, made.text

    runs = workbench.url("runs")
    for shed in ([], ["web"]):  # a launch may not say which labels its template carries
        shedding = client.post(runs, json={"template_id": template, "labels": shed})
        assert_problem(shedding, 422, "labels")
    frozen = client.post(runs, json={"template_id": template})  # the control: it is frozen
    assert_problem(frozen, 409, "frozen: 'prod freeze' until ")
