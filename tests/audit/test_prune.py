"""Retention: `steward audit prune` removes old records, and records that it did."""

from __future__ import annotations

import datetime as dt

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from steward import cli
from steward.audit.models import AuditRecord
from steward.config import Settings
from steward.db import utcnow

# PostgreSQL too: a bulk delete by age
pytestmark = pytest.mark.both_databases


def test_prune_removes_records_older_than_the_retention_and_is_audited(
    client: TestClient,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    client.post("/api/v1/projects", json={"name": "old"})
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        session.execute(
            update(AuditRecord)
            .where(AuditRecord.action == "project:create")
            .values(created_at=utcnow() - dt.timedelta(days=40))
        )
        session.commit()
    client.post("/api/v1/projects", json={"name": "new"})

    monkeypatch.setenv("STEWARD_DATABASE_URL", settings.database_url)
    monkeypatch.setenv("STEWARD_DATA_DIR", str(settings.data_dir))
    monkeypatch.setenv("STEWARD_AUDIT_RETENTION_DAYS", "30")
    assert cli.main(["audit", "prune"]) == 0
    out = capsys.readouterr().out
    assert "removed 1 audit records older than 30 days; " in out
    assert " freed (" in out  # the bytes given back, measured (a record or two: maybe 0)

    names = [r["object_name"] for r in _all(client, "project:create")]
    assert names == ["new"]
    pruned = _all(client, "audit:prune")
    assert pruned[0]["actor"] == "system"
    assert pruned[0]["detail"] == "removed 1 records older than 30 days"
    assert cli.main(["audit", "prune", "--older-than-days", "0"]) == 1


def _all(client: TestClient, action: str) -> list[dict[str, object]]:
    items: list[dict[str, object]] = client.get("/api/v1/audit", params={"action": action}).json()[
        "items"
    ]
    return items
