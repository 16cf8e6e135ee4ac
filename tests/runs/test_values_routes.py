"""The wiring of searchable runs and run labels over HTTP (their rules: test_values.py)."""

from __future__ import annotations

from typing import Any

from support.builders import Workbench, assert_problem, inserted_run

from steward.runs.status import RunStatus

SURVEY = [
    {"variable": "db_name", "label": "Database", "type": "text"},
    {"variable": "sys_password", "label": "SYS password", "type": "password"},
]


def test_the_runs_lists_filter_by_answers_and_launch_settings(workbench: Workbench) -> None:
    template = workbench.template("ok.yml", survey=SURVEY, overridable=["limit"])
    answers = {"db_name": "ORCL", "sys_password": "s3cr3t"}
    run = workbench.launch(template, survey=answers, limit="localhost")
    workbench.wait(run["id"])

    def found(url: str, **params: Any) -> list[int]:
        response = workbench.client.get(url, params=params)
        assert response.status_code == 200, response.text
        return [r["id"] for r in response.json()["items"]]

    for url in (workbench.url("runs"), "/api/v1/runs"):
        assert found(url, answer="db_name:ORCL", launch="limit:localhost") == [run["id"]]
        assert found(url, answer=["db_name:ORCL", "db_name:CDB2"]) == []
        assert found(url, answer="sys_password:s3cr3t") == []
    refused = workbench.client.get(workbench.url("runs"), params={"launch": "playbook:ok.yml"})
    assert_problem(refused, 422, "launch")


def test_a_run_is_labelled_and_its_label_read_back(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    app: Any = workbench.client.app
    with app.state.runtime.sessions() as session:
        row = inserted_run(workbench.project_id, template, RunStatus.SUCCESSFUL)
        session.add(row)
        session.commit()
        run_id = row.id
    url = workbench.url(f"runs/{run_id}")

    answer = workbench.client.patch(url, json={"label": "TDE on", "note": "AES256"})
    assert answer.status_code == 200, answer.text
    assert (answer.json()["label"], answer.json()["note"]) == ("TDE on", "AES256")
    listed = workbench.client.get(workbench.url("runs")).json()["items"]
    assert [(r["id"], r["label"]) for r in listed] == [(run_id, "TDE on")]
    assert_problem(workbench.client.patch(url, json={"label": "a\x1bb"}), 422, "label")
    audit = workbench.client.get("/api/v1/audit", params={"action": "run:label"}).json()
    assert [(r["object_id"], r["changes"]["label"]) for r in audit["items"]] == [
        (run_id, ["", "TDE on"])
    ]
