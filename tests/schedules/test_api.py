"""The schedules API: create, read, edit, delete, preview; validation errors
naming the field; launch values checked like a manual launch; every change audited."""

from __future__ import annotations

import datetime as dt
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import runs, services
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.schedules import YEARLY, count_below, create_below, make_schedule

from steward.keys import rotation
from steward.schedules.models import Schedule

SURVEY = [
    {"variable": "release", "label": "Release", "type": "text", "required": True},
    {"variable": "db_password", "label": "DB password", "type": "password", "required": True},
]
WEEKDAYS = "30 6 * * MON-FRI"


@pytest.fixture
def template_id(workbench: Workbench) -> int:
    return workbench.template(
        "ok.yml", name="deploy", overridable=["limit", "extra_vars"], survey=SURVEY
    )


def launch_values(**extra: Any) -> dict[str, Any]:
    return {"survey": {"release": "v1", "db_password": "hunter2-secret"}, **extra}


def schedules_url(workbench: Workbench, path: str = "") -> str:
    return workbench.url(f"schedules{path}")


def audit_of(client: TestClient, schedule_id: int) -> list[dict[str, Any]]:
    params: dict[str, str | int] = {"object_type": "schedule", "object_id": schedule_id}
    items: list[dict[str, Any]] = client.get("/api/v1/audit", params=params).json()["items"]
    return items[::-1]  # oldest first


def test_create_read_list_and_delete_are_audited(workbench: Workbench, template_id: int) -> None:
    client = workbench.client
    created = make_schedule(
        client,
        workbench.project_id,
        template_id,
        expression=WEEKDAYS,
        timezone="Europe/Berlin",
        launch=launch_values(limit="localhost", extra_vars={"x": 1}),
    )
    assert created["template_id"] == template_id
    assert created["template_name"] == "deploy"
    assert created["owner_name"] == "admin"
    assert created["enabled"] is True
    assert created["disabled_reason"] == ""
    assert created["missed_policy"] == "run_once"
    assert created["launch"]["survey"] == {"release": "v1", "db_password": "********"}
    assert created["launch"]["limit"] == "localhost"
    assert created["last_run_id"] is None
    nxt = dt.datetime.fromisoformat(created["next_fire_at"])
    assert nxt > dt.datetime.now(dt.UTC)
    local = nxt.astimezone(ZoneInfo("Europe/Berlin"))
    assert (local.hour, local.minute, local.weekday() < 5) == (6, 30, True)

    read = client.get(schedules_url(workbench, f"/{created['id']}")).json()
    assert read == created
    listed = client.get(schedules_url(workbench)).json()
    assert [s["id"] for s in listed["items"]] == [created["id"]]
    assert listed["total"] == 1
    of_template = client.get(workbench.url(f"templates/{template_id}/schedules")).json()
    assert [s["id"] for s in of_template["items"]] == [created["id"]]
    assert "hunter2" not in str(listed) + str(of_template)

    deleted = client.delete(schedules_url(workbench, f"/{created['id']}"))
    assert deleted.status_code == 204
    assert client.get(schedules_url(workbench, f"/{created['id']}")).status_code == 404
    records = audit_of(client, created["id"])
    assert [r["action"] for r in records] == ["schedule:create", "schedule:delete"]
    assert records[0]["changes"]["expression"] == [None, WEEKDAYS]
    assert records[0]["changes"]["launch"][1]["survey"]["db_password"] == "********"
    assert "hunter2" not in str(records)


def test_edit_keeps_what_is_not_sent_and_moves_the_next_occurrence(
    workbench: Workbench, template_id: int
) -> None:
    """The AWX/Semaphore complaint: weekdays lost on edit. A PATCH of the name or the
    description keeps the expression and the next occurrence; a new expression moves it."""
    client = workbench.client
    created = make_schedule(
        client, workbench.project_id, template_id, expression=WEEKDAYS, launch=launch_values()
    )
    url = schedules_url(workbench, f"/{created['id']}")
    renamed = client.patch(url, json={"name": "mornings", "description": "weekdays"})
    assert renamed.status_code == 200, renamed.text
    body = renamed.json()
    assert body["expression"] == WEEKDAYS
    assert body["next_fire_at"] == created["next_fire_at"]
    assert body["launch"] == created["launch"]
    assert (body["name"], body["description"]) == ("mornings", "weekdays")

    response = client.patch(url, json={"expression": "0 3 * * SAT"})
    assert response.status_code == 200, response.text
    moved = response.json()
    at = dt.datetime.fromisoformat(moved["next_fire_at"])
    assert (at.weekday(), at.hour, at.minute) == (5, 3, 0)
    assert moved["name"] == "mornings"

    changes = audit_of(client, created["id"])[-1]["changes"]
    assert changes["expression"] == [WEEKDAYS, "0 3 * * SAT"]
    assert "name" not in changes


