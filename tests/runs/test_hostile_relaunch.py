"""Relaunch (``GET``/``POST …/runs/{id}/relaunch``) with hostile input: another project's run,
unknown or malformed fields, values a launch refuses, and secrets that must never come back."""

from __future__ import annotations

import pytest
from support.builders import Workbench, assert_problem, make_project

pytestmark = pytest.mark.security

SURVEY = [{"variable": "pw", "label": "Password", "type": "password", "required": True}]


def test_hostile_relaunch_bodies_are_refused_naming_the_field(workbench: Workbench) -> None:
    template = workbench.template(
        "ok.yml", survey=SURVEY, overridable=["limit", "extra_vars", "tags"]
    )
    run = workbench.launch(template, survey={"pw": "top-secret-answer"})
    url = workbench.url(f"runs/{run['id']}/relaunch")
    refused = {
        "hosts": {"hosts": "everything"},
        "limit": {"limit": "@/etc/passwd"},
        "tags": {"tags": "--help"},
        "extra_vars": {"extra_vars": {"not-a-name": 1}},
        "survey.nope": {"survey": {"nope": "x"}},
        "template_id": {"template_id": 1},  # a relaunch keeps its template
        "launch_type": {"launch_type": "schedule"},
    }
    for field, body in refused.items():
        assert_problem(workbench.client.post(url, json=body), 422, field)
    long_limit = workbench.client.post(url, json={"limit": "h," * 1000})
    assert_problem(long_limit, 422, "limit")
    # an argument of ansible-playbook cannot hold NUL; a newline is no host pattern either
    for bad in ("a\x00b", "web\n--check"):
        for where in (url, workbench.url("runs")):
            body = {"limit": bad, **({"template_id": template} if where.endswith("runs") else {})}
            assert_problem(workbench.client.post(where, json=body), 422, "limit")

    # the secret answer never comes back, whatever is asked
    for response in (
        workbench.client.get(url),
        workbench.client.post(url, json={"survey": {"pw": "********"}}),
        workbench.client.get(workbench.url(f"runs/{run['id']}")),
    ):
        assert response.status_code in (200, 201), response.text
        assert "top-secret-answer" not in response.text
    workbench.wait(run["id"])


def test_a_run_of_another_project_is_not_found(workbench: Workbench) -> None:
    run = workbench.launch(workbench.template("ok.yml"))
    other = make_project(workbench.client, "elsewhere")
    for method in ("GET", "POST"):
        response = workbench.client.request(
            method,
            f"/api/v1/projects/{other}/runs/{run['id']}/relaunch",
            json={} if method == "POST" else None,
        )
        assert response.status_code == 404, response.text
    workbench.wait(run["id"])
