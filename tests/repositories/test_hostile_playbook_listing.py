"""Listing a repository's playbooks (``GET …/repositories/{id}/playbooks``) with hostile input:
a ref git would read as an option or a command transport, NUL, a symlink leading out of the
checkout, and trees past every bound (files, size, nesting)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.builders import (
    assert_problem,
    git_commit_all,
    git_init,
    make_local_repository,
    make_project,
    make_repository,
)

from steward.repositories import playbooks

pytestmark = pytest.mark.security

PLAY = "- hosts: all\n  tasks: []\n"
OUTSIDE = "- hosts: all\n  vars: {stolen: outside-secret-content}\n"


def _url(project: int, repository: int) -> str:
    return f"/api/v1/projects/{project}/repositories/{repository}/playbooks"


def _git_repository(client: TestClient, tmp_path: Path) -> tuple[int, int]:
    origin = tmp_path / "origin"
    git_init(origin)
    (origin / "site.yml").write_text(PLAY)
    git_commit_all(origin, "first")
    project = make_project(client)
    return project, make_repository(client, project, url=f"file://{origin}")["id"]


@pytest.mark.parametrize(
    "ref",
    [
        "--upload-pack=touch /tmp/pwned",
        "-b",
        "ext::sh -c touch% /tmp/pwned",
        "main\x00--upload-pack=x",
        "a" * 300,
        "../../etc",
    ],
)
def test_a_hostile_ref_is_refused_before_git_runs(
    client: TestClient, tmp_path: Path, ref: str
) -> None:
    project, repository = _git_repository(client, tmp_path)
    response = client.get(_url(project, repository), params={"ref": ref})
    assert_problem(response, 422, "ref")
    assert not Path("/tmp/pwned").exists()


def test_a_local_repository_takes_no_ref(client: TestClient, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "site.yml").write_text(PLAY)
    project = make_project(client)
    repository = make_local_repository(client, project, root)
    assert_problem(client.get(_url(project, repository), params={"ref": "main"}), 422, "ref")


def test_a_playbook_symlinked_out_of_the_checkout_is_never_read(
    client: TestClient, tmp_path: Path
) -> None:
    (tmp_path / "outside.yml").write_text(OUTSIDE)
    for kind in ("local", "git"):
        root = tmp_path / kind
        git_init(root) if kind == "git" else root.mkdir()
        (root / "site.yml").write_text(PLAY)
        (root / "evil.yml").symlink_to(tmp_path / "outside.yml")
        project = make_project(client, f"p-{kind}")
        if kind == "git":
            git_commit_all(root, "evil")
            repository = make_repository(client, project, url=f"file://{root}")["id"]
        else:
            repository = make_local_repository(client, project, root)
        response = client.get(_url(project, repository))
        detail = assert_problem(response, 422, "repository_id")
        assert "symlink 'evil.yml' points outside the repository" in detail
        assert "outside-secret-content" not in response.text
        assert "outside.yml" not in response.text


def test_a_repository_of_another_project_is_not_found(client: TestClient, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    mine = make_project(client, "mine")
    theirs = make_project(client, "theirs")
    repository = make_local_repository(client, theirs, root)
    assert client.get(_url(mine, repository)).status_code == 404
    assert client.get(_url(mine, 2**63)).status_code in (404, 422)


def test_bounds_files_size_and_nesting(client: TestClient, tmp_path: Path) -> None:
    root = tmp_path / "huge"
    (root / "many").mkdir(parents=True)
    (root / "a.yml").write_text(PLAY)
    # a playbook past the size read, one nested past the YAML parser's recursion, a bomb
    (root / "big.yml").write_text(PLAY + "# " + "x" * playbooks.FILE_BYTES_MAX + "\n")
    (root / "nested.yml").write_text("[" * 50_000 + "]" * 50_000)
    bomb = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    bomb += [f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}] " for i in range(20)]
    (root / "bomb.yml").write_text("\n".join(bomb) + "\n")
    for n in range(playbooks.ENTRIES_MAX + 10):
        (root / "many" / f"f{n:05}.txt").touch()
    (root / "z.yml").write_text(PLAY)
    project = make_project(client)
    repository = make_local_repository(client, project, root)
    response = client.get(_url(project, repository))
    assert response.status_code == 200, response.text
    listed = response.json()
    assert listed["truncated"] is True
    assert "big.yml" not in listed["playbooks"]
    assert "nested.yml" not in listed["playbooks"]
    assert "bomb.yml" not in listed["playbooks"]
    assert listed["playbooks"][0] == "a.yml"
    assert len(listed["playbooks"]) <= playbooks.PLAYBOOKS_MAX
    assert (
        playbooks.problem(root / "big.yml")
        == "is larger than 512 KiB; it is not read as a playbook"
    )
    assert playbooks.problem(root / "nested.yml") is not None


def test_a_symlinked_directory_inside_is_not_walked_twice(
    client: TestClient, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    (root / "plays").mkdir(parents=True)
    (root / "plays" / "site.yml").write_text(PLAY)
    (root / "again").symlink_to("plays")
    (root / "loop").symlink_to(".")
    project = make_project(client)
    repository = make_local_repository(client, project, root)
    listed = client.get(_url(project, repository)).json()
    assert listed["playbooks"] == ["plays/site.yml"]
