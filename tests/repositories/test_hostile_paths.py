"""Everything a run reads from a repository stays inside it: symlinks in a checkout.

A symlink anywhere in a checkout that resolves outside it refuses the checkout (runs end
``error``, ``/hosts`` answers 409); saving a template or a file inventory checks out the
repository and answers 422 on the field whose file leads outside (or on ``repository_id``).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import (
    LOCALHOST_INVENTORY,
    assert_problem,
    assign_local_roots,
    git_commit_all,
    git_init,
    make_inventory,
    make_local_repository,
    make_project,
)
from support.waits import wait_finished

from steward.inventories.paths import inside
from steward.repositories import containment

pytestmark = pytest.mark.security

PASSWD_LINE = "root:x:0:0"
PLAY = "- hosts: all\n  gather_facts: false\n  tasks: []\n"


# --- the tree walk ---------------------------------------------------------------------------


@pytest.fixture
def root(tmp_path: Path) -> Path:
    tree = tmp_path / "checkout"
    (tree / "sub" / "deep").mkdir(parents=True)
    (tree / "site.yml").write_text(PLAY)
    (tree / "sub" / "vars.yml").write_text("a: 1\n")
    return tree


@pytest.mark.parametrize(
    ("link", "target"),
    [
        ("play.yml", "../../../../../../../../etc/passwd"),  # relative
        ("play.yml", "/etc/passwd"),  # absolute
        ("sub/deep/x.yml", "../../../outside"),  # from a subdirectory, dangling outside
        ("sub/dir", "/etc"),  # a directory
        ("gone.yml", "/nonexistent/secret.key"),  # dangling, outside
        (".git/hooks/x", "/etc/passwd"),  # .git is walked too (a local repository's is copied)
    ],
)
def test_a_symlink_leading_outside_is_refused(root: Path, link: str, target: str) -> None:
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(target)
    with pytest.raises(containment.NotContained) as refused:
        containment.check(root)
    assert refused.value.message == f"symlink '{link}' points outside the repository"
    assert refused.value.links == (link,)


def test_a_chain_leaving_at_its_last_link_is_refused_at_every_link(root: Path) -> None:
    (root / "c").symlink_to("/etc/passwd")
    (root / "b").symlink_to("c")
    (root / "a").symlink_to("b")
    with pytest.raises(containment.NotContained) as refused:
        containment.check(root)
    assert refused.value.links == ("a", "b", "c")
    assert refused.value.message == "symlink 'a' points outside the repository (and 2 more)"


def test_a_symlink_loop_is_refused(root: Path) -> None:
    (root / "a").symlink_to("b")
    (root / "b").symlink_to("a")
    with pytest.raises(containment.NotContained) as refused:
        containment.check(root)
    assert "symlink 'a' points outside the repository (a symlink loop)" in refused.value.message


def test_symlinks_staying_inside_are_accepted(root: Path) -> None:
    (root / "current.yml").symlink_to("site.yml")
    (root / "sub" / "deep" / "up.yml").symlink_to("../../site.yml")
    (root / "alias").symlink_to("sub")  # a directory
    (root / "sub" / "deep" / "absolute.yml").symlink_to(root / "site.yml")
    (root / "later.yml").symlink_to("not-yet-there.yml")  # dangling, but inside
    (root / "through").symlink_to("alias/deep/up.yml")  # a chain, inside
    containment.check(root)


def test_inside_is_none_for_a_loop_and_an_escape(root: Path) -> None:
    (root / "a").symlink_to("a")
    (root / "out").symlink_to("..")
    assert inside(root, "a") is None
    assert inside(root, "out/x") is None
    assert inside(root, "/etc/passwd") is None
    assert inside(root, "sub/../site.yml") == (root / "site.yml").resolve()


def test_link_on_path_finds_the_link_a_path_goes_through() -> None:
    links = ("inv/passwd", "play.yml", "roles")
    assert containment.link_on_path(links, "play.yml") == "play.yml"
    assert containment.link_on_path(links, "inv") == "inv/passwd"  # a directory holding it
    assert containment.link_on_path(links, "roles/x/tasks.yml") == "roles"
    assert containment.link_on_path(links, "site.yml") is None
    assert containment.link_on_path(links, "invx") is None


# --- through the API -------------------------------------------------------------------------


def url(project_id: int, path: str) -> str:
    return f"/api/v1/projects/{project_id}/{path}"


def static_inventory(client: TestClient, project_id: int) -> int:
    inventory_id: int = make_inventory(
        client, project_id, name="local", content=LOCALHOST_INVENTORY
    )["id"]
    return inventory_id


def template_body(repository_id: int, inventory_id: int, playbook: str) -> dict[str, Any]:
    return {
        "name": "deploy",
        "playbook": playbook,
        "repository_id": repository_id,
        "inventory_id": inventory_id,
    }


def make_git_repository(client: TestClient, project_id: int, directory: Path) -> int:
    assign_local_roots(client, project_id, directory)
    body = {"name": "git", "kind": "git", "url": f"file://{directory}"}
    created = client.post(url(project_id, "repositories"), json=body)
    assert created.status_code == 201, created.text
    repository_id: int = created.json()["id"]
    return repository_id


@pytest.fixture
def repo_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "repo"
    directory.mkdir()
    (directory / "ok.yml").write_text(PLAY)
    return directory


def test_playbook_symlink_to_outside_is_refused_at_save_local(
    client: TestClient, repo_dir: Path
) -> None:
    project_id = make_project(client)
    (repo_dir / "evil.yml").symlink_to("/etc/passwd")
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = template_body(repository_id, static_inventory(client, project_id), "evil.yml")
    refused = client.post(url(project_id, "templates"), json=body)
    detail = assert_problem(refused, 422, "playbook")
    assert "symlink 'evil.yml' points outside the repository" in detail


def test_playbook_symlink_to_outside_committed_in_git_is_refused_at_save(
    client: TestClient, tmp_path: Path
) -> None:
    directory = tmp_path / "git-repo"
    git_init(directory)
    (directory / "ok.yml").write_text(PLAY)
    (directory / "evil.yml").symlink_to("../../../../../../../../etc/passwd")
    git_commit_all(directory, "a link out")
    project_id = make_project(client)
    repository_id = make_git_repository(client, project_id, directory)
    body = template_body(repository_id, static_inventory(client, project_id), "evil.yml")
    detail = assert_problem(client.post(url(project_id, "templates"), json=body), 422, "playbook")
    assert "symlink 'evil.yml' points outside the repository" in detail
    assert "at commit" in detail


def test_another_symlink_out_refuses_the_repository_at_save(
    client: TestClient, repo_dir: Path
) -> None:
    project_id = make_project(client)
    (repo_dir / "keys").symlink_to(Path(os.sep) / "etc")
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = template_body(repository_id, static_inventory(client, project_id), "ok.yml")
    detail = assert_problem(
        client.post(url(project_id, "templates"), json=body), 422, "repository_id"
    )
    assert "symlink 'keys' points outside the repository" in detail


def test_a_playbook_not_in_the_repository_is_refused_at_save(
    client: TestClient, repo_dir: Path
) -> None:
    project_id = make_project(client)
    (repo_dir / "roles.yml").mkdir()
    repository_id = make_local_repository(client, project_id, repo_dir)
    inventory_id = static_inventory(client, project_id)
    for playbook in ("nope.yml", "roles.yml"):  # missing, and a directory
        body = template_body(repository_id, inventory_id, playbook)
        detail = assert_problem(
            client.post(url(project_id, "templates"), json=body), 422, "playbook"
        )
        assert f"'{playbook}' is not in repository 'playbooks'" in detail


def test_update_checks_a_new_playbook_and_only_then(client: TestClient, repo_dir: Path) -> None:
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = template_body(repository_id, static_inventory(client, project_id), "ok.yml")
    created = client.post(url(project_id, "templates"), json=body)
    assert created.status_code == 201, created.text
    template_url = url(project_id, f"templates/{created.json()['id']}")
    refused = client.patch(template_url, json={"playbook": "nope.yml"})
    assert "'nope.yml' is not in repository" in assert_problem(refused, 422, "playbook")
    (repo_dir / "ok.yml").unlink()  # gone since: the run will say so; a rename is not refused
    assert client.patch(template_url, json={"name": "renamed"}).status_code == 200


def test_an_unreachable_git_server_does_not_refuse_the_save(client: TestClient) -> None:
    """The run's own checkout is the authoritative check; saving only tells early."""
    project_id = make_project(client)
    body = {"name": "far", "kind": "git", "url": "ssh://git@127.0.0.1:1/nothing.git"}
    created = client.post(url(project_id, "repositories"), json=body)
    assert created.status_code == 201, created.text
    tbody = template_body(created.json()["id"], static_inventory(client, project_id), "x.yml")
    assert client.post(url(project_id, "templates"), json=tbody).status_code == 201


