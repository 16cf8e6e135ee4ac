"""Small typed helpers that create data through the real API. Each domain has its own section."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import httpx2
from fastapi.testclient import TestClient

# --- keys, repositories, environments ------------------------------------------------------


def make_project(client: TestClient, name: str = "infra") -> int:
    created = client.post("/api/v1/projects", json={"name": name})
    assert created.status_code == 201, created.text
    project_id: int = created.json()["id"]
    return project_id


def make_key(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    """A key of ``body["kind"]`` (default: a ``secret`` key); returns the read body."""
    if body.get("kind", "secret") == "secret":
        body = {"value": "s3cret-value", **body}
    body = {"name": "token", "kind": "secret", **body}
    created = client.post(f"/api/v1/projects/{project_id}/keys", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def ssh_keygen(directory: Path, *, passphrase: str = "", fmt: str = "") -> tuple[str, str]:
    """A new ed25519 key pair (``fmt="PEM"`` for an RSA key in PEM); (private text, public line)."""
    path = directory / f"id-{len(list(directory.iterdir()))}"
    kind = ["-t", "rsa", "-b", "2048", "-m", "PEM"] if fmt == "PEM" else ["-t", "ed25519"]
    subprocess.run(
        ["ssh-keygen", "-q", *kind, "-N", passphrase, "-C", "test", "-f", str(path)],
        check=True,
        capture_output=True,
    )
    return path.read_text(), path.with_suffix(".pub").read_text().strip()


def assert_problem(response: httpx2.Response, status: int, field: str) -> str:
    """A problem+json answer of ``status`` whose detail names ``field``; returns the detail."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    detail: str = response.json()["detail"]
    assert field in detail, detail
    return detail


# --- inventories, templates ----------------------------------------------------------------


def make_local_repository(
    client: TestClient, project_id: int, directory: Path, name: str = "playbooks"
) -> int:
    """A ``local`` repository serving ``directory``; returns its id."""
    body = {"name": name, "kind": "local", "url": str(directory)}
    created = client.post(f"/api/v1/projects/{project_id}/repositories", json=body)
    assert created.status_code == 201, created.text
    repository_id: int = created.json()["id"]
    return repository_id


def make_inventory(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    """A static INI inventory of localhost unless ``body`` says otherwise; returns the read body."""
    defaults: dict[str, Any] = {"name": "hosts", "kind": "static"}
    if body.get("kind", "static") == "static":
        defaults |= {"format": "ini", "content": "localhost\n"}
    body = defaults | body
    created = client.post(f"/api/v1/projects/{project_id}/inventories", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def make_template(
    client: TestClient, project_id: int, *, repository_id: int, inventory_id: int, **body: Any
) -> dict[str, Any]:
    """A template running ``ok.yml``; returns the read body."""
    body = {
        "name": "deploy",
        "playbook": "ok.yml",
        "repository_id": repository_id,
        "inventory_id": inventory_id,
        **body,
    }
    created = client.post(f"/api/v1/projects/{project_id}/templates", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def make_repository(client: TestClient, project_id: int, **body: Any) -> dict[str, Any]:
    body = {"name": "playbooks", "kind": "git", **body}
    created = client.post(f"/api/v1/projects/{project_id}/repositories", json=body)
    assert created.status_code == 201, created.text
    read: dict[str, Any] = created.json()
    return read


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)
    return done.stdout.strip()


def make_git_repo(path: Path) -> dict[str, str]:
    """A repository at ``path``: main (2 commits, tag v1 on the first) and branch ``feature``.

    Returns the commit of each: ``first`` (= v1), ``main`` and ``feature``.
    """
    path.mkdir(parents=True)
    git(path, "init", "--quiet", "--initial-branch", "main")
    git(path, "config", "user.email", "tests@example.invalid")
    git(path, "config", "user.name", "tests")
    (path / "site.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "site.yml")
    git(path, "commit", "--quiet", "-m", "first")
    git(path, "tag", "v1")
    first = git(path, "rev-parse", "HEAD")
    (path / "second.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "second.yml")
    git(path, "commit", "--quiet", "-m", "second")
    main = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "--quiet", "-b", "feature", first)
    (path / "feature.yml").write_text("- hosts: all\n  tasks: []\n")
    git(path, "add", "feature.yml")
    git(path, "commit", "--quiet", "-m", "feature")
    feature = git(path, "rev-parse", "HEAD")
    git(path, "checkout", "--quiet", "main")
    return {"first": first, "main": main, "feature": feature}
