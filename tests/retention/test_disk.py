"""Retention frees disk: a prune gives the space of what it removed back (SQLite's incremental
vacuum, PostgreSQL's VACUUM), measures the database around the pass, and says the rows and the
bytes in its audit record and in `steward prune`'s answer; a SQLite file made by 0.1.0 returns
nothing until `steward prune --compact` converts it.

The runs are rows (support.builders.inserted_run) with a lot of output: what is freed is rows,
not a process."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, text
from sqlalchemy.orm import Session
from support import services
from support.admin import ADMIN_TOKEN
from support.builders import inserted_run

from steward import cli
from steward.audit.models import AuditRecord
from steward.config import Settings
from steward.db import make_engine, make_session_factory, utcnow
from steward.retention import service, storage
from steward.retention.service import Periods
from steward.runs.models import RunOutput
from steward.runs.status import RunStatus
from steward.server import build_app

pytestmark = pytest.mark.both_databases  # what is freed, and how it is measured, differ

# one stored chunk of output, about a page; random hex: PostgreSQL compresses what it stores
CHUNK = os.urandom(1950).hex() + "\n"
OUTPUT_BYTES = 1_000_000  # of each old run


def _runs_with_output(session: Session, project_id: int, count: int, days_old: int) -> None:
    """``count`` finished runs of ``days_old`` days, each with OUTPUT_BYTES of output."""
    chunks = OUTPUT_BYTES // len(CHUNK)
    for _ in range(count):
        finished = utcnow() - dt.timedelta(days=days_old)
        run = inserted_run(project_id, None, RunStatus.SUCCESSFUL)
        run.finished_at = finished
        session.add(run)
        session.flush()
        session.add_all(
            RunOutput(run_id=run.id, first_line=i, last_line=i, counter=i, text=CHUNK)
            for i in range(chunks)
        )
        run.line_count = chunks
    session.commit()


@pytest.fixture
def own_session(database_url: str) -> Iterator[Session]:
    """A session on a database of the test's own, not ``db_session``'s savepoint: PostgreSQL's
    VACUUM waits ~5 s a table for the truncate lock that an open outer transaction holds."""
    engine = make_engine(database_url)
    try:
        with make_session_factory(engine)() as session:
            yield session
    finally:
        engine.dispose()


def _last_record(session: Session) -> AuditRecord:
    return session.scalars(select(AuditRecord).where(AuditRecord.action == "retention:prune")).one()


def test_a_prune_reports_the_rows_and_the_bytes_it_freed(own_session: Session) -> None:
    db_session = own_session
    project = services.project(db_session)
    _runs_with_output(db_session, project.id, count=2, days_old=40)
    _runs_with_output(db_session, project.id, count=1, days_old=1)  # control: kept

    pruned = service.prune(db_session, Periods(runs=30))

    assert (pruned.runs, pruned.rows) == (2, 2)
    now = storage.size(db_session).total
    assert pruned.size_after == now  # measured, not estimated
    record = _last_record(db_session)
    assert record.changes == {"database_bytes": [pruned.size_before, pruned.size_after]}
    assert record.detail.startswith("removed 2 runs older than 30 days; ")
    assert f"({pruned.bytes_freed} bytes; database now" in record.detail
    left = db_session.scalar(select(RunOutput.run_id).distinct())
    assert left is not None  # the recent run keeps its output
    if storage.dialect(db_session) == "sqlite":
        # the freed pages went back: at least the output removed, at most the runs' pages
        assert 2 * OUTPUT_BYTES <= pruned.size_before - now < 3 * OUTPUT_BYTES
        assert storage.size(db_session).free == 0
    else:
        # VACUUM makes the space reusable and may even grow the files (free space and
        # visibility maps): what it returned to the filesystem, never below 0, said so
        assert pruned.bytes_freed == max(pruned.size_before - now, 0)
        assert "reusable by new rows (PostgreSQL VACUUM)" in record.detail


def test_old_rows_at_a_tables_end_go_back_to_the_filesystem(own_session: Session) -> None:
    """PostgreSQL gives pages back only by truncating a table's empty end (VACUUM, on a
    connection of its own, with the prune's session committed first so that nothing of ours
    holds the tables): old rows stored last are given back, not only made reusable."""
    project = services.project(own_session)
    _runs_with_output(own_session, project.id, count=1, days_old=1)  # control: kept, first
    _runs_with_output(own_session, project.id, count=2, days_old=40)  # the tables' end

    pruned = service.prune(own_session, Periods(runs=30))

    assert pruned.runs == 2
    assert pruned.bytes_freed >= OUTPUT_BYTES  # the end of run_output, given back


def test_nothing_removed_nothing_measured_nothing_recorded(db_session: Session) -> None:
    project = services.project(db_session)
    _runs_with_output(db_session, project.id, count=1, days_old=10)
    assert service.prune(db_session, Periods(runs=30)) == service.Pruned()
    assert (
        db_session.scalars(
            select(AuditRecord.id).where(AuditRecord.action == "retention:prune")
        ).all()
        == []
    )


def _sqlite_file(url: str) -> Path:
    return Path(url.removeprefix("sqlite:///"))


def _checkpointed_size(engine: Engine, url: str) -> int:
    """The file's size once the WAL is folded in (what `ls -l` shows after a checkpoint)."""
    with engine.connect() as connection:
        connection.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").all()
    return _sqlite_file(url).stat().st_size


