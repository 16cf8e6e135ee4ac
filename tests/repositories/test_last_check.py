"""A repository is checked when saved if asked (``check=true``: the console always asks) and by
the test button; its last check (when, the commit, or why it failed) is kept and listed."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session
from support import services
from support.builders import assert_problem, make_git_repo, make_project

from steward.errors import InvalidInput, Unreachable
from steward.projects import service as projects
from steward.projects.models import Project
from steward.projects.schemas import LocalRootsSet
from steward.repositories import service
from steward.repositories.checkout import Reach
from steward.repositories.models import Repository, RepositoryKind
from steward.repositories.schemas import RepositoryCreate, RepositoryUpdate


def _git(origin: Path, ref: str = "main", name: str = "g") -> RepositoryCreate:
    return RepositoryCreate(name=name, kind=RepositoryKind.GIT, url=f"file://{origin}", ref=ref)


@pytest.fixture
def world(db_session: Session, tmp_path: Path) -> tuple[Project, Reach, Path, dict[str, str]]:
    """A project whose one local directory holds a git repository ``origin``."""
    root = tmp_path / "root"
    (root / "infra").mkdir(parents=True)
    project = services.project(db_session, "infra")
    admin = services.admin(db_session)
    projects.set_local_roots(
        db_session, admin, project, LocalRootsSet(local_roots=[str(root / "infra")]), [root]
    )
    commits = make_git_repo(root / "infra" / "origin")
    reach = Reach(services.cipher(), [root], services.guard(), tmp_path / "scratch")
    reach.scratch.mkdir()
    return project, reach, root / "infra" / "origin", commits


def test_a_save_with_check_keeps_the_commit_its_ref_points_at(
    db_session: Session, world: tuple[Project, Reach, Path, dict[str, str]]
) -> None:
    project, reach, origin, commits = world
    admin = services.admin(db_session)
    saved = service.create(
        db_session, project, _git(origin), actor=admin, reach=reach, reach_now=True
    )
    assert (saved.checked_commit, saved.check_problem) == (commits["main"], "")
    assert saved.checked_at is not None

    unchecked = service.create(
        db_session, project, _git(origin, name="later"), actor=admin, reach=reach
    )
    assert unchecked.checked_at is None  # without check=true, nothing is tried


def test_a_save_with_check_that_cannot_reach_saves_nothing_and_names_the_field(
    db_session: Session, world: tuple[Project, Reach, Path, dict[str, str]]
) -> None:
    project, reach, origin, _ = world
    admin = services.admin(db_session)
    with pytest.raises(InvalidInput) as missing_ref:
        service.create(
            db_session, project, _git(origin, ref="nope"), actor=admin, reach=reach, reach_now=True
        )
    assert isinstance(missing_ref.value, Unreachable)
    assert missing_ref.value.field == "ref"
    assert "no branch or tag 'nope'" in missing_ref.value.reason
    db_session.rollback()  # what the request's end does with what was not committed
    assert db_session.scalars(select(Repository)).all() == []

    saved = service.create(db_session, project, _git(origin), actor=admin, reach=reach)
    gone = origin.with_name("gone")
    origin.rename(gone)
    with pytest.raises(InvalidInput) as unreachable:
        service.update(
            db_session,
            project,
            saved,
            RepositoryUpdate(ref="feature"),
            actor=admin,
            reach=reach,
            reach_now=True,
        )
    assert unreachable.value.field == "url"
    db_session.rollback()
    db_session.refresh(saved)
    assert saved.ref == "main"  # the edit was not saved
    gone.rename(origin)
    updated = service.update(
        db_session,
        project,
        saved,
        RepositoryUpdate(ref="feature"),
        actor=admin,
        reach=reach,
        reach_now=True,
    )
    assert updated.ref == "feature"


def test_the_test_button_keeps_a_failure_as_the_last_check(
    db_session: Session, world: tuple[Project, Reach, Path, dict[str, str]]
) -> None:
    project, reach, origin, commits = world
    admin = services.admin(db_session)
    saved = service.create(db_session, project, _git(origin), actor=admin, reach=reach)
    assert service.test_and_remember(db_session, saved, reach).commit == commits["main"]
    assert (saved.checked_commit, saved.check_problem) == (commits["main"], "")

    origin.rename(origin.with_name("gone"))
    with pytest.raises(InvalidInput):
        service.test_and_remember(db_session, saved, reach)
    db_session.rollback()  # the failure was committed before the 422
    db_session.refresh(saved)
    assert saved.checked_commit == ""
    assert saved.check_problem.startswith("url: directory ")
    assert saved.check_problem.endswith("does not exist on the server")


def test_check_true_over_http(client: TestClient, tmp_path: Path) -> None:
    """The wiring: ``?check=true`` refuses an unreachable one with git's message (422 naming
    ``url``); the list shows the last check."""
    project_id = make_project(client)
    url = f"/api/v1/projects/{project_id}/repositories"
    body = {"name": "g", "kind": "git", "url": "https://127.0.0.1:9/x.git", "ref": "main"}
    refused = client.post(url, params={"check": "true"}, json=body)
    assert "git ls-remote failed" in assert_problem(refused, 422, "url")
    assert refused.json()["title"] == "Unreachable"  # the console offers "Save anyway" on it
    assert client.get(url).json()["total"] == 0
    saved = client.post(url, json=body)  # saved anyway, when the user confirms
    assert saved.status_code == 201, saved.text
    listed = client.get(url).json()["items"][0]
    assert (listed["checked_at"], listed["check_problem"]) == (None, "")
