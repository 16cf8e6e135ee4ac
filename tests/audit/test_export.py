"""The audit trail's CSV export (``audit.export``): plain functions for its rules (escaping,
formula injection, the columns), the filters below HTTP on ``db_session`` (the instance's own
records), and one HTTP test of the route's wiring (streamed, a file name, the same filters as
the JSON lines)."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import services

from steward.audit import export, service
from steward.audit.actions import AuditAction
from steward.audit.models import AuditRecord
from steward.audit.schemas import AuditRead


def _read(**fields: object) -> AuditRead:
    values: dict[str, object] = {
        "id": 1,
        "created_at": dt.datetime(2026, 11, 27, 12, 0, tzinfo=dt.UTC),
        "actor_type": "user",
        "actor_user_id": 1,
        "actor": "admin",
        "action": "key:create",
        "object_type": "key",
        "object_id": 7,
        "object_name": "k",
        "project_id": None,
        "source_ip": "127.0.0.1",
        "user_agent": "ua",
        "changes": {},
        "detail": "",
    }
    return AuditRead.model_validate({**values, **fields})


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1+1", "'+1+1"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("  =1", "'  =1"),  # spaces do not hide a formula
        # controls: text that a spreadsheet reads as text stays as it is
        ("alice", "alice"),
        ("a=b", "a=b"),
        ("", ""),
        ("   ", "   "),
        (None, ""),
        (42, "42"),
        ({"b": [1, "=x"], "a": None}, '{"a": null, "b": [1, "=x"]}'),
    ],
)
def test_a_cell_a_spreadsheet_would_compute_is_quoted(value: object, cell: str) -> None:
    assert export.csv_cell(value) == cell


def test_csv_lines_escape_quotes_commas_and_line_breaks() -> None:
    record = _read(object_name='say "hi", then\nleave', detail="-1", changes={"n": [1, 2]})
    text = "".join(export.csv_lines([record]))
    assert text.endswith("\r\n")
    header, row = list(csv.reader(io.StringIO(text, newline="")))
    assert tuple(header) == export.COLUMNS
    cells = dict(zip(header, row, strict=True))
    assert cells["object_name"] == 'say "hi", then\nleave'  # intact once read back
    assert cells["detail"] == "'-1"
    assert json.loads(cells["changes"]) == {"n": [1, 2]}
    assert cells["created_at"] == "2026-11-27T12:00:00+00:00"
    assert cells["project_id"] == ""


def test_the_instance_filter_keeps_the_records_of_no_project(db_session: Session) -> None:
    s = db_session
    project = services.project(s, "audit-instance")  # records project:create in the project
    service.record(s, None, AuditAction.AUTH_LOGIN_FAILED, object_type="user",
                   object_name="audit-instance-nobody", detail="bad password")  # fmt: skip
    s.flush()
    mine = [AuditRecord.object_name.in_(["audit-instance", "audit-instance-nobody"])]

    def names(**filters: object) -> set[str]:
        where = service.conditions(project_ids=None, **filters) + mine  # type: ignore[arg-type]
        return set(s.scalars(select(AuditRecord.object_name).where(*where)))

    assert names(instance=True) == {"audit-instance-nobody"}
    assert names() == {"audit-instance", "audit-instance-nobody"}  # control: both exist
    assert names(instance=True, action="auth") == {"audit-instance-nobody"}
    assert names(instance=True, action="project") == set()
    assert names(project_id=project.id) == {"audit-instance"}


@pytest.mark.both_databases
def test_the_csv_export_streams_the_filtered_records_as_a_file(client: TestClient) -> None:
    bad = {"username": "=cmd|' /C calc'!A0", "password": "wrong-password-1"}
    assert client.post("/api/v1/auth/login", json=bad, headers={"Authorization": ""}).status_code
    created = client.post("/api/v1/projects", json={"name": "csv-export"})
    assert created.status_code == 201, created.text

    exported = client.get("/api/v1/audit/export.csv", params={"instance": True, "action": "auth"})
    assert exported.status_code == 200, exported.text
    assert exported.headers["content-type"].startswith("text/csv")
    assert exported.headers["content-disposition"] == 'attachment; filename="steward-audit.csv"'
    rows = list(csv.DictReader(io.StringIO(exported.text, newline="")))
    assert [r["action"] for r in rows] == ["auth:login_failed"]  # not project:create
    assert rows[0]["object_name"] == "'=cmd|' /C calc'!A0"
    assert "wrong-password-1" not in exported.text
    everything = client.get("/api/v1/audit/export.csv").text  # control: the filter did filter
    assert "project:create" in everything
