"""Runs over real SSH to an sshd on 127.0.0.1, with keys from the key store."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.builders import Workbench, ssh_keygen
from support.sshd import SshServer

pytestmark = pytest.mark.sqlite_only  # about SSH and the runner, not the database


def _remote(workbench: Workbench, sshd: SshServer) -> int:
    return workbench.inventory(
        "remote",
        f"target ansible_host=127.0.0.1 ansible_port={sshd.port} ansible_connection=ssh "
        f"ansible_python_interpreter={sys.executable}\n",
    )


def test_run_over_ssh_with_a_stored_key(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="deploy", kind="ssh", username=sshd.user, private_key=private)
    template = workbench.template(
        "whoami.yml", inventory_id=_remote(workbench, sshd), ssh_key_id=key
    )
    run = workbench.wait(workbench.launch(template)["id"])
    assert run["status"] == "successful", workbench.text(run["id"])
    assert f"remote user is {sshd.user}" in workbench.text(run["id"])


def test_run_over_ssh_with_a_passphrase_protected_key(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path, passphrase="correct horse battery")
    sshd.authorize(public)
    key = workbench.key(
        name="locked",
        kind="ssh",
        username=sshd.user,
        private_key=private,
        passphrase="correct horse battery",
    )
    template = workbench.template(
        "whoami.yml", inventory_id=_remote(workbench, sshd), ssh_key_id=key
    )
    run = workbench.wait(workbench.launch(template)["id"], timeout=60)
    assert run["status"] == "successful", workbench.text(run["id"])
    assert "correct horse battery" not in workbench.text(run["id"])


def test_a_run_without_the_key_cannot_reuse_another_runs_connection(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="deploy", kind="ssh", username=sshd.user, private_key=private)
    inventory = _remote(workbench, sshd)
    with_key = workbench.template(
        "whoami.yml", name="with-key", inventory_id=inventory, ssh_key_id=key
    )
    first = workbench.wait(workbench.launch(with_key)["id"])
    assert first["status"] == "successful"
    without_key = workbench.template("whoami.yml", name="without-key", inventory_id=inventory)
    second = workbench.wait(workbench.launch(without_key)["id"])
    assert second["status"] == "failed"
    hosts = workbench.client.get(workbench.url(f"runs/{second['id']}/hosts")).json()
    assert hosts[0]["unreachable"] == 1
    assert "Permission denied" in workbench.text(second["id"])


def test_an_adhoc_command_over_ssh_with_a_stored_key(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="deploy", kind="ssh", username=sshd.user, private_key=private)
    inventory = _remote(workbench, sshd)
    body = {"module": "command", "args": "id -un", "ssh_key_id": key, "limit": "target"}
    run = workbench._post(workbench.url(f"inventories/{inventory}/adhoc"), body)
    done = workbench.wait(run["id"])
    text = workbench.text(run["id"])
    assert done["status"] == "successful", text
    assert f"stdout: {sshd.user}" in text  # the result's stdout, line by line (-v, yaml)
    assert "BEGIN OPENSSH PRIVATE KEY" not in text
