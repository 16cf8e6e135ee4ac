"""Dynamic survey choices below HTTP: the inventory source, the JSON path, earlier answers in a
source (as data), the rules at save, and the launch gate refusing an answer that is no longer
among the options, by a person's launch and by a schedule's firing."""

from __future__ import annotations

import datetime as dt
import functools
from typing import Any

import pytest
from pydantic import BaseModel
from sqlalchemy.orm import Session
from support import runs, services
from support.runs import NoQueue
from support.schedules import create_below

from steward.db import utcnow
from steward.errors import InvalidInput
from steward.inventories.models import InventoryHost
from steward.projects.models import Project
from steward.schedules import firing
from steward.schedules.models import Schedule
from steward.templates import launch
from steward.templates.models import Template
from steward.templates.options import cascade, inventory, jsonpath
from steward.templates.options.resolver import check_at_save
from steward.templates.options.schemas import OptionsRequest
from steward.templates.survey import Survey

HOSTS = {
    "db1": (["db", "prod"], {"engine": "postgres"}),
    "db2": (["db", "staging"], {"engine": "mysql"}),
    "web1": (["web", "prod"], {"engine": "postgres"}),
    "web2": (["web", "staging"], {"secret": "********"}),
}


class SurveyBody(BaseModel):
    survey: Survey


def question(variable: str, source: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"variable": variable, "label": variable, "type": "choice", "source": source} | fields


def inventory_template(session: Session, project: Project, *survey: dict[str, Any]) -> Template:
    made = runs.template(session, project, survey=list(survey))
    for name, (groups, variables) in HOSTS.items():
        session.add(
            InventoryHost(inventory_id=made.inventory_id, name=name, groups=groups, vars=variables)
        )
    session.flush()
    return made


def options(session: Session, template: Template, **answers: Any) -> dict[str, Any]:
    found = launch.survey_options(session, template, OptionsRequest(survey=answers))
    return {q.variable: q.error or q.choices for q in found.questions}


def test_the_inventory_gives_hosts_groups_and_a_variables_values(db_session: Session) -> None:
    made = inventory_template(
        db_session,
        services.project(db_session),
        question("every", {"kind": "inventory"}),
        question("prod_db", {"kind": "inventory", "pattern": "db:&prod"}),
        question("not_db", {"kind": "inventory", "pattern": "all:!db"}),
        question("globbed", {"kind": "inventory", "pattern": "web*,db2"}),
        question("groups", {"kind": "inventory", "pattern": "*", "select": "groups"}),
        question("some_groups", {"kind": "inventory", "pattern": "p*", "select": "groups"}),
        question("engine", {"kind": "inventory", "select": "variable", "variable": "engine"}),
        question("masked", {"kind": "inventory", "select": "variable", "variable": "secret"}),
    )
    assert options(db_session, made) == {
        "every": ["db1", "db2", "web1", "web2"],
        "prod_db": ["db1"],
        "not_db": ["web1", "web2"],
        "globbed": ["db2", "web1", "web2"],
        "groups": ["db", "prod", "staging", "web"],
        "some_groups": ["prod"],
        "engine": ["mysql", "postgres"],
        "masked": [],  # a masked value is no option
    }


