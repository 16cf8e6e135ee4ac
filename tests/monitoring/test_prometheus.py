"""Monitoring: the Prometheus endpoint counts what the database holds (runs as their rows are
once they ended: support.builders.inserted_run), only admins may scrape it, and the readiness
probe says whether the server reaches its database."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from support.admin import ADMIN_PASSWORD, ADMIN_TOKEN
from support.builders import Workbench, inserted_run, make_user, token
from support.postgres import PostgresServer

from steward import __version__
from steward.app import create_app
from steward.config import Settings
from steward.db import utcnow
from steward.dispatch.local import LocalDispatcher
from steward.monitoring.routes import CONTENT_TYPE
from steward.runs.status import RunStatus
from steward.runtime import Runtime
from steward.server import build_app

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient, **headers: str) -> Samples:
    response = client.get("/api/v1/metrics", headers=headers)
    assert response.status_code == 200, response.text
    # what the OpenAPI document says it answers (written there without prometheus_client)
    assert response.headers["content-type"] == CONTENT_TYPE
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


@pytest.mark.both_databases
def test_runs_and_capacity_are_counted_from_the_database(
    client: TestClient, workbench: Workbench
) -> None:
    ok = workbench.template("ok.yml")
    failing = workbench.template("fail.yml")
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        for template, status in (
            (ok, RunStatus.SUCCESSFUL),
            (ok, RunStatus.SUCCESSFUL),
            (failing, RunStatus.FAILED),
        ):
            session.add(inserted_run(workbench.project_id, template, status))
        session.commit()

    samples = scrape(client)

    def runs(status: str) -> float:
        return samples.get(("steward_runs", (("project", "bench"), ("status", status))), 0)

    assert (runs("successful"), runs("failed"), runs("queued"), runs("running")) == (2, 1, 0, 0)
    # the embedded dispatcher of this server takes every group with its slots
    assert samples[("steward_worker_slots_online", (("queue", "*"),))] == 4
    versions = [dict(labels)["version"] for name, labels in samples if name == "steward_build_info"]
    assert versions == [__version__]


@pytest.mark.both_databases
def test_the_oldest_queued_run_of_each_group_is_aged(settings: Settings, tmp_path: Path) -> None:
    """No dispatcher runs here (no service started), so the queued runs stay queued."""
    runtime = Runtime.build(settings)
    app = create_app(runtime, LocalDispatcher(runtime), services=[])
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        workbench = Workbench(client, tmp_path)
        template = workbench.template("ok.yml")
        with runtime.sessions() as session:
            for group, minutes in (("dmz", 10), ("dmz", 2), ("default", 1)):
                run = inserted_run(workbench.project_id, template, RunStatus.QUEUED)
                run.runner_group = group
                run.created_at = utcnow() - dt.timedelta(minutes=minutes)
                session.add(run)
            session.commit()

        samples = scrape(client)

    runtime.engine.dispose()
    assert samples[("steward_runs", (("project", "bench"), ("status", "queued")))] == 3
    oldest = {
        dict(labels)["runner_group"]: value
        for (name, labels), value in samples.items()
        if name == "steward_oldest_run_age_seconds" and dict(labels)["status"] == "queued"
    }
    assert oldest.keys() == {"dmz", "default"}
    assert 600 <= oldest["dmz"] < 900
    assert 60 <= oldest["default"] < 360
    assert ("steward_worker_slots_online", (("queue", "*"),)) not in samples  # none registered


def test_only_admins_scrape_and_a_read_token_is_enough(client: TestClient) -> None:
    make_user(client, "viewer")
    viewer = token(client, "viewer", scope="read")
    assert client.get("/api/v1/metrics", headers={"Authorization": ""}).status_code == 401
    refused = client.get("/api/v1/metrics", headers={"Authorization": f"Bearer {viewer}"})
    assert refused.status_code == 403
    assert refused.headers["content-type"] == "application/problem+json"
    admin_read = token(client, "admin", scope="read", password=ADMIN_PASSWORD)
    scrape(client, Authorization=f"Bearer {admin_read}")


@pytest.mark.sqlite_only
def test_ready_when_the_database_answers_503_when_it_is_gone(
    postgres: PostgresServer, postgres_template: str, settings: Settings
) -> None:
    name = postgres.create_database(template=postgres_template)
    app = build_app(settings.model_copy(update={"database_url": postgres.url(name)}))
    try:
        with TestClient(app) as client:
            assert client.get("/api/v1/health/ready").json() == {"status": "ready"}
            postgres.drop_database(name)  # every connection of the pool is cut
            gone = client.get("/api/v1/health/ready")
            assert gone.status_code == 503
            assert gone.json()["detail"] == "the database does not answer"
            assert client.get("/api/v1/health").status_code == 200  # alive all the same
    finally:
        app.state.runtime.engine.dispose()
        postgres.drop_database(name)


def test_the_audit_streams_backlog_is_a_gauge(settings: Settings) -> None:
    """No streamer runs here (no service started): what is recorded waits."""
    runtime = Runtime.build(settings.model_copy(update={"audit_syslog_host": "192.0.2.1"}))
    app = create_app(runtime, LocalDispatcher(runtime), services=[])
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        before = scrape(client)
        for name in ("streamed-1", "streamed-2"):
            assert client.post("/api/v1/projects", json={"name": name}).status_code == 201
        after = scrape(client)
    runtime.engine.dispose()
    key = ("steward_audit_stream_backlog", (("sink", "syslog"),))
    assert before.get(key, 0) == 0
    assert after[key] == 2
    assert after[("steward_audit_stream_oldest_seconds", (("sink", "syslog"),))] >= 0