@pytest.mark.sqlite_only
def test_playbook_repointed_outside_after_save_fails_the_run(
    client: TestClient, repo_dir: Path
) -> None:
    project_id = make_project(client)
    (repo_dir / "current.yml").symlink_to("ok.yml")
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = template_body(repository_id, static_inventory(client, project_id), "current.yml")
    created = client.post(url(project_id, "templates"), json=body)
    assert created.status_code == 201, created.text

    (repo_dir / "current.yml").unlink()
    (repo_dir / "current.yml").symlink_to("/etc/passwd")
    launched = client.post(url(project_id, "runs"), json={"template_id": created.json()["id"]})
    assert launched.status_code == 201, launched.text
    run = wait_finished(client, project_id, launched.json()["id"])
    assert run["status"] == "error", run
    assert "symlink 'current.yml' points outside the repository" in run["status_reason"]
    assert run["line_count"] == 0


@pytest.mark.sqlite_only
def test_a_git_commit_adding_a_link_out_after_save_fails_the_run(
    client: TestClient, tmp_path: Path
) -> None:
    directory = tmp_path / "git-repo"
    git_init(directory)
    (directory / "ok.yml").write_text(PLAY)
    git_commit_all(directory, "first")
    project_id = make_project(client)
    repository_id = make_git_repository(client, project_id, directory)
    body = template_body(repository_id, static_inventory(client, project_id), "ok.yml")
    created = client.post(url(project_id, "templates"), json=body)
    assert created.status_code == 201, created.text

    (directory / "ok.yml").unlink()
    (directory / "ok.yml").symlink_to("/etc/passwd")
    git_commit_all(directory, "repointed")
    launched = client.post(url(project_id, "runs"), json={"template_id": created.json()["id"]})
    run = wait_finished(client, project_id, launched.json()["id"])
    assert run["status"] == "error", run
    assert "symlink 'ok.yml' points outside the repository" in run["status_reason"]


