"""Every expression the server evaluates for a user has a budget: recurrences, cron lines, YAML
text, globs and regexes that would cost seconds (or years) of CPU are refused with a 422 naming
the field, fast; each kind has a control, an ordinary expression that the same path evaluates
and answers. Previews and tests are also limited per user (429 with Retry-After).

The CPU bound asserted is generous (1 s of the whole test process, on a shared 2-core machine);
the budgets themselves stop well under 0.2 s. Before them, a never-matching RRULE cost ~7.5 s
(dateutil searched to the year 9999) and ``FREQ=SECONDLY;BYSETPOS=2`` hours.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session
from support import services
from support.builders import Workbench, assert_problem, bearer, make_user, token
from support.schedules import preview_draft_below

from steward.config import Settings
from steward.environments import service as environments
from steward.environments.models import Environment
from steward.environments.schemas import EnvironmentCreate
from steward.inventories.resolve import Group, Host, ResolvedInventory
from steward.metrics.limit import selected
from steward.webhooks.matching import miss

pytestmark = pytest.mark.security

CPU_MAX = 1.0  # seconds of the test process's CPU for one refused request
HOURS = ",".join(str(h) for h in range(24))
SIXTY = ",".join(str(m) for m in range(60))
NEVER = "BYMONTH=2;BYMONTHDAY=30"  # 30 February


def laughs(levels: int) -> str:
    """A "billion laughs": each anchor a list of nine aliases of the one before."""
    lines = ['l0: &l0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for n in range(1, levels + 1):
        lines.append(f"l{n}: &l{n} [" + ",".join([f"*l{n - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def as_viewer(client: TestClient, project_url: str, username: str = "vera") -> TestClient:
    """A user who may only look at the project (the least that may ask for a preview)."""
    user = make_user(client, username)
    role = {"user_id": user["id"], "role": "viewer"}
    assert client.put(f"{project_url}/members", json=role).status_code == 200
    return TestClient(client.app, headers=bearer(token(client, username, "read")))


def timed(send: Any) -> tuple[Any, float]:
    started = time.process_time()
    response = send()
    return response, time.process_time() - started


# --- recurrences and cron lines, through the schedule form's preview --------------------------


@pytest.mark.parametrize(
    ("kind", "expression", "cause"),
    [
        # a rule that can never match, of each FREQ: dateutil alone searches to 9999
        *[("rrule", f"FREQ={freq};{NEVER}", "never fire") for freq in (
            "SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY")],
        ("rrule", "FREQ=YEARLY;BYWEEKNO=53;BYMONTH=1;BYYEARDAY=200", "never fire"),
        ("rrule", "FREQ=YEARLY;BYEASTER=0;BYMONTH=1", "never fire"),
        # a leap day every four years, from a year that is not a leap year
        ("rrule", "DTSTART:20250301T000000\nRRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=2;BYMONTHDAY=29",
         "never fire"),
        # BYSETPOS past the end of every set: nothing ever yielded, a turn per second
        ("rrule", "FREQ=SECONDLY;BYSETPOS=2", "too long"),
        ("rrule", "FREQ=MINUTELY;BYSETPOS=-2", "too long"),
        ("rrule", f"FREQ=DAILY;{NEVER};BYSETPOS=1", "too long"),
        ("rrule", f"FREQ=YEARLY;{NEVER};BYSETPOS=" + ",".join(map(str, range(1, 200))),
         "never fire"),
        # every occurrence excluded by an EXRULE
        ("rrule", "RRULE:FREQ=SECONDLY\nEXRULE:FREQ=SECONDLY", "too long"),
        ("rrule", "RRULE:FREQ=DAILY\nEXRULE:FREQ=DAILY", "too long"),
        # huge COUNT from long ago: every occurrence since 1900 to go through
        ("rrule", "DTSTART:19000101T000000\nRRULE:FREQ=MINUTELY;COUNT=2000000000", "too long"),
        ("rrule", "DTSTART:19000101T000000\nRRULE:FREQ=SECONDLY;COUNT=2000000000;INTERVAL=61",
         "too long"),
        # huge INTERVAL: dateutil walks to the next period a month at a time
        ("rrule", "FREQ=DAILY;INTERVAL=2147483647", "too long"),
        ("rrule", "\n".join(["RRULE:FREQ=MINUTELY;INTERVAL=99999999"] * 25), "too long"),
        # 86,400 times of day built by dateutil for each rule it makes
        ("rrule", f"FREQ=YEARLY;BYHOUR={HOURS};BYMINUTE={SIXTY};BYSECOND={SIXTY}", "times of day"),
        # a turn costing a day of BYHOUR/BYMINUTE/BYSECOND steps, never matching
        ("rrule", f"FREQ=SECONDLY;BYHOUR=0;BYMINUTE=0;BYSECOND=0;{NEVER}", "too long"),
        # cron lines that never match: croniter gives up after 50 years
        ("cron", "0 0 30 2 *", "never fire"),
        ("cron", "* * 31 2 *", "never fire"),
        ("cron", "0 0 31 4,6,9,11 *", "never fire"),
        ("cron", "0 0 31 2 1#5", "never fire"),
    ],
)  # fmt: skip
def test_expressions_that_cost_too_much_are_refused_fast(
    kind: str, expression: str, cause: str
) -> None:
    """Below HTTP: the preview's own check (``schedules.service.preview_draft``, reading no
    database); through the route, as a viewer: test_a_costly_expression_is_refused_over_http."""
    draft = {"kind": kind, "expression": expression, "count": 10}
    detail, cpu = timed(lambda: services.refused(lambda: preview_draft_below(draft), "expression"))
    assert cause in detail
    assert cpu < CPU_MAX, f"{cpu:.2f} s of CPU"


@pytest.mark.parametrize(
    ("kind", "expression", "expected"),
    [
        ("rrule", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0",
         ["2030-01-01T09:00:00Z", "2030-01-02T09:00:00Z", "2030-01-03T09:00:00Z"]),
        ("rrule", "FREQ=MINUTELY;INTERVAL=15;BYHOUR=9",
         ["2030-01-01T09:00:00Z", "2030-01-01T09:15:00Z", "2030-01-01T09:30:00Z"]),
        ("rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
         ["2032-02-29T00:00:00Z", "2036-02-29T00:00:00Z", "2040-02-29T00:00:00Z"]),
        ("rrule", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=18;BYMINUTE=0",
         ["2030-01-31T18:00:00Z", "2030-02-28T18:00:00Z", "2030-03-29T18:00:00Z"]),
        ("rrule", "RRULE:FREQ=DAILY;BYHOUR=6;BYMINUTE=0\nEXRULE:FREQ=WEEKLY;BYDAY=WE;BYHOUR=6",
         ["2030-01-01T06:00:00Z", "2030-01-03T06:00:00Z", "2030-01-04T06:00:00Z"]),
        ("cron", "0 0 29 2 *",
         ["2032-02-29T00:00:00Z", "2036-02-29T00:00:00Z", "2040-02-29T00:00:00Z"]),
        ("cron", "30 8 * * 1-5",
         ["2030-01-01T08:30:00Z", "2030-01-02T08:30:00Z", "2030-01-03T08:30:00Z"]),
    ],
)  # fmt: skip
def test_control_ordinary_expressions_are_previewed(
    kind: str, expression: str, expected: list[str]
) -> None:
    """The same path: an ordinary rule of each kind answers its occurrences (1 January 2030
    is a Tuesday), as the route serializes them."""
    draft = {"kind": kind, "expression": expression, "count": 3, "start_at": "2030-01-01T00:00Z"}
    answer = preview_draft_below(draft).model_dump(mode="json")
    found = [item["at"].replace("+00:00", "Z") for item in answer["items"]]
    assert found == expected


def test_a_costly_expression_is_refused_over_http(workbench: Workbench) -> None:
    """The route's wiring, as the least who may ask (a viewer): a never-matching rule is a
    422 naming the expression, fast; an ordinary one is answered."""
    viewer = as_viewer(workbench.client, workbench.url("")[:-1])
    url = workbench.url("schedules/preview")
    draft = {"kind": "rrule", "expression": f"FREQ=DAILY;{NEVER}", "count": 10}
    response, cpu = timed(lambda: viewer.post(url, json=draft))
    assert "never fire" in assert_problem(response, 422, "expression")
    assert cpu < CPU_MAX, f"{cpu:.2f} s of CPU"
    ordinary = {"kind": "cron", "expression": "30 8 * * 1-5", "start_at": "2030-01-01T00:00Z"}
    answered = viewer.post(url, json={**ordinary, "count": 1})
    assert answered.status_code == 200, answered.text
    assert [item["at"] for item in answered.json()["items"]] == ["2030-01-01T08:30:00Z"]


# --- YAML from a request ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cause"),
    [
        (laughs(9), "values, aliases expanded"),  # 9^10 values from 400 characters
        ("a: [" + "1," * 60_000 + "]", "values"),  # plain, but more values than a form holds
        ("a: " + "[" * 100_000 + "]" * 100_000, "nested"),  # libyaml's composer would crash
        ("a:\n" + "".join("  " * n + "- \n" for n in range(1, 400)), "nested"),
    ],
    ids=["billion-laughs", "120k-values", "nested-flow-100k", "nested-block-400"],
)
def test_hostile_extra_vars_yaml_is_refused_fast(
    db_session: Session, text: str, cause: str
) -> None:
    """Below HTTP (the request model's and the service's rules, as the route validates its
    JSON); over HTTP: test_control_extra_vars_yaml_with_aliases_is_loaded."""
    project = services.project(db_session)
    body = json.dumps({"name": "laughs", "extra_vars_yaml": text})

    def create() -> Environment:
        sent = EnvironmentCreate.model_validate_json(body)
        return environments.create(db_session, project, sent, actor=services.admin(db_session))

    detail, cpu = timed(lambda: services.refused(create, "extra_vars_yaml"))
    assert cause in detail
    assert cpu < CPU_MAX, f"{cpu:.2f} s of CPU"


def test_control_extra_vars_yaml_with_aliases_is_loaded(workbench: Workbench) -> None:
    bomb = {"name": "laughs", "extra_vars_yaml": laughs(9)}
    refused, cpu = timed(lambda: workbench.client.post(workbench.url("environments"), json=bomb))
    assert "values, aliases expanded" in assert_problem(refused, 422, "extra_vars_yaml")
    assert cpu < CPU_MAX, f"{cpu:.2f} s of CPU"
    text = "base: &base {port: 80, tls: false}\nweb:\n  <<: *base\n  port: 443\nmore: *base\n"
    body = {"name": "anchored", "extra_vars_yaml": text}
    created = workbench.client.post(workbench.url("environments"), json=body)
    assert created.status_code == 201, created.text
    assert created.json()["extra_vars"] == {
        "base": {"port": 80, "tls": False},
        "web": {"port": 443, "tls": False},
        "more": {"port": 80, "tls": False},
    }


def test_an_inventory_alias_bomb_is_refused_before_ansible_reads_it(workbench: Workbench) -> None:
    """ansible-inventory would expand it into gigabytes of JSON (until its timeout)."""
    bomb = "all:\n  hosts:\n    web1:\n  vars:\n" + "".join(
        "    " + line + "\n" for line in laughs(9).splitlines()
    )
    body = {"format": "yaml", "content": bomb}
    url = workbench.url("inventories/preview")
    response, cpu = timed(lambda: workbench.client.post(url, json=body))
    assert "values, aliases expanded" in assert_problem(response, 422, "content")
    assert cpu < CPU_MAX, f"{cpu:.2f} s of CPU"
    # control: the same inventory with a few aliases is read by Ansible
    body["content"] = "all:\n  hosts:\n    web1: &h {port: 22}\n    web2: *h\n"
    previewed = workbench.client.post(url, json=body)
    assert previewed.status_code == 200, previewed.text
    assert sorted(h["name"] for h in previewed.json()["hosts"]) == ["web1", "web2"]


# --- globs and regexes ------------------------------------------------------------------------


def test_a_webhook_glob_never_backtracks_for_long() -> None:
    """A matcher's glob against a 1 MiB body string: fnmatch's translation never backtracks
    without bound (Python >= 3.9); control: the same glob matches an ordinary value."""
    glob = "*a" * 90 + "b"
    body = {"ref": "a" * (1024 * 1024)}
    started = time.process_time()
    assert miss("body", "ref", "glob", glob, body, {}) is not None
    assert time.process_time() - started < CPU_MAX
    assert miss("body", "ref", "glob", "refs/tags/v*", {"ref": "refs/tags/v1.2"}, {}) is None


def test_a_limit_regex_is_not_run_by_the_server() -> None:
    """``~(a+)+$`` against a host name of 40 a's and a b backtracks for minutes in Python's
    engine: the server does not evaluate a limit's regex (the run's Ansible does); control: a
    glob of the same limit is understood."""
    inventory = ResolvedInventory(
        hosts=[Host("a" * 40 + "b", ["all"], {}), Host("web1", ["all"], {})],
        groups=[Group("all", ["a" * 40 + "b", "web1"], [], {})],
    )
    started = time.process_time()
    assert selected(inventory, "~(a+)+$") is None
    assert selected(inventory, "all:!~(a|aa)+$") is None
    assert time.process_time() - started < CPU_MAX
    assert selected(inventory, "web*") == {"web1"}


# --- the rate of previews and tests per user ---------------------------------------------------


@pytest.fixture
def settings(settings: Settings) -> Settings:
    return settings.model_copy(update={"preview_max_per_minute": 3})


def test_previews_are_limited_per_user(workbench: Workbench) -> None:
    project_url = workbench.url("")[:-1]
    vera = as_viewer(workbench.client, project_url, "vera")
    walt = as_viewer(workbench.client, project_url, "walt")
    draft = {"kind": "cron", "expression": "0 9 * * *"}
    url = workbench.url("schedules/preview")
    for _ in range(3):
        assert vera.post(url, json=draft).status_code == 200
    refused = vera.post(url, json=draft)
    detail = assert_problem(refused, 429, "STEWARD_PREVIEW_MAX_PER_MINUTE")
    assert "at most 3" in detail
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    # a saved schedule's preview counts in the same limit
    assert vera.get(workbench.url("schedules/1/preview")).status_code == 429
    # another user is not affected
    assert walt.post(url, json=draft).status_code == 200
    # nor is anything else the user does
    assert vera.get(workbench.url("schedules")).status_code == 200


def test_inventory_previews_and_webhook_tests_count_too(workbench: Workbench) -> None:
    client = workbench.client  # the admin, who may write inventories
    body = {"format": "ini", "content": "web1\n"}
    url = workbench.url("inventories/preview")
    draft = {"kind": "cron", "expression": "0 9 * * *"}
    assert client.post(workbench.url("schedules/preview"), json=draft).status_code == 200
    assert client.post(url, json=body).status_code == 200
    assert client.post(workbench.url("webhooks/1/test"), json={}).status_code in (404, 422)
    assert_problem(client.post(url, json=body), 429, "STEWARD_PREVIEW_MAX_PER_MINUTE")
