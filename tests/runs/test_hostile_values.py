"""Searching runs by their launch values must never reveal a secret answer, and a run's label
is short shown text set only by who may launch: below HTTP, each probe with its control."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import runs as support_runs
from support import services

from steward.audit.models import AuditRecord
from steward.errors import PermissionDenied
from steward.projects.models import ProjectRole
from steward.runs import service
from steward.runs.models import RunValue
from steward.runs.schemas import RunFilters, RunLabelUpdate

pytestmark = pytest.mark.security

SECRET = "Tr0ub4dor&3"


def _found(session: Session, answer: str) -> list[int]:
    rows, _ = service.list_runs(session, services.admin(session), RunFilters(answer=[answer]))
    return [run["id"] for run in rows]


@pytest.mark.both_databases
def test_a_filter_on_a_secret_answer_finds_nothing(db_session: Session) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    answers = {"db_name": "ORCL", "sys_password": SECRET}
    run = support_runs.launch(db_session, project, made, survey=answers)

    # the control: the non-secret answer of the same run finds it
    assert _found(db_session, "db_name:ORCL") == [run.id]
    # the probe: the secret answer, right or guessed, finds nothing: it was never kept
    assert _found(db_session, f"sys_password:{SECRET}") == []
    assert _found(db_session, "sys_password:********") == []
    kept = db_session.execute(select(RunValue.name, RunValue.value)).all()
    assert ("db_name", "ORCL") in kept
    assert all(SECRET not in value and name != "sys_password" for name, value in kept)


def test_the_launch_audit_record_holds_no_secret_answer_not_even_its_name(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    made = support_runs.template(db_session, project)
    answers = {"db_name": "ORCL", "sys_password": SECRET}
    run = support_runs.launch(db_session, project, made, survey=answers)

    record = db_session.scalars(
        select(AuditRecord).where(
            AuditRecord.action == "run:launch", AuditRecord.object_id == run.id
        )
    ).one()
    written = f"{record.detail} {record.changes}"
    assert "vars.db_name" in record.changes  # the control: answers are recorded
    assert SECRET not in written
    assert "sys_password" not in written


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"label": "x" * 61}, "label"),
        ({"label": "TDE\x1b[31m on"}, "label"),  # a terminal escape
        ({"label": "TDE on\n"}, "label"),
        ({"label": "baseline\u202eno"}, "label"),  # reorders what is shown
        ({"note": "n" * 2001}, "note"),
        ({"note": "bell\x07"}, "note"),
        ({"label": None}, "label"),
        ({"label": "ok", "owner": "me"}, "owner"),
    ],
)
def test_a_label_or_note_that_is_not_short_shown_text_is_refused(
    db_session: Session, body: dict[str, object], field: str
) -> None:
    project = services.project(db_session)
    run = support_runs.launch(db_session, project, support_runs.template(db_session, project))
    rights = support_runs.rights(db_session, services.admin(db_session), project)

    def label() -> None:
        update = RunLabelUpdate.model_validate(body)
        service.set_label(db_session, rights, services.admin(db_session), run, update)

    services.refused(label, field)
    db_session.refresh(run)
    assert (run.label, run.note) == ("", "")


@pytest.mark.both_databases
def test_the_longest_label_and_a_note_of_lines_are_kept(db_session: Session) -> None:
    """The control of the refusals above: at the bounds (PostgreSQL's VARCHAR counts
    characters, not bytes), with line breaks and tabs in a note."""
    project = services.project(db_session)
    run = support_runs.launch(db_session, project, support_runs.template(db_session, project))
    admin = services.admin(db_session)
    body = RunLabelUpdate(label="é" * 60, note="line 1\n\tline 2" + "n" * 1986)
    service.set_label(db_session, support_runs.rights(db_session, admin, project), admin, run, body)
    assert (run.label, len(run.note)) == ("é" * 60, 2000)


def test_a_viewer_may_not_label_a_run_an_operator_may(db_session: Session) -> None:
    project = services.project(db_session)
    run = support_runs.launch(db_session, project, support_runs.template(db_session, project))
    viewer = support_runs.member(db_session, project, "vera", ProjectRole.VIEWER)
    operator = support_runs.member(db_session, project, "otto", ProjectRole.OPERATOR)
    body = RunLabelUpdate(label="baseline")

    with pytest.raises(PermissionDenied, match="'run:launch' is required on template"):
        service.set_label(
            db_session, support_runs.rights(db_session, viewer, project), viewer, run, body
        )
    db_session.refresh(run)
    assert run.label == ""
    # the control: who may launch the template may label its run
    service.set_label(
        db_session, support_runs.rights(db_session, operator, project), operator, run, body
    )
    db_session.refresh(run)
    assert run.label == "baseline"
