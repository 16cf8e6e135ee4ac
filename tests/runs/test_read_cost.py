"""What reading runs costs, below HTTP (issue 29): a run's head decides its tag in one query,
without its launch values or recap; only a full read loads them; a page of the runs list
selects the columns its answer shows, in one query, never the whole rows."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect as sa_inspect
from sqlalchemy import update
from sqlalchemy.orm import Session
from support import services
from support.builders import inserted_run
from support.recorded import FAILING, recorded
from support.services import counted

from steward.access.policy import Action, ProjectAccess, access
from steward.api import conditional
from steward.config import Settings
from steward.errors import NotFound
from steward.keys.models import Key
from steward.projects.models import Project
from steward.runs import read, refs, service, story
from steward.runs.models import Run, RunHost
from steward.runs.params import RunParams
from steward.runs.schemas import RunFilters, RunRead
from steward.runs.status import RunStatus

# what a page of runs never reads: sealed launch values, and what only the worker and the tag use
NOT_READ = ("runs.secret_params", "runs.worker_id", "runs.heartbeat_at", "runs.user_agent")


def _finished(session: Session, project: Project, **columns: object) -> Run:
    run = inserted_run(project.id, None, RunStatus.SUCCESSFUL, **columns)
    session.add(run)
    session.flush()
    session.add_all(RunHost(run_id=run.id, host=h, ok=3, changed=1) for h in ("db1", "db2"))
    session.flush()
    return run


def _head(session: Session, rights: ProjectAccess, run_id: int) -> read.Head:
    """A run's head as a poller's read finds it (``deps``: the project and the head, one query)."""
    found = read.located(session, rights.project.id, run_id, whole=False)
    return read.head_of(session, rights, run_id, found and found[1], Settings())


def _tag(session: Session, rights: ProjectAccess, run_id: int) -> str:
    found = _head(session, rights, run_id)
    return conditional.etag(*found.tag_parts(rights.sees_resources))


@pytest.mark.both_databases  # the names of the parameters' objects: one UNION ALL
def test_a_runs_head_is_one_query_without_its_launch_values_or_recap(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    run = _finished(db_session, project, label="baseline")
    rights = access(db_session, services.admin(db_session), project)
    db_session.expunge_all()  # nothing kept: what the head needs, it queries

    with counted(db_session) as statements:
        found = _head(db_session, rights, run.id)

    assert len(statements) == 1, statements
    sql = statements[0]
    assert "run_hosts" not in sql
    assert "run_events" not in sql
    assert "runs.params" not in sql
    assert "runs.secret_params" not in sql
    assert (found.id, found.columns["label"], found.template_name) == (run.id, "baseline", "")
    assert found.launched_by == ""  # inserted, not launched by anyone
    # control: the full read then loads the launch values, names and recap
    with counted(db_session) as statements:
        full = read.full(db_session, rights, found)
    assert full.host_counts is not None
    assert full.host_counts.hosts == 2
    assert full.params.playbook == "ok.yml"
    assert full.refs is not None
    assert full.story is not None
    # the launch values with the host counts, the first failure and the names behind them
    assert len(statements) == 1, statements


def test_the_tag_changes_with_a_changing_column_and_only_then(db_session: Session) -> None:
    project = services.project(db_session)
    run = _finished(db_session, project)
    rights = access(db_session, services.admin(db_session), project)
    tag = _tag(db_session, rights, run.id)
    assert _tag(db_session, rights, run.id) == tag

    db_session.execute(update(Run).where(Run.id == run.id).values(line_count=41))
    moved = _tag(db_session, rights, run.id)
    assert moved != tag
    db_session.execute(update(Run).where(Run.id == run.id).values(note="a note"))
    assert _tag(db_session, rights, run.id) != moved


def test_every_column_but_those_written_once_makes_the_tag() -> None:
    columns = {c.key for c in sa_inspect(Run).column_attrs}
    assert columns > Run.WRITTEN_ONCE  # each a real column
    assert {c.key for c in read.CHANGING} == columns - Run.WRITTEN_ONCE
    # what a read shows of the written-once columns: the launch values only
    assert {c.key for c in read.READ_COLUMNS} & Run.WRITTEN_ONCE == {"params"}


def test_a_run_the_caller_may_not_see_is_not_found_by_its_head(db_session: Session) -> None:
    project = services.project(db_session)
    run = _finished(db_session, project)
    seen_only = ProjectAccess(project, frozenset({Action.PROJECT_VIEW}), {})

    with pytest.raises(NotFound):
        _head(db_session, seen_only, run.id)
    other = services.project(db_session, "other")
    with pytest.raises(NotFound):  # a run of another project
        _head(db_session, access(db_session, services.admin(db_session), other), run.id)
    # control: who may view the project's runs finds it
    may_view = ProjectAccess(project, frozenset({Action.PROJECT_VIEW, Action.RUN_VIEW}), {})
    assert _head(db_session, may_view, run.id).id == run.id


def test_a_page_of_runs_is_one_query_of_the_columns_it_shows(db_session: Session) -> None:
    project = services.project(db_session)
    runs = [_finished(db_session, project) for _ in range(3)]
    admin = services.admin(db_session)

    with counted(db_session) as statements:
        rows, next_before = service.list_runs(db_session, admin, RunFilters(limit=2), project)

    assert len(statements) == 1, statements
    assert not [column for column in NOT_READ if column in statements[0]]
    assert [row["id"] for row in rows] == [runs[2].id, runs[1].id]
    assert next_before == runs[1].id
    names = {"template", "template_name", "recorded_name", "launched_by"}
    assert set(rows[0]) == {c.key for c in read.READ_COLUMNS} | names
    # what the route makes of a row: the read of the run, in one validation
    shown = RunRead.model_validate(rows[0])
    assert (shown.id, shown.template_name, shown.params.playbook) == (runs[2].id, "", "ok.yml")


@pytest.mark.both_databases  # the name is read from the JSON snapshot by the database
def test_a_deleted_templates_name_is_read_from_the_launch_snapshot(db_session: Session) -> None:
    project = services.project(db_session)
    run = _finished(db_session, project, template_snapshot={"name": "restart", "id": 9})
    rights = access(db_session, services.admin(db_session), project)

    assert _head(db_session, rights, run.id).template_name == "restart"
    rows, _ = service.list_runs(db_session, services.admin(db_session), RunFilters(), project)
    # the list shows no name for a deleted template's run (only an ad-hoc run's), as before
    assert (rows[0]["template_name"], rows[0]["recorded_name"]) == ("", "restart")


@pytest.mark.both_databases  # the snapshot's names: a JSON path of each database
def test_a_gone_key_is_named_as_the_snapshot_recorded_it_in_one_more_query(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    keys = services.cipher()
    kept = services.secret_key(db_session, keys, project, "vault-kept", "v-123456")
    gone = services.secret_key(db_session, keys, project, "vault-gone", "v-654321")
    params = RunParams(
        playbook="ok.yml", repository_id=1, inventory_id=1, vault_key_ids=[kept, gone]
    )
    snapshot = {"name": "t", "vault_keys": ["vault-kept", "vault-gone (as recorded)"]}
    run = inserted_run(
        project.id,
        None,
        RunStatus.SUCCESSFUL,
        params=params.model_dump(),
        template_snapshot=snapshot,
    )
    db_session.add(run)
    db_session.flush()

    # control: with both keys there, their names now, in one query
    with counted(db_session) as statements:
        named = refs.refs(db_session, project.id, run.id, params, sees_keys=True)
    assert (named.vault_keys, len(statements)) == (["vault-kept", "vault-gone"], 1)

    db_session.delete(db_session.get(Key, gone))
    db_session.flush()
    with counted(db_session) as statements:
        named = refs.refs(db_session, project.id, run.id, params, sees_keys=True)
    assert named.vault_keys == ["vault-kept", "vault-gone (as recorded)"]
    assert len(statements) == 2, statements
    # who may not see the keys is told no key name, recorded or not
    hidden = refs.refs(db_session, project.id, run.id, params, sees_keys=False)
    assert hidden.vault_keys == []


@pytest.mark.both_databases  # the first failure and the counts joined into one statement
def test_a_full_read_tells_the_first_failure_and_counts_as_the_story_does(
    db_session: Session,
) -> None:
    run = recorded(db_session, RunStatus.FAILED, FAILING)
    run.params = RunParams(playbook="ok.yml", repository_id=1, inventory_id=1).model_dump()
    db_session.flush()
    project = db_session.get(Project, run.project_id)
    assert project is not None
    rights = access(db_session, services.admin(db_session), project)

    found = read.full(db_session, rights, _head(db_session, rights, run.id))

    assert found.story is not None
    assert found.story.first_failure == story.first_failure(db_session, run.id)
    assert found.story.first_failure is not None  # control: there is one to tell
    assert found.host_counts == story.host_counts(db_session, [run.id])[run.id]
    assert found.host_counts is not None
    assert found.host_counts.unreachable == 1
