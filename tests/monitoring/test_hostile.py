"""Hostile cases of the monitoring endpoints: a project name cannot forge Prometheus samples,
no secret reaches the scrape, and the probes take no input."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from support.builders import inserted_run, make_key, make_project

from steward.runs.status import RunStatus

pytestmark = pytest.mark.security

FORGED = 'x",status="successful"} 1e9\nsteward_runs{project="evil'


def test_a_project_name_cannot_forge_samples_and_no_secret_is_scraped(client: TestClient) -> None:
    project = make_project(client, FORGED.replace("\n", " "))
    make_key(client, project, name="pw", kind="secret", value="scrape-me-not-0xdeadbeef")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(project, 0, RunStatus.FAILED)
        run.template_id = None  # no template needed to be counted
        session.add(run)
        session.commit()

    response = client.get("/api/v1/metrics")

    assert response.status_code == 200
    assert "scrape-me-not" not in response.text
    runs = [
        (sample.labels, sample.value)
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if sample.name == "steward_runs"
    ]
    assert runs == [({"project": FORGED.replace("\n", " "), "status": "failed"}, 1.0)]


def test_the_probes_ignore_what_they_are_sent(client: TestClient) -> None:
    for path in ("/api/v1/health", "/api/v1/health/ready"):
        response = client.get(path, params={"x": "\x00" * 10, "y": "../" * 100})
        assert response.status_code == 200
    assert client.post("/api/v1/health/ready", content=b"\x00" * 1000).status_code == 405
