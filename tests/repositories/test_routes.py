from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, make_git_repo, make_key, make_project, make_repository


def repos_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/repositories"


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


def test_crud_roundtrip(client: TestClient, project_id: int, tmp_path: Path) -> None:
    key = make_key(client, project_id, kind="login_password", username="u", password="pw")
    repo = make_repository(
        client,
        project_id,
        url="https://git.example.com/ops/playbooks.git",
        ref="main",
        key_id=key["id"],
    )
    url = f"{repos_url(project_id)}/{repo['id']}"
    assert client.get(url).json() == repo
    updated = client.patch(url, json={"ref": "v2.0", "description": "prod"})
    assert updated.status_code == 200, updated.text
    assert (updated.json()["ref"], updated.json()["description"]) == ("v2.0", "prod")
    listed = client.get(repos_url(project_id)).json()
    assert [r["name"] for r in listed["items"]] == ["playbooks"]
    assert client.delete(url).status_code == 204
    assert_problem(client.get(url), 404, "repository")


@pytest.mark.parametrize(
    "url",
    [
        "https://git.example.com/a.git",
        "http://git.internal/a.git",
        "ssh://git@git.example.com:2222/a.git",
        "git@github.com:org/repo.git",
    ],
)
def test_accepted_git_urls(client: TestClient, project_id: int, url: str) -> None:
    make_repository(client, project_id, url=url)


@pytest.mark.parametrize(
    "url",
    [
        "ftp://host/a.git",
        "ext::sh -c touch% /tmp/pwned",
        "-oProxyCommand=x:repo",
        "file://relative/path",
        "file:///srv/a%2F..%2F..%2Fetc",
        "https://user:hunter2@git.example.com/a.git",
        "/srv/plain/path",
    ],
)
def test_rejected_git_urls(client: TestClient, project_id: int, url: str) -> None:
    response = client.post(repos_url(project_id), json={"name": "r", "kind": "git", "url": url})
    detail = assert_problem(response, 422, "url")
    assert "hunter2" not in detail


@pytest.mark.parametrize(
    ("url", "kind", "extra"),
    [
        ("git@host:org/repo.git", "login_password", {"password": "pw"}),
        ("https://host/repo.git", "secret", {"value": "v"}),
        ("file:///srv/repo.git", "login_password", {"password": "pw"}),  # key checked first
    ],
)
def test_key_of_the_wrong_kind_is_rejected(
    client: TestClient, project_id: int, url: str, kind: str, extra: dict[str, Any]
) -> None:
    key = make_key(client, project_id, kind=kind, **extra)
    response = client.post(
        repos_url(project_id), json={"name": "r", "kind": "git", "url": url, "key_id": key["id"]}
    )
    assert_problem(response, 422, "key_id")


def test_key_of_another_project_is_rejected(client: TestClient, project_id: int) -> None:
    other = make_project(client, "other")
    key = make_key(client, other, kind="login_password", password="pw")
    body = {"name": "r", "kind": "git", "url": "https://h/r.git", "key_id": key["id"]}
    assert_problem(client.post(repos_url(project_id), json=body), 422, "key_id")


def test_local_directory_must_exist(client: TestClient, project_id: int, tmp_path: Path) -> None:
    body = {"name": "r", "kind": "local", "url": str(tmp_path / "missing")}
    assert_problem(client.post(repos_url(project_id), json=body), 422, "url")
    relative = {"name": "r", "kind": "local", "url": "playbooks"}
    assert_problem(client.post(repos_url(project_id), json=relative), 422, "url")
    (tmp_path / "playbooks").mkdir()
    with_ref = {"name": "r", "kind": "local", "url": str(tmp_path / "playbooks"), "ref": "main"}
    assert_problem(client.post(repos_url(project_id), json=with_ref), 422, "ref")


def test_ref_may_not_look_like_an_option(client: TestClient, project_id: int) -> None:
    body = {"name": "r", "kind": "git", "url": "https://h/r.git", "ref": "--upload-pack=x"}
    assert_problem(client.post(repos_url(project_id), json=body), 422, "ref")


def test_update_is_checked_as_a_whole(client: TestClient, project_id: int) -> None:
    repo = make_repository(client, project_id, url="https://h/r.git")
    ssh_only = make_key(client, project_id, kind="login_password", password="pw")
    url = f"{repos_url(project_id)}/{repo['id']}"
    response = client.patch(url, json={"url": "git@h:r.git", "key_id": ssh_only["id"]})
    assert_problem(response, 422, "key_id")
    assert client.get(url).json()["url"] == "https://h/r.git"  # nothing half-written
    assert_problem(client.patch(url, json={"name": None}), 422, "name")


@pytest.mark.both_databases
def test_duplicate_name_is_a_conflict(client: TestClient, project_id: int) -> None:
    make_repository(client, project_id, url="https://h/a.git")
    body = {"name": "playbooks", "kind": "git", "url": "https://h/b.git"}
    assert_problem(client.post(repos_url(project_id), json=body), 409, "name")


def test_repository_of_another_project_is_not_found(client: TestClient, project_id: int) -> None:
    repo = make_repository(client, make_project(client, "other"), url="https://h/a.git")
    url = f"{repos_url(project_id)}/{repo['id']}"
    assert_problem(client.get(url), 404, "repository")
    assert_problem(client.patch(url, json={"ref": "x"}), 404, "repository")


def test_access_check_resolves_the_ref(client: TestClient, project_id: int, tmp_path: Path) -> None:
    commits = make_git_repo(tmp_path / "origin")
    repo = make_repository(client, project_id, url=f"file://{tmp_path / 'origin'}", ref="v1")
    url = f"{repos_url(project_id)}/{repo['id']}"
    checked = client.post(f"{url}/test")
    assert checked.status_code == 200, checked.text
    assert checked.json() == {"ref": "v1", "commit": commits["first"]}
    client.patch(url, json={"ref": "nope"})
    assert_problem(client.post(f"{url}/test"), 422, "ref")
    client.patch(url, json={"ref": "v1"})
    shutil.rmtree(tmp_path / "origin")
    detail = assert_problem(client.post(f"{url}/test"), 422, "url")
    assert "origin" in detail
    moved = client.patch(url, json={"url": f"file://{tmp_path / 'nowhere'}"})
    assert "does not exist" in assert_problem(moved, 422, "url")
