"""Schedules as a hostile user writes them: Jinja in launch values fired by the scheduler
arrives as literal text, expressions that are huge, malformed or absurdly frequent are refused,
zones are names of the zone database and nothing else, objects of another project are not
found, secret answers never come back, and nobody gets more than their rights through a
schedule."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import runs, services
from support.builders import (
    Workbench,
    assert_problem,
    bearer,
    localhost_project,
    make_user,
    post,
    token,
)
from support.schedules import (
    YEARLY,
    count_below,
    create_below,
    make_due,
    make_schedule,
    preview_below,
    preview_draft_below,
)
from support.waits import wait_until

from steward.bounds import JSON_MAX_BYTES, SCHEDULE_EXPRESSION_MAX
from steward.config import Settings
from steward.masking import MASK

pytestmark = pytest.mark.security

ECHO = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "{{ {'evil': evil, 'nested': nested, 'answer': answer, 'secret': secret} | to_json }}"
    - name: the template's own variables are still templates
      ansible.builtin.debug: {msg: "control={{ control }}"}
"""
SURVEY = [
    {"variable": "answer", "label": "answer", "type": "text", "required": True},
    {"variable": "secret", "label": "secret", "type": "password", "required": True},
]


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"scheduler_tick_seconds": 0.1})


def payload(marker: Path) -> str:
    """Jinja that would create ``marker`` on the server if it were evaluated."""
    return "{{ lookup('pipe', 'touch " + str(marker) + "') }}"


