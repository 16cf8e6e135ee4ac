"""Searchable runs, below HTTP: a launch keeps its non-secret answers and launch settings
(``runs.values``), the runs list filters by them (``answer=name:value``,
``launch=field:value``), and the launch's audit record shows them; a run's label and note
(``runs.service.set_label``)."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services

from steward.audit.models import AuditRecord
from steward.projects.models import ProjectRole
from steward.runs import service
from steward.runs.models import RunValue
from steward.runs.schemas import RunFilters, RunLabelUpdate


def _ids(session: Session, **filters: Any) -> list[int]:
    admin = services.admin(session)
    rows, _ = service.list_runs(session, admin, RunFilters.model_validate(filters))
    return [run["id"] for run in rows]


@pytest.mark.both_databases
def test_runs_are_found_by_their_answers_and_launch_settings(db_session: Session) -> None:
    project = services.project(db_session)
    stop_db = support_runs.template(db_session, project)
    other = support_runs.template(db_session, project, "patch", survey=[])

    def launch(made: Any = stop_db, **body: Any) -> int:
        return support_runs.launch(db_session, project, made, **body).id

    orcl = launch(survey={"db_name": "ORCL", "reason": "patch 19.22", "sys_password": "s3cr3t"})
    cdb2 = launch(survey={"db_name": "CDB2", "reason": "patch 19.22"}, limit="db02")
    checked = launch(survey={"db_name": "ORCL"}, limit="db01", check_mode=True, tags="stop")
    given = launch(other, extra_vars={"db_name": "ORCL", "threads": 8})

    assert _ids(db_session, answer=["db_name:ORCL"]) == [given, checked, orcl]
    # every filter must match; numbers as JSON, as they are shown
    assert _ids(db_session, answer=["db_name:ORCL", "reason:patch 19.22"]) == [orcl]
    assert _ids(db_session, answer=["threads:8"]) == [given]
    assert _ids(db_session, answer=["reason:patch 19.22"], launch=["limit:db02"]) == [cdb2]
    assert _ids(db_session, launch=["check_mode:true", "tags:stop"]) == [checked]
    # exact values: neither a prefix nor another case
    assert _ids(db_session, answer=["db_name:ORC"]) == []
    assert _ids(db_session, answer=["db_name:orcl"]) == []
    # with the other filters and the keyset pages
    assert _ids(db_session, answer=["db_name:ORCL"], template_id=stop_db.id) == [checked, orcl]
    assert _ids(db_session, answer=["db_name:ORCL"], before_id=checked) == [orcl]

    kept = db_session.execute(
        select(RunValue.kind, RunValue.name, RunValue.value).where(RunValue.run_id == checked)
    ).all()
    assert sorted(kept) == [
        ("answer", "db_name", "ORCL"),
        ("launch", "check_mode", "true"),
        ("launch", "limit", "db01"),
        ("launch", "tags", "stop"),
    ]


def test_a_launch_value_too_long_to_search_is_kept_out_and_still_launches(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    run = support_runs.launch(db_session, project, made, survey={"db_name": "x" * 201})

    assert run.params["launch_vars"]["db_name"] == "x" * 201
    names = db_session.scalars(select(RunValue.name).where(RunValue.run_id == run.id)).all()
    assert names == []


@pytest.mark.parametrize(
    ("filters", "field", "cause"),
    [
        ({"answer": ["db_name"]}, "answer", "write name:value"),
        ({"answer": [":ORCL"]}, "answer", "write name:value"),
        ({"launch": ["playbook:site.yml"]}, "launch", "is not one of limit, tags"),
        ({"answer": [f"a:{i}" for i in range(6)]}, "answer", "at most 5"),
        ({"launch": ["limit:" + "x" * 400]}, "launch", "at most 401"),
    ],
)
def test_a_filter_that_cannot_match_is_refused_naming_it(
    db_session: Session, filters: dict[str, Any], field: str, cause: str
) -> None:
    detail = services.refused(lambda: _ids(db_session, **filters), field)
    assert cause in detail


def test_the_launch_audit_record_shows_the_answers_and_settings_given(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    answers = {"db_name": "ORCL", "reason": "TDE on", "sys_password": "s3cr3t"}
    run = support_runs.launch(db_session, project, made, survey=answers, limit="db01")

    record = db_session.scalars(
        select(AuditRecord).where(AuditRecord.object_type == "run", AuditRecord.object_id == run.id)
    ).one()
    assert record.action == "run:launch"
    assert record.changes == {
        "limit": [None, "db01"],
        "vars.db_name": [None, "ORCL"],
        "vars.reason": [None, "TDE on"],
    }
    assert "db_name=ORCL reason=TDE on" in record.detail
    assert "limit=db01" in record.detail


def test_who_may_launch_labels_a_run_audited(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    run = support_runs.launch(db_session, project, made, survey={"db_name": "ORCL"})
    operator = support_runs.member(db_session, project, "olga", ProjectRole.OPERATOR)

    body = RunLabelUpdate(label="  TDE on ", note="AES256, tablespace USERS\nsecond line")
    rights = support_runs.rights(db_session, operator, project)
    service.set_label(db_session, rights, operator, run, body)
    # only the fields sent change; "" clears
    service.set_label(db_session, rights, operator, run, RunLabelUpdate(note=""))

    db_session.refresh(run)
    assert (run.label, run.note) == ("TDE on", "")
    records = db_session.scalars(
        select(AuditRecord)
        .where(AuditRecord.action == "run:label", AuditRecord.object_id == run.id)
        .order_by(AuditRecord.id)
    ).all()
    assert [r.actor for r in records] == ["olga", "olga"]
    assert records[0].changes == {
        "label": ["", "TDE on"],
        "note": ["", "AES256, tablespace USERS\nsecond line"],
    }
    assert records[1].changes == {"note": ["AES256, tablespace USERS\nsecond line", ""]}
    assert records[0].object_name == "stop_db"
    services.refused(lambda: RunLabelUpdate.model_validate({"label": None}).changes(), "label")