# --- inventories -----------------------------------------------------------------------------


def file_inventory(repository_id: int, path: str) -> dict[str, Any]:
    return {"name": "hosts", "kind": "file", "repository_id": repository_id, "path": path}


def test_an_inventory_directory_holding_a_link_out_is_refused_at_save(
    client: TestClient, repo_dir: Path
) -> None:
    (repo_dir / "inventory").mkdir()
    (repo_dir / "inventory" / "hosts.ini").write_text("web1\n")
    (repo_dir / "inventory" / "passwd").symlink_to("/etc/passwd")
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    refused = client.post(
        url(project_id, "inventories"), json=file_inventory(repository_id, "inventory")
    )
    detail = assert_problem(refused, 422, "path")
    assert "symlink 'inventory/passwd' points outside the repository" in detail
    assert PASSWD_LINE not in refused.text


def test_a_single_inventory_file_symlink_out_is_refused_at_save(
    client: TestClient, repo_dir: Path
) -> None:
    (repo_dir / "hosts.ini").symlink_to("/etc/passwd")
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    refused = client.post(
        url(project_id, "inventories"), json=file_inventory(repository_id, "hosts.ini")
    )
    assert "symlink 'hosts.ini' points outside" in assert_problem(refused, 422, "path")


def test_an_inventory_path_not_in_the_repository_is_refused_at_save(
    client: TestClient, repo_dir: Path
) -> None:
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    refused = client.post(
        url(project_id, "inventories"), json=file_inventory(repository_id, "nope.ini")
    )
    assert "'nope.ini' is not in repository 'playbooks'" in assert_problem(refused, 422, "path")


def test_hosts_never_returns_a_file_from_outside(client: TestClient, repo_dir: Path) -> None:
    (repo_dir / "inventory").mkdir()
    (repo_dir / "inventory" / "hosts.ini").write_text("web1\n")
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    created = client.post(
        url(project_id, "inventories"), json=file_inventory(repository_id, "inventory")
    )
    assert created.status_code == 201, created.text
    hosts_url = url(project_id, f"inventories/{created.json()['id']}/hosts")
    listed = client.get(hosts_url)
    assert listed.status_code == 200, listed.text
    assert [h["name"] for h in listed.json()["hosts"]] == ["web1"]

    (repo_dir / "inventory" / "passwd").symlink_to("/etc/passwd")  # repointed after saving
    answer = client.get(hosts_url)
    assert 400 <= answer.status_code < 500
    detail = assert_problem(answer, 409, "inventory/passwd")
    assert "points outside the repository" in detail
    assert PASSWD_LINE not in answer.text
