"""Local directories belong to projects: an admin assigns a project its local directories, each
strictly inside STEWARD_LOCAL_REPOSITORY_ROOTS; a ``local`` repository (or a git ``file://``
URL) must be inside one of its own project's. Checked when it is saved and again whenever it is
used (a run's checkout, the test endpoint, a playbook listing, an inventory's hosts), since the
settings, the assignment and the symlinks on the way can change after saving. Repositories that
no longer fit are marked in the API, named at server start and by ``steward repositories
check``. The hostile cases (another project's directory) are in
test_hostile_project_directories.py."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.admin import ADMIN_TOKEN
from support.builders import (
    assert_problem,
    assign_local_roots,
    make_git_repo,
    make_inventory,
    make_project,
    make_template,
    member_client,
)
from support.server import steward
from support.waits import wait_finished

from steward.audit.models import AuditRecord
from steward.bounds import LOCAL_ROOTS_MAX
from steward.config import Settings
from steward.server import build_app

pytestmark = pytest.mark.sqlite_only  # the file system and the settings; the database is incidental


@pytest.fixture
def root(tmp_path: Path) -> Path:
    path = tmp_path / "root"
    path.mkdir()
    return path


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    path = tmp_path / "outside"
    path.mkdir()
    (path / "ok.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    return path


@pytest.fixture
def settings(settings: Settings, root: Path) -> Settings:
    """The suite's settings with ``root`` as the only local repository root."""
    return settings.model_copy(update={"local_repository_roots": [root]})


def repos_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/repositories"


def roots_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/local-roots"


def local(url: Path | str, name: str = "r") -> dict[str, Any]:
    return {"name": name, "kind": "local", "url": str(url)}


def playbooks(directory: Path) -> Path:
    directory.mkdir(parents=True)
    (directory / "ok.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    (directory / "hosts.ini").write_text("web1\n")
    return directory


def own(client: TestClient, root: Path, name: str = "infra") -> tuple[int, Path]:
    """A project with ``root/<name>`` as its one local directory."""
    project_id = make_project(client, name)
    directory = root / name
    directory.mkdir()
    assign_local_roots(client, project_id, directory)
    return project_id, directory


# --- assigning ---------------------------------------------------------------------------------


def test_admin_assigns_directories_inside_the_roots_audited(client: TestClient, root: Path) -> None:
    project_id = make_project(client)
    (root / "a").mkdir()
    (root / "b").mkdir()
    assigned = client.put(
        roots_url(project_id), json={"local_roots": [f"{root}/a/", str(root / "b")]}
    )
    assert assigned.status_code == 200, assigned.text
    assert assigned.json()["local_roots"] == [str(root / "a"), str(root / "b")]
    assert client.get(f"/api/v1/projects/{project_id}").json()["local_roots"] == [
        str(root / "a"),
        str(root / "b"),
    ]
    engine = client.app.state.runtime.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        record = conn.execute(
            select(AuditRecord.changes, AuditRecord.detail).where(
                AuditRecord.action == "project:update", AuditRecord.object_id == project_id
            )
        ).one()
    assert record.changes == {"local_roots": [[], [str(root / "a"), str(root / "b")]]}
    assert record.detail == "local directories assigned"
    emptied = client.put(roots_url(project_id), json={"local_roots": []})
    assert emptied.json()["local_roots"] == []


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("{root}", "is not strictly inside a local repository root"),  # shared by every project
        ("{outside}", "is not strictly inside a local repository root"),
        ("{root}/a/../../outside", "without '..'"),
        ("{root}/link-out", "(resolves to {outside})"),
        ("{root}/nope", "does not exist"),
        ("/etc", "is not strictly inside"),
        ("relative/dir", "local_roots"),  # the schema: an absolute path
    ],
)
def test_assigning_outside_the_roots_is_refused_naming_the_item(
    client: TestClient, root: Path, outside: Path, given: str, says: str
) -> None:
    (root / "a").mkdir()
    (root / "link-out").symlink_to(outside)
    project_id = make_project(client)
    value = given.format(root=root, outside=outside)
    refused = client.put(roots_url(project_id), json={"local_roots": [str(root / "a"), value]})
    detail = assert_problem(refused, 422, "local_roots")
    assert says.format(outside=outside) in detail
    if value.startswith("/"):
        assert "local_roots[1]" in detail
        assert f"strictly inside {root} (STEWARD_LOCAL_REPOSITORY_ROOTS)" in detail or (
            "does not exist" in detail
        )
    assert client.get(f"/api/v1/projects/{project_id}").json()["local_roots"] == []


