"""git never runs a command through its URL or ref: ``ext::``/``fd::`` transports and anything git
could read as an option are refused at save (422), and every git Steward runs forbids them too
(``GIT_ALLOW_PROTOCOL`` and ``-c protocol.ext.allow=never``), whatever a URL leads to."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, assign_local_roots, make_git_repo, make_project

from steward.outbound.network import Guard
from steward.repositories import git
from steward.repositories.checkout import CheckoutFailed, checkout
from steward.repositories.models import Repository, RepositoryKind

pytestmark = pytest.mark.security


def repos_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/repositories"


@pytest.mark.parametrize(
    "url",
    [
        "ext::sh -c touch% /tmp/steward-ext",
        "ext::sh",
        "fd::3",
        "fd::3,4/x",
        "--upload-pack=touch /tmp/steward-upload-pack",
        "-oProxyCommand=touch%20x@host:repo.git",
        "-x@host:repo.git",
        "ssh://-oProxyCommand=touch/x.git",
        "git::https://example.com/x.git",
    ],
)
def test_a_url_running_a_command_is_refused_at_save(client: TestClient, url: str) -> None:
    project_id = make_project(client)
    body = {"name": "r", "kind": "git", "url": url}
    assert_problem(client.post(repos_url(project_id), json=body), 422, "url")
    assert client.get(repos_url(project_id)).json()["total"] == 0


def test_a_ref_beginning_with_a_dash_is_refused(client: TestClient, tmp_path: Path) -> None:
    make_git_repo(tmp_path / "origin")
    project_id = make_project(client)
    assign_local_roots(client, project_id, tmp_path / "origin")
    body = {"name": "r", "kind": "git", "url": f"file://{tmp_path / 'origin'}"}
    refused = client.post(repos_url(project_id), json={**body, "ref": "--upload-pack=x"})
    assert_problem(refused, 422, "ref")
    created = client.post(repos_url(project_id), json=body)
    assert created.status_code == 201, created.text
    item = f"{repos_url(project_id)}/{created.json()['id']}"
    assert_problem(client.patch(item, json={"ref": "-b"}), 422, "ref")


def test_every_git_forbids_ext_and_fd(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    with git.access(None, tmp_path) as access:
        assert access.env["GIT_ALLOW_PROTOCOL"] == "file:http:https:ssh"
        assert git.run(["config", "--get", "protocol.ext.allow"], access).strip() == "never"
        for url in (f"ext::sh -c touch% {marker}", "fd::0"):
            with pytest.raises(git.GitFailed, match="not allowed"):
                git.run(["ls-remote", "--", url], access)
    assert not marker.exists()


def test_a_checkout_refuses_a_ref_beginning_with_a_dash(client: TestClient, tmp_path: Path) -> None:
    """A row saved before the rule (the API refuses it): git never sees it as an option."""
    make_git_repo(tmp_path / "origin")
    marker = tmp_path / "ran"
    project_id = make_project(client)
    assign_local_roots(client, project_id, tmp_path / "origin")
    repo = Repository(
        project_id=project_id,
        name="r",
        kind=RepositoryKind.GIT,
        url=f"file://{tmp_path / 'origin'}",
        ref=f"--upload-pack=touch {marker}",
        key_id=None,
    )
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    guard = Guard.of(runtime.settings)
    with runtime.sessions() as session, pytest.raises(CheckoutFailed, match="beginning with '-'"):
        checkout(session, runtime.cipher, repo, tmp_path / "dest", roots=[tmp_path], guard=guard)
    assert not marker.exists()
