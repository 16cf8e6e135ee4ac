"""Comparing runs and a template's stats as a hostile or nosy caller would try them: ids out
of bounds or malformed, a run of another project or of a template one may not see slipped in
among visible ones (a 404 for the whole request, worded as for a missing run: nothing of the
visible runs leaks), secret survey answers, and key names of a caller who may not see keys."""

from __future__ import annotations

from typing import Any

import pytest
from support.builders import (
    Workbench,
    assert_problem,
    assign_local_roots,
    bearer,
    inserted_run,
    make_project,
    make_template,
    make_user,
    token,
)

from steward.runs.status import RunStatus

pytestmark = pytest.mark.security

SURVEY_SECRET = "pw-Zq8!hunter2"


def _insert(workbench: Workbench, template_id: int, project_id: int | None = None) -> int:
    runtime = workbench.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(project_id or workbench.project_id, template_id, RunStatus.SUCCESSFUL)
        session.add(run)
        session.commit()
        return run.id


def _compare(workbench: Workbench, ids: str, **headers: str) -> Any:
    return workbench.client.get(workbench.url("runs/compare"), params={"ids": ids}, headers=headers)


@pytest.mark.parametrize(
    ("ids", "cause"),
    [
        ("", "at least 1 character"),
        ("7", "compare 2 to 4 runs, not 1"),
        ("1,2,3,4,5", "compare 2 to 4 runs, not 5"),
        ("3,3", "names a run twice"),
        ("1,two", "run ids separated by commas"),
        ("1,-2", "run ids separated by commas"),
        ("1,,2", "run ids separated by commas"),
        ("1;2", "run ids separated by commas"),
        ("\u0661,\u0662", "run ids separated by commas"),  # Arabic-Indic digits: isdigit() is true
        ("1,99999999999999999999", "between 1 and"),
        ("0,1", "between 1 and"),
        ("1," * 60 + "1", "at most 100 characters"),
        ("1%002", "run ids separated by commas"),
    ],
)
def test_ids_out_of_bounds_are_a_422_naming_ids(workbench: Workbench, ids: str, cause: str) -> None:
    detail = assert_problem(_compare(workbench, ids), 422, "ids")
    assert cause in detail


def test_a_run_one_may_not_see_makes_the_whole_request_a_404(workbench: Workbench) -> None:
    seen = workbench.template("ok.yml", name="seen")
    hidden = workbench.template("ok.yml", name="hidden")
    seen_runs = [_insert(workbench, seen), _insert(workbench, seen)]
    hidden_run = _insert(workbench, hidden)
    elsewhere = make_project(workbench.client, "elsewhere")
    assign_local_roots(workbench.client, elsewhere, workbench.repo_dir)
    repository = workbench._post(
        f"/api/v1/projects/{elsewhere}/repositories",
        {"name": "r", "kind": "local", "url": str(workbench.repo_dir)},
    )["id"]
    inventory = workbench._post(
        f"/api/v1/projects/{elsewhere}/inventories",
        {"name": "i", "kind": "static", "format": "ini", "content": "localhost\n"},
    )["id"]
    foreign_template = make_template(
        workbench.client, elsewhere, repository_id=repository, inventory_id=inventory
    )["id"]
    foreign_run = _insert(workbench, foreign_template, elsewhere)

    nosy = make_user(workbench.client, "nosy")
    grants = workbench.url(f"templates/{seen}/grants")
    granted = workbench.client.post(grants, json={"user_id": nosy["id"], "permission": "view"})
    assert granted.status_code == 201, granted.text
    as_nosy = bearer(token(workbench.client, "nosy"))

    # the grant holder sees the runs of its template side by side
    both = _compare(workbench, f"{seen_runs[0]},{seen_runs[1]}", **as_nosy)
    assert both.status_code == 200, both.text
    missing = 999_999
    for ids, run_id in (
        (f"{seen_runs[0]},{hidden_run}", hidden_run),  # a template it may not see
        (f"{seen_runs[0]},{foreign_run}", foreign_run),  # another project's run
        (f"{seen_runs[0]},{missing}", missing),  # no such run
    ):
        response = _compare(workbench, ids, **as_nosy)
        # worded as for a missing run; nothing of the visible one comes back
        detail = assert_problem(response, 404, "not found")
        assert detail == f"run {run_id} not found in project 'bench'"
        assert "ok.yml" not in response.text
        assert "seen" not in response.text
    # the admin sees both templates of the project, still not the other project's run
    assert _compare(workbench, f"{seen_runs[0]},{hidden_run}").status_code == 200
    assert_problem(_compare(workbench, f"{seen_runs[0]},{foreign_run}"), 404, "not found")

    # a template's stats: the grant holder's template only
    stats = workbench.url(f"templates/{seen}/stats")
    assert workbench.client.get(stats, headers=as_nosy).status_code == 200
    hidden_stats = workbench.client.get(workbench.url(f"templates/{hidden}/stats"), headers=as_nosy)
    assert_problem(hidden_stats, 404, "not found")
    # the other project's template through this project's URL: not found either
    foreign_stats = workbench.client.get(workbench.url(f"templates/{foreign_template}/stats"))
    assert_problem(foreign_stats, 404, "not found")


@pytest.mark.parametrize("last", ["0", "201", "-1", "abc", "1e3", "99999999999999999999999"])
def test_stats_last_is_bounded(workbench: Workbench, last: str) -> None:
    template = workbench.template("ok.yml")
    response = workbench.client.get(
        workbench.url(f"templates/{template}/stats"), params={"last": last}
    )
    assert_problem(response, 422, "last")


def test_secret_answers_and_hidden_key_names_never_come_back(workbench: Workbench) -> None:
    key = workbench.key(name="deploy-ssh-key-name", kind="login_password", password="pw-1234567")
    template = workbench.template(
        "ok.yml",
        become_key_id=key,
        survey=[{"variable": "db_pw", "label": "pw", "type": "password", "required": True}],
    )
    ids = []
    for _ in range(2):
        run = workbench.launch(template, survey={"db_pw": SURVEY_SECRET})
        workbench.wait(run["id"])
        ids.append(run["id"])
    joined = ",".join(map(str, ids))
    response = _compare(workbench, joined)
    assert response.status_code == 200, response.text
    assert SURVEY_SECRET not in response.text
    rows = {p["name"]: p["values"] for p in response.json()["parameters"]}
    assert rows["vars.db_pw"] == ["********", "********"]
    assert rows["Become key"] == ["deploy-ssh-key-name"] * 2

    # a run grant shows no key names (as the run page): the key's id only
    runner = make_user(workbench.client, "runner")
    grants = workbench.url(f"templates/{template}/grants")
    granted = workbench.client.post(grants, json={"user_id": runner["id"], "permission": "run"})
    assert granted.status_code == 201, granted.text
    as_runner = _compare(workbench, joined, **bearer(token(workbench.client, "runner")))
    assert as_runner.status_code == 200, as_runner.text
    assert "deploy-ssh-key-name" not in as_runner.text
    assert SURVEY_SECRET not in as_runner.text
    rows = {p["name"]: p["values"] for p in as_runner.json()["parameters"]}
    assert rows["Become key"] == [f"#{key}"] * 2