def test_secret_answers_are_kept_when_sent_back_masked_and_replaced_when_given(
    workbench: Workbench, template_id: int
) -> None:
    client = workbench.client
    created = make_schedule(client, workbench.project_id, template_id, launch=launch_values())
    url = schedules_url(workbench, f"/{created['id']}")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]

    def sealed() -> dict[str, Any]:
        with runtime.sessions() as session:
            row = session.get_one(Schedule, created["id"])
            assert row.secret_launch is not None
            assert b"hunter2" not in row.secret_launch
            opened: dict[str, Any] = runtime.cipher.decrypt(row.secret_launch)
            return opened

    assert sealed() == {"survey": {"db_password": "hunter2-secret"}}
    # the console sends back what it read: the answer stays
    again = {"survey": {"release": "v2", "db_password": "********"}}
    kept = client.patch(url, json={"launch": again})
    assert kept.status_code == 200, kept.text
    assert kept.json()["launch"]["survey"] == {"release": "v2", "db_password": "********"}
    assert sealed() == {"survey": {"db_password": "hunter2-secret"}}

    replaced = client.patch(url, json={"launch": launch_values()})
    assert replaced.status_code == 200
    assert sealed() == {"survey": {"db_password": "hunter2-secret"}}
    new = {"survey": {"release": "v3", "db_password": "correct-horse"}}
    assert client.patch(url, json={"launch": new}).status_code == 200
    assert sealed() == {"survey": {"db_password": "correct-horse"}}
    last = audit_of(client, created["id"])[-1]
    assert last["detail"] == "secret survey answers changed: db_password"
    assert "correct-horse" not in str(audit_of(client, created["id"]))

    missing = client.patch(url, json={"launch": {"survey": {"release": "v4"}}})
    assert_problem(missing, 422, "launch.survey.db_password")

    # key rotation re-encrypts the sealed answers too
    report = rotation.rotate(runtime.sessions, runtime.settings.key_file, drop_old=True)
    assert report.reencrypted["schedule answers"] == 1
    assert sealed() == {"survey": {"db_password": "correct-horse"}}


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"expression": "* * * *"}, "expression"),
        ({"expression": "0 0 * * * *"}, "expression"),  # seconds: not a 5-field line
        ({"expression": "61 * * * *"}, "expression"),
        ({"expression": "0 0 31 2 *"}, "expression"),  # never fires
        ({"kind": "rrule", "expression": "FREQ=SOMETIMES"}, "expression"),
        ({"kind": "rrule", "expression": "FREQ=MINUTELY;BYSECOND=0,30"}, "expression"),
        (
            {"kind": "rrule", "expression": "FREQ=DAILY;COUNT=1", "start_at": "2020-01-01T00:00Z"},
            "expression",
        ),
        ({"kind": "sometimes"}, "kind"),
        ({"timezone": "Mars/Olympus_Mons"}, "timezone"),
        ({"timezone": "../../etc/passwd"}, "timezone"),
        ({"timezone": "localtime"}, "timezone"),
        ({"start_at": "2030-01-01T00:00:00"}, "start_at"),  # no offset: which zone?
        ({"start_at": "2030-01-02T00:00Z", "end_at": "2030-01-01T00:00Z"}, "end_at"),
        ({"end_at": "2021-01-01T00:00Z"}, "end_at"),
        ({"missed_policy": "replay_all"}, "missed_policy"),
        ({"launch": {"survey": {"release": "v1"}}}, "launch.survey.db_password"),
        ({"launch": {**launch_values(), "tags": "x"}}, "launch.tags"),  # not overridable
        (
            {"launch": {**launch_values(), "extra_vars": {"release": "x"}}},
            "launch.extra_vars.release",
        ),
        ({"launch": {**launch_values(), "limit": "@/etc/passwd"}}, "limit"),
        ({"name": ""}, "name"),
        ({"surprise": 1}, "surprise"),
    ],
)
def test_invalid_schedules_are_refused_naming_the_field(
    db_session: Session, body: dict[str, Any], field: str
) -> None:
    """Below HTTP (the request model's and the service's rules); the route's wiring:
    test_an_invalid_schedule_is_a_422_over_http."""
    template = runs.template(
        db_session,
        services.project(db_session),
        name="deploy",
        overridable=["limit", "extra_vars"],
        survey=SURVEY,
    )
    full = {"name": "s", "kind": "cron", "expression": YEARLY, "launch": launch_values(), **body}
    services.refused(lambda: create_below(db_session, template, full), field)
    assert count_below(db_session) == 0