def test_pruning_a_real_database_frees_what_it_reports(database_url: str) -> None:
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    try:
        with sessions() as session:
            project = services.project(session)
            _runs_with_output(session, project.id, count=4, days_old=40)
            _runs_with_output(session, project.id, count=1, days_old=1)
        sqlite = engine.dialect.name == "sqlite"
        file_before = _checkpointed_size(engine, database_url) if sqlite else 0

        with sessions() as session:
            pruned = service.prune(session, Periods(runs=30))
            measured = storage.size(session).total

        assert pruned.runs == 4
        assert pruned.size_after == measured
        if sqlite:
            file_after = _checkpointed_size(engine, database_url)
            assert pruned.size_before == file_before  # the database's size is the file's
            assert file_before - file_after == pruned.bytes_freed  # the file shrank by it
            assert pruned.bytes_freed >= 4 * OUTPUT_BYTES
        else:
            with engine.connect() as connection:
                vacuumed = connection.execute(
                    text(
                        "SELECT relname FROM pg_stat_user_tables WHERE last_vacuum IS NOT NULL"
                        " AND relname IN ('runs', 'run_output', 'run_events', 'projects')"
                    )
                ).scalars()
                # the pruned table and those its rows cascade to; not the others
                assert sorted(vacuumed) == ["run_events", "run_output", "runs"]
            assert pruned.bytes_freed == max(pruned.size_before - measured, 0)
    finally:
        engine.dispose()


