"""Retention: old finished runs go with everything kept with them; running runs, recent runs and
undelivered messages stay; every removal is audited; servers apply it on their own, and
`steward prune` on demand.

The runs are rows made as a finished run leaves them (support.builders.inserted_run and
inserted_records): what is pruned is rows, not a process, so no playbook runs here."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from support.admin import ADMIN_TOKEN
from support.builders import Workbench, inserted_records, inserted_run
from support.notifications import webhook_destination

from steward import cli
from steward.config import Settings
from steward.db import utcnow
from steward.metrics.models import MetricChunk
from steward.notifications.models import Message, MessageStatus
from steward.retention import service
from steward.retention.service import Periods
from steward.runs.models import Run, RunEvent, RunHost, RunOutput
from steward.runs.status import RunStatus
from steward.server import build_app
from steward.webhooks.models import DeliveryOutcome, WebhookDelivery

# PostgreSQL too: bulk deletes with their foreign keys
pytestmark = pytest.mark.both_databases

KEPT_WITH_A_RUN = (RunEvent, RunOutput, RunHost, MetricChunk)


def _age(client: TestClient, run_id: int, days: int) -> None:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        past = utcnow() - dt.timedelta(days=days)
        session.execute(update(Run).where(Run.id == run_id).values(finished_at=past))
        session.commit()


def _finished(client: TestClient, workbench: Workbench, template_id: int) -> int:
    """A successful run of ``template_id`` finished now, with its event, output, host recap
    and metrics (support.builders.inserted_records); its id."""
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        run = inserted_run(workbench.project_id, template_id, RunStatus.SUCCESSFUL)
        session.add(run)
        session.flush()
        session.add_all(inserted_records(run))
        session.commit()
        run_id: int = run.id
    return run_id


def _rows(client: TestClient, run_id: int) -> dict[str, int]:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        return {
            model.__tablename__: session.scalar(
                select(func.count()).select_from(model).where(model.run_id == run_id)
            )
            or 0
            for model in KEPT_WITH_A_RUN
        }


def _removed(record: dict[str, Any]) -> str:
    """What the record says was removed (before the bytes freed, checked on their own)."""
    return str(record["detail"]).split("; ")[0]


def _audit(client: TestClient) -> list[dict[str, Any]]:
    response = client.get("/api/v1/audit", params={"action": "retention:prune"})
    items: list[dict[str, Any]] = response.json()["items"]
    return items


def test_old_finished_runs_go_with_their_output_events_hosts_and_metrics(
    client: TestClient, workbench: Workbench
) -> None:
    template = workbench.template("ok.yml")
    old = [_finished(client, workbench, template) for _ in range(2)]
    recent = _finished(client, workbench, template)
    for run_id in old:
        _age(client, run_id, days=40)
        assert all(_rows(client, run_id).values()), _rows(client, run_id)  # there is data to lose
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        stuck = inserted_run(workbench.project_id, template, RunStatus.RUNNING)
        stuck.created_at = stuck.started_at = utcnow() - dt.timedelta(days=400)
        session.add(stuck)
        session.commit()
        stuck_id = stuck.id

        # batch=1: each run in its own transaction, and the loop goes on until none is left
        pruned = service.prune(session, Periods(runs=30), batch=1)

    assert pruned.runs == 2
    for run_id in old:
        assert client.get(workbench.url(f"runs/{run_id}")).status_code == 404
        assert _rows(client, run_id) == dict.fromkeys(_rows(client, run_id), 0)
    assert workbench.run(recent)["status"] == "successful"
    assert workbench.lines(recent)  # a recent run keeps its output
    assert workbench.run(stuck_id)["status"] == "running"  # never removed while unfinished
    records = _audit(client)
    assert [_removed(r) for r in records] == ["removed 2 runs older than 30 days"]
    assert records[0]["actor"] == "system"
    # the bytes freed are measured around the pass, and said as measured
    assert records[0]["changes"]["database_bytes"] == [pruned.size_before, pruned.size_after]
    assert f"({pruned.bytes_freed} bytes;" in records[0]["detail"]


def test_nothing_is_removed_or_recorded_when_keeping_forever_or_when_nothing_is_old(
    client: TestClient, workbench: Workbench
) -> None:
    run_id = _finished(client, workbench, workbench.template("ok.yml"))
    _age(client, run_id, days=10)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        assert service.prune(session, Periods()) == service.Pruned()
        assert service.prune(session, Periods(runs=11, deliveries=1, messages=1)).runs == 0
    assert workbench.run(run_id)["status"] == "successful"
    assert _audit(client) == []


def test_old_deliveries_and_finished_messages_go_undelivered_ones_stay(
    client: TestClient, workbench: Workbench
) -> None:
    project = workbench.project_id
    template = workbench.template("ok.yml")
    secret = workbench.key(name="hook-secret", kind="secret", value="s3cret-value")
    url = workbench.url(f"templates/{template}/webhooks")
    hook = client.post(url, json={"name": "h", "auth": "github", "secret_key_id": secret}).json()
    destination = webhook_destination(client, project, "http://127.0.0.1:9/", "hmac", name="out")
    old = utcnow() - dt.timedelta(days=31)
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        for received in (old, utcnow()):
            session.add(
                WebhookDelivery(
                    webhook_id=hook["id"], received_at=received, outcome=DeliveryOutcome.IGNORED
                )
            )
        for event, status, created in (
            ("test", MessageStatus.SENT, old),
            ("failed", MessageStatus.FAILED, old),
            ("started", MessageStatus.PENDING, old),  # still to be told: kept
            ("succeeded", MessageStatus.SENT, utcnow()),
        ):
            session.add(
                Message(
                    project_id=project,
                    destination_id=destination["id"],
                    event=event,
                    status=status,
                    created_at=created,
                )
            )
        session.commit()

        pruned = service.prune(session, Periods(deliveries=30, messages=30))

        assert (pruned.deliveries, pruned.messages) == (1, 2)
        assert session.scalars(select(WebhookDelivery.received_at)).one() > old
        assert sorted(session.scalars(select(Message.event))) == ["started", "succeeded"]
    detail = "removed 1 webhook deliveries older than 30 days, 2 notification messages older"
    assert [_removed(r) for r in _audit(client)] == [f"{detail} than 30 days"]


def test_a_server_prunes_on_its_own(settings: Settings, tmp_path: Path) -> None:
    settings = settings.model_copy(update={"run_retention_days": 7, "retention_tick_seconds": 0.2})
    app = build_app(settings)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        workbench = Workbench(client, tmp_path)
        run_id = _finished(client, workbench, workbench.template("ok.yml"))
        _age(client, run_id, days=8)
        deadline = time.monotonic() + 10
        # the record is written once the pass has given the space back, after the delete
        while not _audit(client):
            assert time.monotonic() < deadline, "the server never pruned the old run"
            time.sleep(0.1)
        assert client.get(workbench.url(f"runs/{run_id}")).status_code == 404
        assert _removed(_audit(client)[0]) == "removed 1 runs older than 7 days"
    app.state.runtime.engine.dispose()


def test_steward_prune_applies_the_periods_now(
    client: TestClient,
    workbench: Workbench,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    run_id = _finished(client, workbench, workbench.template("ok.yml"))
    _age(client, run_id, days=3)
    monkeypatch.setenv("STEWARD_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("STEWARD_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("STEWARD_RUN_RETENTION_DAYS", "5")  # the flag wins over the setting

    assert cli.main(["prune", "--runs-days", "2"]) == 0

    out = capsys.readouterr().out
    assert "removed 1 runs older than 2 days" in out
    assert " freed (" in out  # and the bytes freed
    assert "webhook deliveries older than 30 days" in out
    assert client.get(workbench.url(f"runs/{run_id}")).status_code == 404
    with pytest.raises(SystemExit):
        cli.main(["prune", "--runs-days", "-1"])
