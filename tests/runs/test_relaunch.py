"""A relaunch starts from the earlier run's launch values, takes changes within what the
template allows (checked like a launch), keeps secret answers it is not given, and can narrow
itself to the failed hosts."""

from __future__ import annotations

from typing import Any

from support.builders import Workbench

SURVEY = [
    {"variable": "db_port", "label": "Port", "type": "integer", "required": True},
    {"variable": "env_name", "label": "Env", "type": "text", "default": "dev"},
    {"variable": "pw", "label": "Password", "type": "password", "required": True},
]
OVERRIDABLE = ["limit", "tags", "check_mode", "extra_vars"]


def _survey_template(workbench: Workbench) -> int:
    return workbench.template("survey.yml", survey=SURVEY, overridable=OVERRIDABLE)


def _values(workbench: Workbench, run_id: int) -> dict[str, Any]:
    response = workbench.client.get(workbench.url(f"runs/{run_id}/relaunch"))
    assert response.status_code == 200, response.text
    values: dict[str, Any] = response.json()
    return values


def test_relaunch_values_are_the_runs_within_what_the_template_allows(
    workbench: Workbench,
) -> None:
    template = _survey_template(workbench)
    run = workbench.launch(
        template,
        limit="localhost",
        extra_vars={"who": "first"},
        survey={"db_port": 5432, "env_name": "prod", "pw": "s3cret-answer"},
    )
    values = _values(workbench, run["id"])
    assert "s3cret-answer" not in str(values)
    assert values["kept_secrets"] == ["pw"]
    assert values["overridable"] == OVERRIDABLE
    launch = values["launch"]
    assert launch["limit"] == "localhost"
    assert launch["tags"] == ""
    assert launch["check_mode"] is False
    assert launch["extra_vars"] == {"who": "first"}
    assert launch["survey"] == {"db_port": 5432, "env_name": "prod", "pw": "********"}
    # fields the template does not let a launch override are not offered
    assert launch["verbosity"] is None
    assert launch["inventory_id"] is None
    workbench.wait(run["id"])


def test_relaunch_changes_a_var_and_keeps_the_secret_answer(workbench: Workbench) -> None:
    template = _survey_template(workbench)
    first = workbench.launch(
        template,
        extra_vars={"who": "first"},
        survey={"db_port": 5432, "env_name": "prod", "pw": "s3cret-answer"},
    )
    # pw is required: the relaunch would be refused had the answer not been kept
    again = workbench.client.post(
        workbench.url(f"runs/{first['id']}/relaunch"),
        json={"extra_vars": {"who": "second"}, "survey": {"db_port": 6543}},
    )
    assert again.status_code == 201, again.text
    run = again.json()
    assert run["launch_type"] == "relaunch"
    assert run["relaunch_of_id"] == first["id"]
    assert run["params"]["launch_vars"] == {"who": "second", "db_port": 6543, "env_name": "prod"}
    assert run["params"]["secret_extra_vars"] == {"pw": "********"}
    done = workbench.wait(run["id"])
    assert done["status"] == "successful", workbench.text(run["id"])
    assert "db_port=6543 db_port_type=int env=prod" in workbench.text(run["id"])

    # a secret sent as ******** is the kept one too; a new answer replaces it
    masked = workbench.client.post(
        workbench.url(f"runs/{run['id']}/relaunch"), json={"survey": {"pw": "********"}}
    )
    assert masked.status_code == 201, masked.text
    audit = workbench.client.get(
        "/api/v1/audit", params={"action": "run:relaunch", "project_id": workbench.project_id}
    )
    assert audit.status_code == 200, audit.text
    details = [entry["detail"] for entry in audit.json()["items"]]
    assert any(f"via relaunch of run {first['id']}" in d for d in details), details
    workbench.wait(first["id"])
    workbench.wait(masked.json()["id"])


def test_relaunch_is_checked_like_a_launch(workbench: Workbench) -> None:
    template = _survey_template(workbench)
    first = workbench.launch(template, survey={"db_port": 1, "pw": "x"})
    url = workbench.url(f"runs/{first['id']}/relaunch")
    refused = {
        "verbosity": ({"verbosity": 3}, "does not allow overriding verbosity"),
        "survey.db_port": ({"survey": {"db_port": "many"}}, "must be an integer"),
        "extra_vars.db_port": ({"extra_vars": {"db_port": 2}}, "is a survey question"),
        "limit": ({"limit": "all -oops"}, "element '-oops' starts with '-'"),
    }
    for field, (body, cause) in refused.items():
        response = workbench.client.post(url, json=body)
        assert response.status_code == 422, (field, response.text)
        assert field in response.text, response.text
        assert cause in response.text, response.text
    both = workbench.client.post(url, json={"hosts": "failed", "limit": "localhost"})
    assert both.status_code == 422, both.text
    assert "hosts=failed sets the limit" in both.json()["detail"]
    workbench.wait(first["id"])


def test_failed_hosts_relaunch_keeps_the_other_values(workbench: Workbench) -> None:
    template = workbench.template("fail.yml", overridable=["extra_vars"])
    run = workbench.wait(workbench.launch(template, extra_vars={"who": "x"})["id"])
    assert run["status"] == "failed"
    values = _values(workbench, run["id"])
    assert values["failed_hosts"] == ["localhost"]
    assert values["failed_host_count"] == 1
    again = workbench.client.post(
        workbench.url(f"runs/{run['id']}/relaunch"),
        json={"hosts": "failed", "extra_vars": {"who": "y"}},
    )
    assert again.status_code == 201, again.text
    # the template allows no limit: the failed hosts' limit is Steward's own
    assert again.json()["params"]["limit"] == "localhost"
    assert again.json()["params"]["launch_vars"] == {"who": "y"}
    workbench.wait(again.json()["id"])


def test_a_run_whose_template_was_deleted_cannot_be_relaunched(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    run = workbench.wait(workbench.launch(template)["id"])
    assert workbench.client.delete(workbench.url(f"templates/{template}")).status_code == 204
    for method in ("GET", "POST"):
        response = workbench.client.request(
            method,
            workbench.url(f"runs/{run['id']}/relaunch"),
            json={} if method == "POST" else None,
        )
        assert response.status_code == 409, response.text
        assert "template was deleted" in response.json()["detail"]