@pytest.mark.sqlite_only
def test_a_sqlite_file_of_0_1_0_returns_space_once_compacted(
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    path = _sqlite_file(database_url)
    with sqlite3.connect(path) as raw:  # as 0.1.0 made it: no auto-vacuum
        raw.execute("PRAGMA auto_vacuum=NONE")
        raw.execute("VACUUM")
        assert raw.execute("PRAGMA auto_vacuum").fetchone() == (0,)
    engine = make_engine(database_url)
    sessions = make_session_factory(engine)
    try:
        with sessions() as session:
            project = services.project(session)
            _runs_with_output(session, project.id, count=2, days_old=40)
            pruned = service.prune(session, Periods(runs=30))
            assert pruned.runs == 2
            assert pruned.bytes_freed == 0  # the pages stay in the file, free
            assert not pruned.returns_space
            assert "until `steward prune --compact` is run once" in _last_record(session).detail
            free = storage.size(session).free
            assert free is not None
            assert free >= 2 * OUTPUT_BYTES
    finally:
        engine.dispose()
    size_before = path.stat().st_size
    monkeypatch.setenv("STEWARD_DATABASE_URL", database_url)
    monkeypatch.setenv("STEWARD_DATA_DIR", str(tmp_path / "data"))

    assert cli.main(["prune", "--compact"]) == 0

    out = capsys.readouterr().out
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA auto_vacuum").fetchone() == (2,)  # incremental from now on
        raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        detail, changes = raw.execute(
            "SELECT detail, changes FROM audit_records WHERE action = 'retention:compact'"
        ).fetchone()
    assert size_before - path.stat().st_size >= 2 * OUTPUT_BYTES
    assert out.startswith("compacted: ")
    assert detail == out.strip()
    assert '"database_bytes"' in changes


def test_compact_refuses_on_postgresql_and_says_why(
    database_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("STEWARD_DATABASE_URL", database_url)
    monkeypatch.setenv("STEWARD_DATA_DIR", str(tmp_path / "data"))
    if database_url.startswith("sqlite"):  # control: the same command works on SQLite
        assert cli.main(["prune", "--compact"]) == 0
        return
    assert cli.main(["prune", "--compact"]) == 2
    assert "VACUUM FULL" in capsys.readouterr().err


def test_the_storage_report_names_the_biggest_tables_and_warns_above_the_threshold(
    own_session: Session, settings_for_storage: Settings
) -> None:
    db_session = own_session
    project = services.project(db_session)
    _runs_with_output(db_session, project.id, count=1, days_old=40)
    # kept: the biggest table; stored after the pruned run's rows, so PostgreSQL's VACUUM has
    # no empty end of the table to truncate (truncating waits ~5 s a table for a lock that the
    # prune's own session still holds; what a prune frees is test_a_prune_reports_…'s point)
    _runs_with_output(db_session, project.id, count=2, days_old=1)
    service.prune(db_session, Periods(runs=30))

    report = service.storage_report(db_session, settings_for_storage)

    assert report.size_bytes == storage.size(db_session).total
    assert report.tables is not None
    assert report.tables[0].name == "run_output"  # with its index, biggest first
    assert report.tables[0].bytes >= 2 * OUTPUT_BYTES
    assert [t.bytes for t in report.tables] == sorted(
        (t.bytes for t in report.tables), reverse=True
    )
    assert report.last_prune is not None
    assert report.last_prune.detail.startswith("removed 1 runs older than 30 days; ")
    assert report.last_prune.size_after is not None
    assert report.retention.runs_days == 30
    assert (report.warning_bytes, report.over_warning) == (1024 * 1024, True)
    # control: the same database under a threshold above its size, and with none
    roomy = settings_for_storage.model_copy(update={"database_size_warning_mb": 100_000})
    assert service.storage_report(db_session, roomy).over_warning is False
    unset = settings_for_storage.model_copy(update={"database_size_warning_mb": 0})
    assert service.storage_report(db_session, unset).warning_bytes is None
    assert service.storage_report(db_session, unset).over_warning is False


@pytest.fixture
def settings_for_storage(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, run_retention_days=30, database_size_warning_mb=1)


@pytest.mark.sqlite_only  # the wiring; the rules are above, on both
def test_storage_and_metrics_over_http(settings: Settings) -> None:
    settings = settings.model_copy(update={"database_size_warning_mb": 1})
    app = build_app(settings, migrate=False)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        with app.state.runtime.sessions() as session:
            _runs_with_output(session, services.project(session).id, count=1, days_old=1)

        body = client.get("/api/v1/storage").json()
        metrics = client.get("/api/v1/metrics").text
    app.state.runtime.engine.dispose()

    assert body["database"] == "sqlite"
    assert body["warning_bytes"] == 1024 * 1024
    assert body["size_bytes"] > 1024 * 1024
    assert body["over_warning"] is True
    assert body["tables"][0]["name"] == "run_output"
    assert body["last_prune"] is None  # nothing pruned yet
    samples = dict(line.split() for line in metrics.splitlines() if not line.startswith("#"))
    assert float(samples["steward_database_size_warning_bytes"]) == 1024 * 1024
    assert float(samples["steward_database_size_bytes"]) == body["size_bytes"]
    assert float(samples["steward_database_free_bytes"]) == body["free_bytes"]