def test_an_invalid_schedule_is_a_422_over_http(workbench: Workbench, template_id: int) -> None:
    full = {"name": "s", "kind": "cron", "expression": "61 * * * *", "launch": launch_values()}
    response = workbench.client.post(workbench.url(f"templates/{template_id}/schedules"), json=full)
    assert_problem(response, 422, "expression")
    tags = {**full, "expression": YEARLY, "launch": {**launch_values(), "tags": "x"}}
    response = workbench.client.post(workbench.url(f"templates/{template_id}/schedules"), json=tags)
    assert_problem(response, 422, "launch.tags")
    assert workbench.client.get(schedules_url(workbench)).json()["total"] == 0


@pytest.mark.both_databases
def test_names_are_unique_in_the_project(workbench: Workbench, template_id: int) -> None:
    make_schedule(workbench.client, workbench.project_id, template_id, launch=launch_values())
    again = workbench.client.post(
        workbench.url(f"templates/{template_id}/schedules"),
        json={"name": "nightly", "kind": "cron", "expression": YEARLY, "launch": launch_values()},
    )
    assert_problem(again, 409, "name")


def test_preview_in_the_schedule_zone_and_the_viewer_zone(
    workbench: Workbench, template_id: int
) -> None:
    created = make_schedule(
        workbench.client,
        workbench.project_id,
        template_id,
        kind="rrule",
        expression="FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=15",
        timezone="America/New_York",
        start_at="2027-03-01T00:00:00Z",
        end_at="2027-03-26T00:00:00Z",
        launch=launch_values(),
    )
    url = schedules_url(workbench, f"/{created['id']}/preview")
    preview = workbench.client.get(url, params={"count": 100, "viewer_tz": "Europe/Berlin"})
    assert preview.status_code == 200, preview.text
    body = preview.json()
    assert (body["timezone"], body["viewer_tz"]) == ("America/New_York", "Europe/Berlin")
    # New York moves to summer time on 14 March 2027, Berlin on 28 March: the gap is 5 h, then 4 h
    assert [(i["local"], i["viewer"]) for i in body["items"]] == [
        ("2027-03-01T09:15:00-05:00", "2027-03-01T15:15:00+01:00"),
        ("2027-03-04T09:15:00-05:00", "2027-03-04T15:15:00+01:00"),
        ("2027-03-08T09:15:00-05:00", "2027-03-08T15:15:00+01:00"),
        ("2027-03-11T09:15:00-05:00", "2027-03-11T15:15:00+01:00"),
        ("2027-03-15T09:15:00-04:00", "2027-03-15T14:15:00+01:00"),
        ("2027-03-18T09:15:00-04:00", "2027-03-18T14:15:00+01:00"),
        ("2027-03-22T09:15:00-04:00", "2027-03-22T14:15:00+01:00"),
        ("2027-03-25T09:15:00-04:00", "2027-03-25T14:15:00+01:00"),
    ]
    assert body["items"][0]["at"] in ("2027-03-01T14:15:00Z", "2027-03-01T14:15:00+00:00")
    assert created["next_fire_at"].startswith("2027-03-01T14:15:00")
    two = workbench.client.get(url, params={"count": 2}).json()
    assert [i["viewer"] for i in two["items"]] == [
        "2027-03-01T14:15:00Z",
        "2027-03-04T14:15:00Z",
    ]
    assert_problem(workbench.client.get(url, params={"count": 101}), 422, "count")
    assert_problem(workbench.client.get(url, params={"count": 0}), 422, "count")
    assert_problem(workbench.client.get(url, params={"viewer_tz": "Nowhere"}), 422, "viewer_tz")