def test_assignment_is_bounded_and_refuses_duplicates(client: TestClient, root: Path) -> None:
    project_id = make_project(client)
    (root / "a").mkdir()
    twice = client.put(roots_url(project_id), json={"local_roots": [str(root / "a")] * 2})
    assert "given twice" in assert_problem(twice, 422, "local_roots[1]")
    many = [str(root / f"d{n}") for n in range(LOCAL_ROOTS_MAX + 1)]
    assert_problem(
        client.put(roots_url(project_id), json={"local_roots": many}), 422, "local_roots"
    )


def test_only_an_admin_assigns(client: TestClient, root: Path) -> None:
    project_id = make_project(client)
    (root / "a").mkdir()
    owner = member_client(client, project_id, "olivia", "owner")
    refused = owner.put(roots_url(project_id), json={"local_roots": [str(root / "a")]})
    assert refused.status_code == 403, refused.text
    assert client.get(f"/api/v1/projects/{project_id}").json()["local_roots"] == []
    # the owner sees them (to know where repositories may be)
    assign_local_roots(client, project_id, root / "a")
    assert owner.get(f"/api/v1/projects/{project_id}").json()["local_roots"] == [str(root / "a")]


# --- saving a repository -----------------------------------------------------------------------


def test_without_assigned_directories_no_local_repository_and_it_says_who_assigns(
    client: TestClient, root: Path
) -> None:
    project_id = make_project(client)
    refused = client.post(repos_url(project_id), json=local(playbooks(root / "site")))
    detail = assert_problem(refused, 422, "url")
    assert "project 'infra' has no local directories assigned" in detail
    assert (
        "an admin assigns them in the project's settings (Local directories;"
        f" PUT /api/v1/projects/{project_id}/local-roots)" in detail
    )


def test_inside_its_own_directory_is_accepted_and_tests_ok(client: TestClient, root: Path) -> None:
    project_id, mine = own(client, root)
    for name, where in (("whole", mine), ("sub", playbooks(mine / "site" / "ansible"))):
        created = client.post(repos_url(project_id), json=local(where, name))
        assert created.status_code == 201, created.text
        assert created.json()["local_problem"] is None
        tested = client.post(f"{repos_url(project_id)}/{created.json()['id']}/test")
        assert tested.status_code == 200, tested.text


def test_outside_its_own_directories_is_refused_naming_them(
    client: TestClient, root: Path, outside: Path
) -> None:
    project_id, mine = own(client, root)
    elsewhere = playbooks(root / "elsewhere")
    for refused_dir in (outside, elsewhere, root):
        refused = client.post(repos_url(project_id), json=local(refused_dir))
        detail = assert_problem(refused, 422, "url")
        assert "is not inside a local directory of project 'infra'" in detail
        assert f"allowed: a directory inside {mine}" in detail
    assert_problem(client.post(repos_url(project_id), json=local("root/x")), 422, "url")
    missing = client.post(repos_url(project_id), json=local(mine / "nope"))
    assert "does not exist" in assert_problem(missing, 422, "url")
    assert client.get(repos_url(project_id)).json()["total"] == 0


def test_symlink_staying_inside_its_directory_is_accepted(client: TestClient, root: Path) -> None:
    project_id, mine = own(client, root)
    playbooks(mine / "real")
    (mine / "alias").symlink_to(mine / "real")
    created = client.post(repos_url(project_id), json=local(mine / "alias"))
    assert created.status_code == 201, created.text


def test_update_outside_its_directories_is_refused_and_keeps_the_old(
    client: TestClient, root: Path, outside: Path
) -> None:
    project_id, mine = own(client, root)
    inside = playbooks(mine / "site")
    created = client.post(repos_url(project_id), json=local(inside))
    assert created.status_code == 201, created.text
    url = f"{repos_url(project_id)}/{created.json()['id']}"
    assert_problem(client.patch(url, json={"url": str(outside)}), 422, "url")
    assert client.get(url).json()["url"] == str(inside)