def test_a_host_scope_resolves_to_the_inventorys_hosts_now(
    db_session: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the launch dialog tells a scoped grantee (``launch_hosts_now``); a ``~regex`` or
    ``[range]`` element is not resolved: its pattern is named instead."""
    made = inventory_template(db_session, services.project(db_session))
    found = inventory.reached(db_session, made.inventory_id, ["prod", "db2", "~web.*", "db[0:1]"])
    assert found == (["db1", "db2", "web1"], 3, ["~web.*", "db[0:1]"])
    assert inventory.reached(db_session, made.inventory_id, ["nothing"]) == ([], 0, [])
    monkeypatch.setattr(inventory, "HOSTS_NOW_MAX", 2)
    names, count, _ = inventory.reached(db_session, made.inventory_id, ["all"])
    assert (names, count) == (["db1", "db2"], 4)


def test_a_source_reads_an_earlier_answer_and_waits_for_it(db_session: Session) -> None:
    made = inventory_template(
        db_session,
        services.project(db_session),
        question("group", {"kind": "inventory", "select": "groups", "pattern": "db,web"}),
        question("host", {"kind": "inventory", "pattern": "{answer.group}:&prod"}),
    )
    assert options(db_session, made)["host"] == "needs an answer to 'group' first"
    assert options(db_session, made, group="web")["host"] == ["web1"]
    # an answer is a name, never more pattern
    assert "plain host or group name" in options(db_session, made, group="all,!x")["host"]


@pytest.mark.parametrize(
    ("path", "document", "found"),
    [
        ("", ["a", "b"], ["a", "b"]),
        ("data.items", {"data": {"items": ["x", 1]}}, ["x", 1]),
        ("data.items[*].name", {"data": {"items": [{"name": "a"}, {"name": "b"}]}}, ["a", "b"]),
        ("rows[1]", {"rows": [["no"], ["yes", "too"]]}, ["yes", "too"]),
        ("a-b[*]", {"a-b": [[1, 2], [3]]}, [[1, 2], [3]]),
    ],
)
def test_a_json_path_leads_to_the_list(path: str, document: Any, found: list[Any]) -> None:
    assert jsonpath.evaluate(path, document) == found


@pytest.mark.parametrize(
    "path", [".a", "a..b", "a[", "a[x]", "a[-1]", "a;b", "$.a", "a" + ".a" * 16]
)
def test_a_json_path_outside_the_grammar_is_refused(path: str) -> None:
    with pytest.raises(ValueError, match=r"JSON path|steps"):
        jsonpath.parse(path)


def test_a_json_path_that_misses_says_where() -> None:
    with pytest.raises(jsonpath.PathMissed, match="no key 'items'"):
        jsonpath.evaluate("data.items", {"data": {}})
    with pytest.raises(jsonpath.PathMissed, match="expects a list"):
        jsonpath.evaluate("data[*]", {"data": "x"})


def test_an_answer_is_substituted_as_data() -> None:
    url = "https://cmdb.example/dbs?host={answer.host}&env={answer.env}"
    filled = cascade.substitute(
        url, {"host": "a&b=c#/../?x", "env": ["eu", "us"]}, cascade.url_escape
    )
    assert filled == "https://cmdb.example/dbs?host=a%26b%3Dc%23%2F..%2F%3Fx&env=eu%2Cus"
    # a placeholder inside an answer is not read again
    assert cascade.substitute("{answer.a}", {"a": "{answer.b}", "b": "no"}, str) == "{answer.b}"
    for hostile in ["all", "db:&x", "a,b", "!a", "~.*", "@/etc/passwd", "a b", "w[0:1]", "-x"]:
        if hostile == "all":  # a plain name: the control
            assert cascade.pattern_escape(hostile) == "all"
            continue
        with pytest.raises(ValueError, match="plain host or group name"):
            cascade.pattern_escape(hostile)


SOURCE = "survey.0.source"
URL = {"kind": "url", "url": "https://x/"}


@pytest.mark.parametrize(
    ("survey", "field", "cause"),
    [
        (question("q", {"kind": "inventory"}, type="text"), "survey.0.choices", "only choice"),
        (question("q", {"kind": "inventory"}, choices=["a"]), "survey.0.choices", "no choices"),
        (question("q", {"kind": "inventory", "select": "variable"}), SOURCE, "variable"),
        (question("q", {"kind": "inventory", "pattern": "@/etc/hosts"}), SOURCE, "file"),
        (question("q", {"kind": "url", "url": "ftp://x/"}), SOURCE, "scheme"),
        (question("q", {"kind": "url", "url": "https://{answer.h}/"}), SOURCE, "host"),
        (question("q", URL | {"path": "a[?]"}), SOURCE, "JSON path"),
        (question("q", URL | {"timeout_seconds": 31}), SOURCE, "30"),
        (question("q", {"kind": "script", "path": "../../bin/sh"}), SOURCE, "inside"),
        (question("q", {"kind": "script", "path": "/bin/sh"}), SOURCE, "inside"),
        (question("q", {"kind": "nope"}), SOURCE, "kind"),
    ],
)
def test_a_source_is_checked_when_it_is_saved(
    survey: dict[str, Any], field: str, cause: str
) -> None:
    detail = services.refused(lambda: SurveyBody.model_validate({"survey": [survey]}), field)
    assert cause in detail


def test_a_source_names_only_earlier_answers_and_keys_of_its_project(db_session: Session) -> None:
    project = services.project(db_session)
    other = services.project(db_session, "other")
    foreign = services.secret_key(db_session, services.cipher(), other, "k", "v")
    own = services.secret_key(db_session, services.cipher(), project, "k", "v")
    guard = services.guard()
    host = question("host", {"kind": "inventory"})
    password = {"variable": "pw", "label": "pw", "type": "password"}
    cases = [
        ([question("db", {"kind": "url", "url": "http://127.0.0.1/{answer.host}"}), host],
         "survey.0.source", "no earlier question"),
        ([password, question("db", {"kind": "url", "url": "http://127.0.0.1/{answer.pw}"})],
         "survey.1.source", "other than a password"),
        ([question("db", {"kind": "url", "url": "http://127.0.0.1/", "key_id": foreign})],
         "survey.0.source.key_id", "does not exist in this project"),
    ]  # fmt: skip
    for n, (survey, field, cause) in enumerate(cases):
        made = runs.template(db_session, project, name=f"t{n}", survey=survey)
        detail = services.refused(functools.partial(check_at_save, db_session, made, guard), field)
        assert cause in detail
    # the controls: an earlier answer, the project's own key
    fine = [
        host,
        question("db", {"kind": "url", "url": "http://127.0.0.1/{answer.host}", "key_id": own}),
    ]
    check_at_save(db_session, runs.template(db_session, project, name="fine", survey=fine), guard)


def test_a_launch_refuses_an_answer_no_longer_among_the_options(db_session: Session) -> None:
    project = services.project(db_session)
    made = inventory_template(
        db_session, project, question("db_host", {"kind": "inventory", "pattern": "db"})
    )
    run = runs.launch(db_session, project, made, survey={"db_host": "db2"})
    assert run.params["launch_vars"] == {"db_host": "db2"}
    services.refused(
        lambda: runs.launch(db_session, project, made, survey={"db_host": "web1"}),
        "survey.db_host",
    )
    db_session.delete(db_session.get_one(InventoryHost, (made.inventory_id, "db2")))
    db_session.flush()
    detail = services.refused(
        lambda: runs.launch(db_session, project, made, survey={"db_host": "db2"}),
        "survey.db_host",
    )
    assert "must be one of: db1" in detail


def test_a_schedule_firing_refuses_a_stale_answer_and_says_why(db_session: Session) -> None:
    project = services.project(db_session)
    made = inventory_template(
        db_session, project, question("db_host", {"kind": "inventory", "pattern": "db"})
    )
    body = {"name": "nightly", "kind": "cron", "expression": "0 3 * * *"}
    saved = create_below(db_session, made, body | {"launch": {"survey": {"db_host": "db2"}}})
    db_session.delete(db_session.get_one(InventoryHost, (made.inventory_id, "db2")))
    db_session.commit()
    schedule = db_session.get_one(Schedule, saved.id)
    assert schedule.next_fire_at is not None
    todo = firing.Plan(
        schedule_id=schedule.id,
        due=schedule.next_fire_at,
        updated_at=schedule.updated_at,
        next_fire_at=schedule.next_fire_at + dt.timedelta(days=1),
        launch=True,
    )
    assert firing.fire(db_session, services.cipher(), NoQueue(), [todo], utcnow()) == []
    db_session.refresh(schedule)
    assert not schedule.enabled
    assert "survey.db_host" in (schedule.disabled_reason or "")


def test_an_unreadable_source_refuses_the_launch_naming_the_question(db_session: Session) -> None:
    project = services.project(db_session)
    made = runs.template(
        db_session, project, survey=[question("db", {"kind": "url", "url": "http://127.0.0.1/"})]
    )
    db_session.info.pop("survey_option_sources", None)  # a process that reads no URL
    detail = services.refused(
        lambda: runs.launch(db_session, project, made, survey={"db": "x"}), "survey.db"
    )
    assert "could not be read" in detail
    # no answer, no default: nothing to check, nothing read
    runs.launch(db_session, project, made)
    with pytest.raises(InvalidInput):
        runs.launch(db_session, project, made, survey={"db": "x"})
