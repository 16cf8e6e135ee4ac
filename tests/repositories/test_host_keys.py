"""Git over SSH to a real sshd on 127.0.0.1: the first fetch pins the server's host key (trust on
first use), and a server presenting another key is refused, for a test and for a run."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.builders import Workbench, make_git_repo, ssh_keygen
from support.sshd import SshServer

pytestmark = pytest.mark.sqlite_only  # ssh and git; the pin is one column


def scanned_key(sshd: SshServer) -> str:
    """The server's ed25519 host key as ssh-keyscan prints it."""
    out = subprocess.run(
        ["ssh-keyscan", "-p", str(sshd.port), "-t", "ed25519", sshd.host],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    return out.strip()


def test_the_first_fetch_pins_the_host_key_and_another_key_is_refused(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    make_git_repo(tmp_path / "remote")
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="git", kind="ssh", username=sshd.user, private_key=private)
    url = f"ssh://{sshd.user}@{sshd.host}:{sshd.port}{tmp_path / 'remote'}"
    body = {"name": "over-ssh", "kind": "git", "url": url, "key_id": key}
    repo: dict[str, Any] = workbench.client.post(workbench.url("repositories"), json=body).json()
    assert repo["ssh_known_hosts"] == ""
    repo_url = workbench.url(f"repositories/{repo['id']}")

    assert workbench.client.post(f"{repo_url}/test").status_code == 200

    pinned = workbench.client.get(repo_url).json()["ssh_known_hosts"]
    assert pinned == scanned_key(sshd)
    audit = workbench.client.get("/api/v1/audit", params={"action": "repository:update"}).json()
    assert audit["items"][0]["actor"] == "system"
    assert "pinned the git server's SSH host key" in audit["items"][0]["detail"]
    template = workbench.template("site.yml", repository_id=repo["id"])
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful", workbench.text(run["id"])

    # the server now presents a key other than the pinned one (a man in the middle)
    (tmp_path / "other").mkdir()
    _, other = ssh_keygen(tmp_path / "other")
    forged = f"[{sshd.host}]:{sshd.port} {' '.join(other.split()[:2])}"
    patched = workbench.client.patch(repo_url, json={"ssh_known_hosts": forged})
    assert patched.status_code == 200, patched.text
    refused = workbench.client.post(f"{repo_url}/test")
    assert refused.status_code == 422
    assert "not the one pinned for this repository" in refused.json()["detail"]
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "error"
    assert "not the one pinned for this repository" in run["status_reason"]

    # cleared on purpose: the key met at the next fetch is pinned again
    workbench.client.patch(repo_url, json={"ssh_known_hosts": ""})
    assert workbench.client.post(f"{repo_url}/test").status_code == 200
    assert workbench.client.get(repo_url).json()["ssh_known_hosts"] == pinned