def test_no_roots_configured_allows_no_assignment(settings: Settings, root: Path) -> None:
    (root / "a").mkdir()
    with serve(settings.model_copy(update={"local_repository_roots": []})) as client:
        project_id = make_project(client)
        refused = client.put(roots_url(project_id), json={"local_roots": [str(root / "a")]})
        detail = assert_problem(refused, 422, "local_roots[0]")
        assert "no local repository roots are configured" in detail


@contextmanager
def serve(settings: Settings) -> Iterator[TestClient]:
    """The real app on ``settings``, as the admin; one server stops before the next starts."""
    app = build_app(settings)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield client
    app.state.runtime.engine.dispose()


# --- at use ------------------------------------------------------------------------------------


def test_file_git_url_follows_its_projects_directories(
    client: TestClient, root: Path, outside: Path
) -> None:
    """A git ``file://`` URL also reads a server directory: same rule, on save, on test and at
    checkout."""
    project_id, mine = own(client, root)
    make_git_repo(outside / "origin")
    commits = make_git_repo(mine / "origin")

    def git(url: str) -> dict[str, Any]:
        return {"name": "g", "kind": "git", "url": url, "ref": "main"}

    for refused in (f"file://{outside / 'origin'}", f"file://{mine}/../../outside/origin"):
        detail = assert_problem(client.post(repos_url(project_id), json=git(refused)), 422, "url")
        assert "is not inside a local directory of project 'infra'" in detail
    created = client.post(repos_url(project_id), json=git(f"file://{mine / 'origin'}"))
    assert created.status_code == 201, created.text
    url = f"{repos_url(project_id)}/{created.json()['id']}"
    assert client.post(f"{url}/test").json()["commit"] == commits["main"]

    (mine / "origin").rename(mine / "moved")
    (mine / "origin").symlink_to(outside / "origin")  # repointed outside after saving
    assert "is not inside" in assert_problem(client.post(f"{url}/test"), 422, "url")
    assert "is not inside" in client.get(url).json()["local_problem"]
    inventory = make_inventory(client, project_id, name="local")
    template = make_template(
        client, project_id, repository_id=created.json()["id"], inventory_id=inventory["id"]
    )
    run = client.post(f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]})
    assert run.status_code == 201, run.text
    finished = wait_finished(client, project_id, run.json()["id"])
    assert finished["status"] == "error", finished
    assert "is not inside a local directory of project 'infra'" in finished["status_reason"]


def test_directory_taken_from_the_project_fails_every_use_with_the_reason(
    client: TestClient, root: Path
) -> None:
    project_id, mine = own(client, root)
    directory = playbooks(mine / "site")
    created = client.post(repos_url(project_id), json=local(directory))
    assert created.status_code == 201, created.text
    repository_id = created.json()["id"]
    inventory = make_inventory(client, project_id, name="local")
    template = make_template(
        client, project_id, repository_id=repository_id, inventory_id=inventory["id"]
    )
    body = {"name": "file", "kind": "file", "repository_id": repository_id, "path": "hosts.ini"}
    file_inventory = make_inventory(client, project_id, **body)
    hosts_url = f"/api/v1/projects/{project_id}/inventories/{file_inventory['id']}/hosts"
    assert client.get(hosts_url).status_code == 200
    listing_url = f"{repos_url(project_id)}/{repository_id}/playbooks"
    assert client.get(listing_url).json()["playbooks"] == ["ok.yml"]

    # the admin takes the directory away from the project
    assert client.put(roots_url(project_id), json={"local_roots": []}).status_code == 200
    reason = "has no local directories assigned"
    listed = client.get(repos_url(project_id)).json()["items"]
    assert reason in listed[0]["local_problem"]
    launched = client.post(
        f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]}
    )
    assert launched.status_code == 201, launched.text
    run = wait_finished(client, project_id, launched.json()["id"])
    assert run["status"] == "error", run
    assert f"local repository 'r': {directory} is not inside" in run["status_reason"]
    assert reason in run["status_reason"]
    assert run["line_count"] == 0  # nothing of the directory was run
    assert reason in assert_problem(
        client.post(f"{repos_url(project_id)}/{repository_id}/test"), 422, "url"
    )
    assert reason in assert_problem(client.get(hosts_url), 409, "could not")
    assert reason in assert_problem(client.get(listing_url), 409, "cannot be read")
    renamed = client.patch(f"{repos_url(project_id)}/{repository_id}", json={"name": "n"})
    assert_problem(renamed, 422, "url")  # saving it again is checked as a whole

    assign_local_roots(client, project_id, mine)  # given back: it works again
    assert client.get(listing_url).status_code == 200


