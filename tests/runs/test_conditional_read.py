"""A run read with ``If-None-Match``: a poller of an unchanged run gets a 304 with no body; any
change of the run (its row, its plan's approval, the names it shows) gives a new tag."""

from __future__ import annotations

import inspect

import pytest
from sqlalchemy import Engine, event, update
from support.builders import Workbench, inserted_run

from steward.runs.models import Run, RunHost
from steward.runs.params import RunParams
from steward.runs.status import RunStatus


def test_an_unchanged_run_is_a_304_and_a_changed_one_a_new_tag(workbench: Workbench) -> None:
    template = workbench.template("ok.yml")
    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        run = inserted_run(workbench.project_id, template, RunStatus.RUNNING)
        session.add(run)
        session.commit()
        run_id = run.id
    url = workbench.url(f"runs/{run_id}")
    first = workbench.client.get(url)
    tag = first.headers["etag"]
    assert first.status_code == 200
    assert tag.startswith('W/"')
    assert first.headers["cache-control"] == "private, no-cache"

    again = workbench.client.get(url, headers={"If-None-Match": tag})
    assert (again.status_code, again.content, again.headers["etag"]) == (304, b"", tag)
    # a list of tags, one of them current, and the strong form of the weak tag, match too
    listed = workbench.client.get(url, headers={"If-None-Match": f'"x", {tag.removeprefix("W/")}'})
    assert listed.status_code == 304
    # control: another tag is answered in full
    other = workbench.client.get(url, headers={"If-None-Match": 'W/"0"'})
    assert other.status_code == 200
    assert other.json()["id"] == run_id

    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        session.execute(update(Run).where(Run.id == run_id).values(line_count=7))
        session.commit()
    moved = workbench.client.get(url, headers={"If-None-Match": tag})
    assert moved.status_code == 200
    assert moved.json()["line_count"] == 7
    assert moved.headers["etag"] != tag

    renamed = workbench.client.patch(
        workbench.url(f"templates/{template}"), json={"name": "renamed"}
    )
    assert renamed.status_code == 200, renamed.text
    named = workbench.client.get(url, headers={"If-None-Match": moved.headers["etag"]})
    assert named.status_code == 200
    assert named.json()["template_name"] == "renamed"


@pytest.mark.both_databases  # what one statement joins: JSON paths, subqueries of each database
def test_a_run_read_is_one_statement_and_its_304_one_without_the_rest(
    workbench: Workbench, statements: list[str]
) -> None:
    key = workbench.key(name="sudo-pw", kind="login_password", password="pw-123456")
    params = RunParams(
        playbook="ok.yml",
        repository_id=workbench.repository_id,
        inventory_id=workbench.inventory_id,
        become_key_id=key,
    )
    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        run = inserted_run(
            workbench.project_id, None, RunStatus.SUCCESSFUL, params=params.model_dump()
        )
        session.add(run)
        session.flush()
        session.add_all(RunHost(run_id=run.id, host=h, ok=3, changed=1) for h in ("db1", "db2"))
        session.commit()
        run_id = run.id
    url = workbench.url(f"runs/{run_id}")
    statements.clear()

    whole = workbench.client.get(url)

    assert whole.status_code == 200
    read = whole.json()
    assert (read["refs"]["repository"], read["refs"]["inventory"]) == ("local", "localhost")
    assert read["refs"]["become_key"] == "sudo-pw"
    assert (read["host_counts"]["hosts"], read["host_counts"]["changed"]) == (2, 2)
    # the project (the caller's rights: an admin's need no more), the run's head, its launch
    # values, recap, first failure and the names behind its parameters: one statement
    assert len(statements) == 1, statements
    assert all(table in statements[0] for table in ("projects", "run_hosts", "keys"))
    # what PostgreSQL's planner orders: the run joined to its project, its recap's counts and
    # first failure; the names are scalar subqueries, planned apart (with the five names of
    # the parameters joined too, planning took 1.5 ms, running the statement 0.1)
    assert statements[0].count(" JOIN ") == 3, statements[0]

    statements.clear()
    again = workbench.client.get(url, headers={"If-None-Match": whole.headers["etag"]})
    assert again.status_code == 304
    # the project and the run's head, without the rest
    assert len(statements) == 1, statements
    assert not [s for s in statements if "run_hosts" in s or "run_events" in s]

    # control: a tag not current reads the head, then the rest: one statement more, counted
    statements.clear()
    stale = workbench.client.get(url, headers={"If-None-Match": 'W/"0"'})
    assert stale.status_code == 200
    assert stale.json() == read
    assert len(statements) == 2, statements
    assert "run_hosts" in statements[1]


@pytest.mark.both_databases  # PostgreSQL's rollback is the round trip a hop would wait on
def test_a_run_read_gives_its_connection_back_in_the_thread_that_read(
    workbench: Workbench,
) -> None:
    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        run = inserted_run(workbench.project_id, None, RunStatus.SUCCESSFUL)
        session.add(run)
        session.commit()
        run_id = run.id
    engine: Engine = workbench.client.app.state.runtime.engine  # type: ignore[attr-defined]
    given_back: list[str] = []

    def checkin(*_args: object) -> None:  # who gives a connection back to the pool
        frames = {frame.function for frame in inspect.stack(context=0)}
        given_back.append("read" if "_viewed_run_answer" in frames else "request's end")

    event.listen(engine.pool, "checkin", checkin)
    try:
        url = workbench.url(f"runs/{run_id}")
        tag = workbench.client.get(url).headers["etag"]
        assert workbench.client.get(url, headers={"If-None-Match": tag}).status_code == 304
        read = list(given_back)
        given_back.clear()
        # control: another read's connection goes back when its request ends
        assert workbench.client.get(workbench.url("runs")).status_code == 200
    finally:
        event.remove(engine.pool, "checkin", checkin)
    assert read == ["read", "read"]
    assert given_back == ["request's end"]