def echoed(text: str) -> dict[str, Any]:
    """The variables as the playbook printed them (the debug message; colours removed)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", text)
    start = text.index('"msg": ') + len('"msg": ')
    value: dict[str, Any] = json.loads(json.loads(text[start : text.index("\n", start)]))
    return value


def create(workbench: Workbench, template_id: int, **body: Any) -> Any:
    full = {"name": "s", "kind": "cron", "expression": YEARLY, **body}
    return workbench.client.post(workbench.url(f"templates/{template_id}/schedules"), json=full)


@pytest.mark.loops("scheduler")
@pytest.mark.sqlite_only  # what reaches Ansible does not depend on the database
def test_jinja_in_launch_values_arrives_literal_in_the_scheduled_run(
    workbench: Workbench, settings: Settings, markers_dir: Path
) -> None:
    (workbench.repo_dir / "echo.yml").write_text(ECHO)
    template = workbench.template(
        "echo.yml",
        overridable=["extra_vars"],
        survey=SURVEY,
        extra_vars={"control": payload(markers_dir / "control")},
    )
    markers = [markers_dir / f"pwned-{n}" for n in range(4)]
    nested = {"list": [payload(markers[0])], payload(markers[1]): "key"}
    schedule = make_schedule(
        workbench.client,
        workbench.project_id,
        template,
        launch={
            "extra_vars": {"evil": payload(markers[2]), "nested": nested},
            "survey": {"answer": payload(markers[3]), "secret": "p4ss{{ 6 * 7 }}"},
        },
    )
    make_due(settings.database_url, schedule["id"])
    run_id = wait_until(
        lambda: workbench.client.get(workbench.url(f"schedules/{schedule['id']}")).json()[
            "last_run_id"
        ],
        timeout=20,
        what="the scheduled run",
    )
    done = workbench.wait(run_id)
    text = workbench.text(run_id)
    assert done["status"] == "successful", text
    assert (done["launch_type"], done["schedule_id"]) == ("schedule", schedule["id"])
    seen = echoed(text)
    assert seen["evil"] == payload(markers[2])
    assert seen["nested"] == nested
    assert seen["answer"] == payload(markers[3])
    assert seen["secret"] == MASK  # the secret answer arrived, and is masked in the output
    assert (markers_dir / "control").exists(), "a run could not write there: the test is void"
    assert [m for m in markers if m.exists()] == []
    assert done["params"]["secret_extra_vars"] == {"secret": MASK}
    assert done["params"]["launch_vars"]["answer"] == payload(markers[3])


@pytest.mark.parametrize(
    ("kind", "expression", "cause"),
    [
        ("cron", "*" * (SCHEDULE_EXPRESSION_MAX + 1), "at most"),
        ("rrule", "FREQ=DAILY;BYHOUR=" + ",".join(["1"] * 600), "at most"),
        ("cron", "", "at least 1"),
        ("cron", "0 0 * * *\n* * * * *", "5 fields"),  # a second line
        ("cron", "0 0 * * * /bin/sh -c id", "5 fields"),  # a crontab command
        ("cron", "@reboot", "5 fields"),
        ("cron", "\x00 0 * * *", "cron"),
        ("cron", "*/0 * * * *", "cron"),
        ("rrule", "FREQ=SECONDLY", "at least 60 s"),  # once a second: refused by default
        ("rrule", "FREQ=MINUTELY;BYSECOND=0,1", "at least 60 s"),
        ("rrule", "FREQ=DAILY;COUNT=-1", "never fire"),
        ("rrule", "FREQ=DAILY;INTERVAL=0", "INTERVAL"),
        ("rrule", "FREQ=MINUTELY;INTERVAL=-5", "INTERVAL"),
        ("rrule", "FREQ=DAILY;UNTIL=99999999T999999", "5545"),
        ("rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", "never fire"),
        # dateutil would open a file named by the TZID: none is looked up
        ("rrule", "RRULE:FREQ=DAILY\nEXDATE;TZID=../../etc/passwd:20270101T000000", "5545"),
        ("rrule", "DTSTART;TZID=/dev/stdin:20270101T000000\nRRULE:FREQ=DAILY", "5545"),
        ("rrule", "FREQ=DAILY;UNTIL=20300101T000000 Europe/Berlin", "5545"),
        ("rrule", "DTSTART;TZID=Europe/Berlin:20270101T000000\nRRULE:FREQ=DAILY", "TZID"),
        ("rrule", "X-INJECT:{{ lookup('pipe', 'id') }}", "5545"),
    ],
)
def test_hostile_expressions_are_refused(
    db_session: Session, kind: str, expression: str, cause: str
) -> None:
    """Below HTTP (the request model's and the recurrence's rules); over HTTP, a refused
    expression: test_a_hostile_expression_is_a_422_over_http."""
    template = runs.template(db_session, services.project(db_session))
    started = time.monotonic()
    body = {"name": "s", "kind": kind, "expression": expression}
    detail = services.refused(lambda: create_below(db_session, template, body), "expression")
    assert cause in detail
    # the form's live preview refuses it the same way, as fast
    draft = {"kind": kind, "expression": expression}
    assert cause in services.refused(lambda: preview_draft_below(draft), "expression")
    assert time.monotonic() - started < 10
    assert count_below(db_session) == 0


def test_a_hostile_expression_is_a_422_over_http(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    hostile = {"kind": "cron", "expression": "0 0 * * * /bin/sh -c id"}
    assert "5 fields" in assert_problem(create(workbench, template, **hostile), 422, "expression")
    previewed = workbench.client.post(workbench.url("schedules/preview"), json=hostile)
    assert "5 fields" in assert_problem(previewed, 422, "expression")
    zoned = create(workbench, template, timezone="../../../../etc/passwd")
    assert_problem(zoned, 422, "timezone")
    assert workbench.client.get(workbench.url("schedules")).json()["total"] == 0


@pytest.mark.parametrize(
    "zone",
    ["../../../../etc/passwd", "/usr/share/zoneinfo/UTC", "localtime", "Factory", "UTC\x00",
     "Europe/Berlin/..", "europe/berlin", "x" * 65, ""],
)  # fmt: skip
def test_zones_are_iana_names_only(db_session: Session, zone: str) -> None:
    """Below HTTP; over HTTP: test_a_hostile_expression_is_a_422_over_http (a saved zone) and
    tests/schedules/test_api.py (a viewer's zone)."""
    template = runs.template(db_session, services.project(db_session))
    body = {"name": "s", "kind": "cron", "expression": YEARLY}
    services.refused(
        lambda: create_below(db_session, template, {**body, "timezone": zone}), "timezone"
    )
    made = create_below(db_session, template, body)
    services.refused(lambda: preview_below(made, {"viewer_tz": zone}), "viewer_tz")
    draft = {"kind": "cron", "expression": YEARLY}
    services.refused(lambda: preview_draft_below({**draft, "timezone": zone}), "timezone")
    services.refused(lambda: preview_draft_below({**draft, "viewer_tz": zone}), "viewer_tz")


def test_objects_of_another_project_are_not_found(workbench: Workbench) -> None:
    client = workbench.client
    template = workbench.template("ok.yml", overridable=["inventory_id"])
    other = localhost_project(client, workbench.repo_dir, "other", inventory="theirs")
    base = f"/api/v1/projects/{other['project']}"
    theirs = post(
        client,
        f"{base}/templates",
        {
            "name": "theirs",
            "playbook": "ok.yml",
            "repository_id": other["repository"],
            "inventory_id": other["inventory"],
        },
    )
    their_schedule = make_schedule(client, other["project"], theirs["id"])
    body = {"name": "x", "kind": "cron", "expression": YEARLY}
    # their template through our project; their schedule through our project
    assert (
        client.post(workbench.url(f"templates/{theirs['id']}/schedules"), json=body).status_code
        == 404
    )
    for method in ("GET", "PATCH", "DELETE"):
        url = workbench.url(f"schedules/{their_schedule['id']}")
        assert client.request(method, url, json={}).status_code == 404
    assert client.get(workbench.url(f"schedules/{their_schedule['id']}/preview")).status_code == 404
    # their inventory as our launch value
    refused = create(workbench, template, launch={"inventory_id": other["inventory"]})
    detail = assert_problem(refused, 422, "launch.inventory_id")
    assert "does not exist in this project" in detail
    huge = client.get(workbench.url("schedules/99999999999999999999"))
    assert huge.status_code in (404, 422)


def test_oversized_launch_values_are_refused(workbench: Workbench) -> None:
    template = workbench.template("ok.yml", overridable=["extra_vars"])
    big = {"blob": "x" * JSON_MAX_BYTES}
    assert_problem(create(workbench, template, launch={"extra_vars": big}), 422, "extra_vars")
    many = {"survey": {f"q{n}": "a" for n in range(1000)}}
    assert_problem(create(workbench, template, launch=many), 422, "survey")
    unknown = create(workbench, template, launch={"playbook": "/etc/passwd"})
    assert_problem(unknown, 422, "playbook")


def test_secret_answers_never_come_back(workbench: Workbench) -> None:
    client = workbench.client
    template = workbench.template("ok.yml", survey=SURVEY)
    secret = "s3cr3t-answer-value"
    made = make_schedule(
        client,
        workbench.project_id,
        template,
        launch={"survey": {"answer": "a", "secret": secret}},
    )
    url = workbench.url(f"schedules/{made['id']}")
    seen = [
        made,
        client.get(url).json(),
        client.get(workbench.url("schedules")).json(),
        client.get(workbench.url(f"templates/{template}/schedules")).json(),
        client.get(f"{url}/preview").json(),
        client.patch(url, json={"description": "x"}).json(),
        client.get("/api/v1/audit", params={"object_type": "schedule"}).json(),
        client.get("/api/v1/audit/export").text,
    ]
    assert secret not in str(seen)
    assert client.get(url).json()["launch"]["survey"]["secret"] == MASK


def test_a_schedule_gives_nobody_more_than_their_rights(workbench: Workbench) -> None:
    """An operator (run, not write) cannot create or change schedules; a run grant on one
    template neither, and sees nothing of the other templates' schedules."""
    client = workbench.client
    mine = workbench.template("ok.yml")
    hidden = workbench.template("ok.yml", name="hidden")
    schedule = make_schedule(client, workbench.project_id, hidden)
    members = workbench.url("members")
    operator = make_user(client, "olga")
    role = {"user_id": operator["id"], "role": "operator"}
    assert client.put(members, json=role).status_code == 200
    as_operator = TestClient(client.app, headers=bearer(token(client, "olga")))
    body = {"name": "mine", "kind": "cron", "expression": YEARLY}
    refused = as_operator.post(workbench.url(f"templates/{mine}/schedules"), json=body)
    assert refused.status_code == 403
    assert "template:write" in refused.json()["detail"]
    url = workbench.url(f"schedules/{schedule['id']}")
    assert as_operator.patch(url, json={"enabled": False}).status_code == 403
    assert as_operator.get(url).status_code == 200

    runner = make_user(client, "rita")
    grant = {"user_id": runner["id"], "permission": "run"}
    assert client.post(workbench.url(f"templates/{mine}/grants"), json=grant).status_code == 201
    as_runner = TestClient(client.app, headers=bearer(token(client, "rita")))
    assert as_runner.get(url).status_code == 404
    assert as_runner.get(f"{url}/preview").status_code == 404
    assert as_runner.get(workbench.url("schedules")).json()["items"] == []
    refused = as_runner.post(workbench.url(f"templates/{mine}/schedules"), json=body)
    assert refused.status_code == 403


def test_the_mask_is_no_answer_where_no_secret_answer_is_saved(workbench: Workbench) -> None:
    # '********' keeps a saved secret answer; with none saved it must not become the answer
    template = workbench.template("ok.yml", survey=SURVEY)
    masked = {"survey": {"answer": "a", "secret": MASK}}
    assert_problem(create(workbench, template, launch=masked), 422, "launch.survey.secret")
    made = create(workbench, template, launch={"survey": {"answer": "a", "secret": "real"}})
    assert made.status_code == 201, made.text
    url = workbench.url(f"schedules/{made.json()['id']}")
    kept = workbench.client.patch(url, json={"launch": masked})
    assert kept.status_code == 200, kept.text  # the saved answer is kept
