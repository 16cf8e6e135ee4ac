from __future__ import annotations

import base64
import functools
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import git, make_git_repo, make_key, make_project, make_repository, ssh_keygen

from steward.outbound.network import Guard
from steward.repositories.checkout import Checkout, CheckoutFailed, checkout
from steward.repositories.models import Repository
from steward.runtime import Runtime

pytestmark = pytest.mark.sqlite_only  # git and the file system; the database is incidental


@pytest.fixture
def origin(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    path = tmp_path / "origin"
    return path, make_git_repo(path)


def run_checkout(
    client: TestClient, repository_id: int, dest: Path, *, ref: str | None = None
) -> Checkout:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    roots = runtime.settings.repository_roots
    with runtime.sessions() as session:
        repo = session.get_one(Repository, repository_id)
        guard = Guard.of(runtime.settings)
        return checkout(session, runtime.cipher, repo, dest, roots=roots, guard=guard, ref=ref)


@pytest.mark.parametrize(
    ("ref", "commit", "present", "absent"),
    [
        ("", "main", "second.yml", "feature.yml"),
        ("main", "main", "second.yml", "feature.yml"),
        ("feature", "feature", "feature.yml", "second.yml"),
        ("v1", "first", "site.yml", "second.yml"),
    ],
)
def test_git_checkout_of_branch_tag_and_head_records_the_commit(
    client: TestClient,
    tmp_path: Path,
    origin: tuple[Path, dict[str, str]],
    ref: str,
    commit: str,
    present: str,
    absent: str,
) -> None:
    path, commits = origin
    repo = make_repository(client, make_project(client), url=f"file://{path}", ref=ref)
    dest = tmp_path / "run" / "project"
    dest.mkdir(parents=True)
    result = run_checkout(client, repo["id"], dest)
    assert result == Checkout(path=dest, commit=commits[commit])
    assert (dest / present).is_file()
    assert not (dest / absent).exists()
    assert sorted(p.name for p in dest.parent.iterdir()) == ["project"]  # scratch dir is gone


@pytest.mark.parametrize("length", [40, 12])
def test_git_checkout_of_a_commit_hash(
    client: TestClient, tmp_path: Path, origin: tuple[Path, dict[str, str]], length: int
) -> None:
    path, commits = origin
    repo = make_repository(client, make_project(client), url=f"file://{path}", ref="main")
    dest = tmp_path / "dest"
    result = run_checkout(client, repo["id"], dest, ref=commits["first"][:length])
    assert result.commit == commits["first"]
    assert sorted(p.name for p in dest.iterdir() if p.name != ".git") == ["site.yml"]


def test_unknown_branch_fails_with_gits_message(
    client: TestClient, tmp_path: Path, origin: tuple[Path, dict[str, str]]
) -> None:
    path, _ = origin
    repo = make_repository(client, make_project(client), url=f"file://{path}", ref="nope")
    with pytest.raises(CheckoutFailed, match="nope") as failure:
        run_checkout(client, repo["id"], tmp_path / "dest")
    assert "not found" in failure.value.message


def test_unknown_commit_fails_naming_the_commit(
    client: TestClient, tmp_path: Path, origin: tuple[Path, dict[str, str]]
) -> None:
    path, _ = origin
    repo = make_repository(client, make_project(client), url=f"file://{path}")
    with pytest.raises(CheckoutFailed, match="commit deadbeef0 is not in the repository"):
        run_checkout(client, repo["id"], tmp_path / "dest", ref="deadbeef0")


def test_ssh_key_file_is_removed_after_a_failed_clone(client: TestClient, tmp_path: Path) -> None:
    project_id = make_project(client)
    private, _ = ssh_keygen(tmp_path)
    key = make_key(client, project_id, kind="ssh", private_key=private)
    repo = make_repository(
        client, project_id, url="ssh://git@127.0.0.1:1/repo.git", key_id=key["id"]
    )
    run_dir = tmp_path / "run"
    with pytest.raises(CheckoutFailed) as failure:
        run_checkout(client, repo["id"], run_dir / "project")
    assert "127.0.0.1" in failure.value.message
    assert private.splitlines()[1] not in failure.value.message
    assert sorted(p.name for p in run_dir.iterdir()) == ["project"]


def test_local_directory_is_copied_with_symlinks(client: TestClient, tmp_path: Path) -> None:
    source = tmp_path / "playbooks"
    (source / "roles").mkdir(parents=True)
    (source / "site.yml").write_text("- hosts: all\n")
    (source / "link.yml").symlink_to("site.yml")
    repo = make_repository(client, make_project(client), kind="local", url=str(source))
    dest = tmp_path / "dest"
    result = run_checkout(client, repo["id"], dest)
    assert result == Checkout(path=dest, commit="")
    assert (dest / "site.yml").read_text() == "- hosts: all\n"
    assert (dest / "link.yml").is_symlink()
    assert (dest / "roles").is_dir()
    (dest / "site.yml").write_text("changed")  # the copy is the run's own
    assert (source / "site.yml").read_text() == "- hosts: all\n"


def test_local_git_work_tree_records_its_head(
    client: TestClient, tmp_path: Path, origin: tuple[Path, dict[str, str]]
) -> None:
    path, commits = origin
    repo = make_repository(client, make_project(client), kind="local", url=str(path))
    result = run_checkout(client, repo["id"], tmp_path / "dest")
    assert result.commit == commits["main"]
    assert (result.path / "second.yml").is_file()


def test_local_directory_removed_after_save_fails_clearly(
    client: TestClient, tmp_path: Path
) -> None:
    source = tmp_path / "gone"
    source.mkdir()
    repo = make_repository(client, make_project(client), kind="local", url=str(source))
    source.rmdir()
    with pytest.raises(CheckoutFailed, match="does not exist"):
        run_checkout(client, repo["id"], tmp_path / "dest")


class _BasicAuthFiles(http.server.SimpleHTTPRequestHandler):
    """Files behind basic auth: git's "dumb" HTTP protocol, enough to prove the askpass path."""

    expected = "Basic " + base64.b64encode(b"deploy:http-pass-31337").decode()

    def do_GET(self) -> None:
        if self.headers.get("Authorization") != self.expected:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="git"')
            self.end_headers()
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def http_origin(tmp_path: Path, origin: tuple[Path, dict[str, str]]) -> Iterator[str]:
    served = tmp_path / "served"
    served.mkdir()
    git(served, "clone", "--quiet", "--bare", str(origin[0]), "repo.git")
    git(served / "repo.git", "update-server-info")
    handler = functools.partial(_BasicAuthFiles, directory=str(served))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/repo.git"
    finally:
        server.shutdown()
        thread.join()
        server.server_close()


@pytest.mark.parametrize(
    ("password", "works"), [("http-pass-31337", True), ("wrong-pw-4242", False)]
)
def test_http_password_reaches_git_through_askpass_only(
    client: TestClient,
    tmp_path: Path,
    origin: tuple[Path, dict[str, str]],
    http_origin: str,
    password: str,
    works: bool,
) -> None:
    project_id = make_project(client)
    key = make_key(client, project_id, kind="login_password", username="deploy", password=password)
    repo = make_repository(client, project_id, url=http_origin, key_id=key["id"])
    dest = tmp_path / "run" / "project"
    ref = origin[1]["main"]  # a commit: a full clone (dumb HTTP cannot serve shallow ones)
    if works:
        assert run_checkout(client, repo["id"], dest, ref=ref).commit == ref
        assert password not in (dest / ".git" / "config").read_text()
    else:
        with pytest.raises(CheckoutFailed) as failure:
            run_checkout(client, repo["id"], dest, ref=ref)
        assert password not in failure.value.message
        assert "Authentication failed" in failure.value.message
    assert sorted(p.name for p in dest.parent.iterdir()) == ["project"]
