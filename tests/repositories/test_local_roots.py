"""A ``local`` repository is a directory strictly inside STEWARD_LOCAL_REPOSITORY_ROOTS: checked
when it is saved, and again whenever it is used (a run's checkout, the test endpoint, an inventory
file read from it), since the settings and the symlinks on the way can change after saving."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.admin import ADMIN_TOKEN
from support.builders import (
    assert_problem,
    make_git_repo,
    make_inventory,
    make_project,
    make_template,
)
from support.waits import wait_finished

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


def local(url: Path | str, name: str = "r") -> dict[str, Any]:
    return {"name": name, "kind": "local", "url": str(url)}


def playbooks(directory: Path) -> Path:
    directory.mkdir(parents=True)
    (directory / "ok.yml").write_text("- hosts: all\n  gather_facts: false\n  tasks: []\n")
    (directory / "hosts.ini").write_text("web1\n")
    return directory


def test_directory_outside_the_roots_is_refused_naming_url_and_the_roots(
    client: TestClient, root: Path, outside: Path
) -> None:
    project_id = make_project(client)
    refused = client.post(repos_url(project_id), json=local(outside))
    detail = assert_problem(refused, 422, "url")
    assert "is not inside a local repository root" in detail
    assert f"allowed: a directory inside {root} (STEWARD_LOCAL_REPOSITORY_ROOTS)" in detail
    assert_problem(client.post(repos_url(project_id), json=local("/etc")), 422, "url")
    assert client.get(repos_url(project_id)).json()["total"] == 0


def test_directory_inside_a_root_is_accepted_and_tests_ok(client: TestClient, root: Path) -> None:
    project_id = make_project(client)
    created = client.post(repos_url(project_id), json=local(playbooks(root / "site" / "ansible")))
    assert created.status_code == 201, created.text
    tested = client.post(f"{repos_url(project_id)}/{created.json()['id']}/test")
    assert tested.status_code == 200, tested.text
    assert tested.json() == {"ref": "", "commit": ""}


def test_the_root_itself_is_refused_it_is_shared_by_every_project(
    client: TestClient, root: Path
) -> None:
    detail = assert_problem(
        client.post(repos_url(make_project(client)), json=local(root)), 422, "url"
    )
    assert "is not inside a local repository root" in detail


def test_dot_dot_escaping_a_root_is_refused_naming_where_it_resolves(
    client: TestClient, root: Path, outside: Path
) -> None:
    (root / "a").mkdir()
    sneaky = f"{root}/a/../../outside"
    detail = assert_problem(
        client.post(repos_url(make_project(client)), json=local(sneaky)), 422, "url"
    )
    assert f"resolves to {outside}" in detail


def test_symlink_escaping_a_root_is_refused(client: TestClient, root: Path, outside: Path) -> None:
    (root / "link").symlink_to(outside)
    (root / "etc").symlink_to("/etc")
    project_id = make_project(client)
    assert_problem(client.post(repos_url(project_id), json=local(root / "link")), 422, "url")
    assert_problem(client.post(repos_url(project_id), json=local(root / "etc")), 422, "url")
    (root / "loop").symlink_to(root / "loop")
    assert_problem(client.post(repos_url(project_id), json=local(root / "loop")), 422, "url")


def test_symlink_staying_inside_a_root_is_accepted(client: TestClient, root: Path) -> None:
    playbooks(root / "real")
    (root / "alias").symlink_to(root / "real")
    created = client.post(repos_url(make_project(client)), json=local(root / "alias"))
    assert created.status_code == 201, created.text


def test_missing_or_relative_directory_inside_a_root_is_refused(
    client: TestClient, root: Path
) -> None:
    project_id = make_project(client)
    missing = assert_problem(
        client.post(repos_url(project_id), json=local(root / "nope")), 422, "url"
    )
    assert "does not exist" in missing
    assert_problem(client.post(repos_url(project_id), json=local("root/x")), 422, "url")


def test_file_git_url_follows_the_same_roots(client: TestClient, root: Path, outside: Path) -> None:
    """A git ``file://`` URL also reads a server directory: same rule as a local repository,
    on save, on test and at checkout."""
    project_id = make_project(client)
    make_git_repo(outside / "origin")
    commits = make_git_repo(root / "origin")

    def git(url: str) -> dict[str, Any]:
        return {"name": "g", "kind": "git", "url": url, "ref": "main"}

    for refused in (f"file://{outside / 'origin'}", f"file://{root}/../outside/origin"):
        detail = assert_problem(client.post(repos_url(project_id), json=git(refused)), 422, "url")
        assert "is not inside a local repository root" in detail
    created = client.post(repos_url(project_id), json=git(f"file://{root / 'origin'}"))
    assert created.status_code == 201, created.text
    url = f"{repos_url(project_id)}/{created.json()['id']}"
    assert client.post(f"{url}/test").json()["commit"] == commits["main"]

    (root / "origin").rename(root / "moved")
    (root / "origin").symlink_to(outside / "origin")  # repointed outside after saving
    assert "is not inside" in assert_problem(client.post(f"{url}/test"), 422, "url")
    inventory = make_inventory(client, project_id, name="local")
    template = make_template(
        client, project_id, repository_id=created.json()["id"], inventory_id=inventory["id"]
    )
    run = client.post(f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]})
    assert run.status_code == 201, run.text
    finished = wait_finished(client, project_id, run.json()["id"])
    assert finished["status"] == "error", finished
    assert "is not inside a local repository root" in finished["status_reason"]


def test_update_to_a_directory_outside_the_roots_is_refused_and_keeps_the_old(
    client: TestClient, root: Path, outside: Path
) -> None:
    project_id = make_project(client)
    inside = playbooks(root / "site")
    created = client.post(repos_url(project_id), json=local(inside))
    assert created.status_code == 201, created.text
    url = f"{repos_url(project_id)}/{created.json()['id']}"
    assert_problem(client.patch(url, json={"url": str(outside)}), 422, "url")
    assert client.get(url).json()["url"] == str(inside)


def test_no_roots_allows_no_local_repository(settings: Settings, root: Path) -> None:
    with serve(settings.model_copy(update={"local_repository_roots": []})) as client:
        refused = client.post(repos_url(make_project(client)), json=local(playbooks(root / "site")))
        assert "no local repository roots are configured" in assert_problem(refused, 422, "url")


@contextmanager
def serve(settings: Settings) -> Iterator[TestClient]:
    """The real app on ``settings``, as the admin; one server stops before the next starts."""
    app = build_app(settings)
    with TestClient(app) as client:
        client.headers["Authorization"] = f"Bearer {ADMIN_TOKEN}"
        yield client
    app.state.runtime.engine.dispose()


def test_repository_whose_root_was_removed_from_the_settings_fails_its_runs(
    settings: Settings, tmp_path: Path, root: Path
) -> None:
    other_root = tmp_path / "other-root"
    other_root.mkdir()
    directory = playbooks(root / "site")
    with serve(settings) as before:  # saved while its root is allowed
        project_id = make_project(before)
        created = before.post(repos_url(project_id), json=local(directory))
        assert created.status_code == 201, created.text
        repository_id = created.json()["id"]
        inventory = make_inventory(before, project_id, name="local")
        template = make_template(
            before, project_id, repository_id=repository_id, inventory_id=inventory["id"]
        )
        body = {"name": "file", "kind": "file", "repository_id": repository_id, "path": "hosts.ini"}
        file_inventory = make_inventory(before, project_id, **body)
        hosts_url = f"/api/v1/projects/{project_id}/inventories/{file_inventory['id']}/hosts"
        assert before.get(hosts_url).status_code == 200

    # the server restarts with the root taken out of STEWARD_LOCAL_REPOSITORY_ROOTS
    with serve(settings.model_copy(update={"local_repository_roots": [other_root]})) as after:
        launched = after.post(
            f"/api/v1/projects/{project_id}/runs", json={"template_id": template["id"]}
        )
        assert launched.status_code == 201, launched.text
        run = wait_finished(after, project_id, launched.json()["id"])
        assert run["status"] == "error", run
        assert f"local repository 'r': {directory} is not inside" in run["status_reason"]
        assert str(other_root) in run["status_reason"]
        assert run["line_count"] == 0  # nothing of the directory was run

        tested = after.post(f"{repos_url(project_id)}/{repository_id}/test")
        assert "is not inside a local repository root" in assert_problem(tested, 422, "url")
        hosts = after.get(hosts_url)
        assert "is not inside a local repository root" in assert_problem(hosts, 409, "could not")
        renamed = after.patch(f"{repos_url(project_id)}/{repository_id}", json={"name": "n"})
        assert_problem(renamed, 422, "url")  # saving it again is checked as a whole


def test_symlink_retargeted_outside_after_saving_is_refused_at_use(
    client: TestClient, root: Path, outside: Path
) -> None:
    playbooks(root / "real")
    link = root / "current"
    link.symlink_to(root / "real")
    project_id = make_project(client)
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
