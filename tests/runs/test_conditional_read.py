"""A run read with ``If-None-Match``: a poller of an unchanged run gets a 304 with no body; any
change of the run (its row, its plan's approval, the names it shows) gives a new tag."""

from __future__ import annotations

from sqlalchemy import update
from support.builders import Workbench, inserted_run

from steward.runs.models import Run
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


def test_a_304_reads_the_project_and_the_runs_head_only(
    workbench: Workbench, statements: list[str]
) -> None:
    with workbench.client.app.state.runtime.sessions() as session:  # type: ignore[attr-defined]
        run = inserted_run(workbench.project_id, None, RunStatus.SUCCESSFUL)
        session.add(run)
        session.commit()
        run_id = run.id
    url = workbench.url(f"runs/{run_id}")
    tag = workbench.client.get(url).headers["etag"]
    statements.clear()

    again = workbench.client.get(url, headers={"If-None-Match": tag})

    assert again.status_code == 304
    # the project (the caller's rights: an admin's need no more), the run's head
    assert len(statements) == 2, statements
    assert not [s for s in statements if "run_hosts" in s or "run_events" in s]
    # control: a full read loads the rest
    statements.clear()
    assert workbench.client.get(url).status_code == 200
    assert [s for s in statements if "run_hosts" in s]