def test_disabling_and_enabling_again(workbench: Workbench, template_id: int) -> None:
    client = workbench.client
    created = make_schedule(client, workbench.project_id, template_id, launch=launch_values())
    url = schedules_url(workbench, f"/{created['id']}")
    off = client.patch(url, json={"enabled": False}).json()
    assert (off["enabled"], off["next_fire_at"]) == (False, None)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:  # as the scheduler leaves it (tests/schedules/firing)
        session.get_one(Schedule, created["id"]).disabled_reason = "its owner was deleted"
        session.commit()
    assert client.get(url).json()["disabled_reason"] == "its owner was deleted"
    on = client.patch(url, json={"enabled": True}).json()
    assert (on["enabled"], on["disabled_reason"]) == (True, "")
    assert on["next_fire_at"] == created["next_fire_at"]
    nulls = client.patch(url, json={"expression": None})
    assert_problem(nulls, 422, "expression")
    cleared = client.patch(url, json={"start_at": "2030-01-01T00:00:00+02:00"}).json()
    assert cleared["next_fire_at"].startswith("2030-01-01T00:00:00")  # 2 h after start_at
    assert client.patch(url, json={"start_at": None}).json()["start_at"] is None


def test_the_owner_is_who_saved_it_last_and_must_be_allowed_to_launch(
    workbench: Workbench, template_id: int
) -> None:
    client = workbench.client
    created = make_schedule(client, workbench.project_id, template_id, launch=launch_values())
    url = schedules_url(workbench, f"/{created['id']}")
    manager = make_user(client, "mia")
    members = workbench.url("members")
    assert (
        client.put(members, json={"user_id": manager["id"], "role": "manager"}).status_code == 200
    )
    as_mia = TestClient(client.app, headers=bearer(token(client, "mia")))
    edited = as_mia.patch(url, json={"description": "mine now"})
    assert edited.status_code == 200, edited.text
    assert (edited.json()["owner_name"], edited.json()["owner_id"]) == ("mia", manager["id"])
    record = audit_of(client, created["id"])[-1]
    assert record["actor"] == "mia (token mia-write)"
    assert record["changes"]["owner_id"] == [created["owner_id"], manager["id"]]

    read_only = TestClient(client.app, headers=bearer(token(client, "mia", "read")))
    refused = read_only.patch(url, json={"description": "x"})
    assert refused.status_code == 403
    assert client.get(url).json()["description"] == "mine now"


def test_a_draft_is_previewed_as_it_would_be_saved(workbench: Workbench, template_id: int) -> None:
    recurrence = {
        "kind": "rrule",
        "expression": "FREQ=WEEKLY;BYDAY=MO,TH;BYHOUR=9;BYMINUTE=15",
        "timezone": "America/New_York",
        "start_at": "2027-03-01T00:00:00Z",
        "end_at": "2027-03-26T00:00:00Z",
    }
    saved = make_schedule(
        workbench.client, workbench.project_id, template_id, **recurrence, launch=launch_values()
    )
    params: dict[str, str | int] = {"count": 5, "viewer_tz": "Europe/Berlin"}
    url = schedules_url(workbench, f"/{saved['id']}/preview")
    expected = workbench.client.get(url, params=params).json()
    draft = workbench.client.post(workbench.url("schedules/preview"), json={**recurrence, **params})
    assert draft.status_code == 200, draft.text
    assert draft.json() == expected
    assert len(expected["items"]) == 5

    every_second = {"kind": "rrule", "expression": "FREQ=SECONDLY"}
    refused = workbench.client.post(workbench.url("schedules/preview"), json=every_second)
    assert "at least 60 s are required" in assert_problem(refused, 422, "expression")
    past = {**recurrence, "end_at": "2020-01-01T00:00:00Z", "start_at": None}
    refused = workbench.client.post(workbench.url("schedules/preview"), json=past)
    assert "in the past" in assert_problem(refused, 422, "end_at")