def test_root_removed_from_the_settings_fails_runs_naming_the_assigned_directory(
    settings: Settings, tmp_path: Path, root: Path
) -> None:
    other_root = tmp_path / "other-root"
    other_root.mkdir()
    with serve(settings) as before:  # saved while its root is allowed
        project_id, mine = own(before, root)
        directory = playbooks(mine / "site")
        created = before.post(repos_url(project_id), json=local(directory))
        assert created.status_code == 201, created.text
        repository_id = created.json()["id"]
        inventory = make_inventory(before, project_id, name="local")
        template = make_template(
            before, project_id, repository_id=repository_id, inventory_id=inventory["id"]
        )

    # the server restarts with the root taken out of STEWARD_LOCAL_REPOSITORY_ROOTS
    with serve(settings.model_copy(update={"local_repository_roots": [other_root]})) as after:
        launched = after.post(
            f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]}
        )
        assert launched.status_code == 201, launched.text
        run = wait_finished(after, project_id, launched.json()["id"])
        assert run["status"] == "error", run
        assert (
            f"assigned but unusable: {mine}: {mine} is not strictly inside" in run["status_reason"]
        )
        assert str(other_root) in run["status_reason"]
        tested = after.post(f"{repos_url(project_id)}/{repository_id}/test")
        assert "is not inside a local directory" in assert_problem(tested, 422, "url")


def test_symlink_retargeted_outside_after_saving_is_refused_at_use(
    client: TestClient, root: Path, outside: Path
) -> None:
    project_id, mine = own(client, root)
    playbooks(mine / "real")
    link = mine / "current"
    link.symlink_to(mine / "real")
    created = client.post(repos_url(project_id), json=local(link))
    assert created.status_code == 201, created.text
    repository_id = created.json()["id"]
    inventory = make_inventory(client, project_id, name="local")
    template = make_template(
        client, project_id, repository_id=repository_id, inventory_id=inventory["id"]
    )

    link.unlink()
    link.symlink_to(outside)  # someone with shell access repoints it after the check
    tested = client.post(f"{repos_url(project_id)}/{repository_id}/test")
    assert f"resolves to {outside}" in assert_problem(tested, 422, "url")
    launched = client.post(
        f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]}
    )
    assert launched.status_code == 201, launched.text
    run = wait_finished(client, project_id, launched.json()["id"])
    assert run["status"] == "error", run
    assert f"resolves to {outside}" in run["status_reason"]


# --- existing repositories that no longer fit: said at start and by the CLI ---------------------


def test_server_start_and_the_cli_name_each_repository_that_does_not_fit(
    settings: Settings, root: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with serve(settings) as before:
        project_id, mine = own(before, root)
        fits = before.post(repos_url(project_id), json=local(playbooks(mine / "fits"), "fits"))
        assert fits.status_code == 201, fits.text
        gone = before.post(repos_url(project_id), json=local(playbooks(mine / "old"), "old"))
        assert gone.status_code == 201, gone.text
        # an admin narrows the project to mine/fits: "old" no longer fits
        assigned = before.put(roots_url(project_id), json={"local_roots": [str(mine / "fits")]})
        assert assigned.status_code == 200, assigned.text

    with caplog.at_level(logging.WARNING, logger="steward.repositories.local"), serve(settings):
        pass
    said = [r.getMessage() for r in caplog.records if r.name == "steward.repositories.local"]
    assert len(said) == 1, said
    assert f"repository 'old' (id {gone.json()['id']}) of project 'infra' cannot be used" in said[0]
    assert "Fix: an admin assigns a directory holding it to project 'infra'" in said[0]

    env = {
        **os.environ,
        "STEWARD_DATA_DIR": str(settings.data_dir),
        "STEWARD_DATABASE_URL": settings.database_url,
        "STEWARD_LOCAL_REPOSITORY_ROOTS": str(root),
    }
    checked = steward("repositories", "check", env=env)
    assert checked.returncode == 2, checked.stderr
    assert "repository 'old'" in checked.stdout
    assert "repository 'fits'" not in checked.stdout
