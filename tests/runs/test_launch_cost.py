"""What a launch costs in statements (issue 29): the gate reads its template with the vault keys
and the freeze windows it checks in one statement; a launch over the API, queued behind a busy
slot, is that, the project and its two inserts (the run, its audit record)."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy.orm import Session
from support import freezes as support_freezes
from support import runs as support_runs
from support import services
from support.builders import Workbench, inserted_run
from support.services import counted

from steward.errors import Frozen
from steward.freezes import service as freezes
from steward.keys.models import Key
from steward.projects.models import Project
from steward.runs import service as runs
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.templates.models import Template

pytestmark = pytest.mark.both_databases  # the joins, the outer join of windows, both inserts


def test_a_launch_reads_its_template_keys_and_freeze_windows_in_one_statement(
    db_session: Session,
) -> None:
    project = services.project(db_session)
    keys = services.cipher()
    # ids in this order, names the other way round: the snapshot keeps the template's order
    ids = [services.secret_key(db_session, keys, project, name, "v-123456") for name in "zya"]
    template = support_runs.template(db_session, project, "ship", survey=[], become_key_id=ids[1])
    template.vault_keys = [db_session.get_one(Key, i) for i in ids]
    later = dt.timedelta(days=7)
    support_freezes.window(db_session, None, "instance, next week", starts_in=later)
    support_freezes.window(db_session, project, "project, next week", starts_in=later)
    support_freezes.window(db_session, services.project(db_session, "other"), "elsewhere, now")
    db_session.flush()
    db_session.expunge_all()  # nothing kept: what the gate needs, it queries
    admin = services.admin(db_session)
    project = db_session.get_one(Project, project.id)
    stub = Template(id=template.id)  # the gate takes its id only (``launch`` below)

    with counted(db_session) as statements:
        run = support_freezes.launch(db_session, project, stub, admin)

    reads = [s for s in statements if s.lstrip().startswith("SELECT")]
    snapshot = run.template_snapshot
    assert (snapshot["vault_keys"], snapshot["become_key"]) == (["z", "y", "a"], "y")
    assert RunParams.of(run.params, run.id).vault_key_ids == ids
    # the template, its keys and the windows: one statement, and no other read
    assert len(reads) == 1, reads
    assert all(table in reads[0] for table in ("templates", "keys", "freeze_windows"))
    # joined: the windows and the vault keys (through their link table); the ssh and become
    # keys' names are scalar subqueries (two more joins cost PostgreSQL's planner more)
    assert reads[0].count(" JOIN ") == 3, reads[0]
    # control: the template and the windows read apart, as the gate read them, are two
    db_session.expunge_all()
    project = db_session.get_one(Project, project.id)
    rights = support_runs.rights(db_session, admin, project)
    with counted(db_session) as apart:
        runs.launchable(db_session, rights, stub.id)
        freezes.applicable(db_session, [project.id])
    assert len(apart) == 2, apart
    # control: a window of the project holding now is met through the same statement
    support_freezes.window(db_session, project, "project, now")
    with pytest.raises(Frozen, match="'project, now'"):
        support_freezes.launch(db_session, project, stub, admin)


def test_a_launch_queued_behind_a_busy_slot_is_four_statements(
    workbench: Workbench, statements: list[str]
) -> None:
    template = workbench.template("ok.yml", overridable=["limit"])
    project = workbench.url("").removesuffix("/")
    assert workbench.client.patch(project, json={"max_parallel_runs": 1}).status_code == 200
    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        session.add(inserted_run(workbench.project_id, template, RunStatus.RUNNING))
        session.commit()
    statements.clear()

    launched = workbench.launch(template)

    assert launched["status"] == "queued"
    # the project (an admin's rights need no more), the template with its keys and the freeze
    # windows, the run's insert and its audit record's
    assert len(statements) == 4, statements
    assert [s.split()[0] for s in statements] == ["SELECT", "SELECT", "INSERT", "INSERT"]
    # control: launch values to find the run by add their rows: one statement more, counted
    statements.clear()
    assert workbench.launch(template, limit="localhost")["status"] == "queued"
    assert len(statements) == 5, statements
