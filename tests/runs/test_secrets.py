"""Secret values used by a run never appear in stored or streamed output, nor on a command line."""

from __future__ import annotations

import logging
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from support.builders import Workbench, localhost_project, post, ssh_keygen
from support.server import FreshServer
from support.waits import wait_for_run

from steward.execution.ansible import processes

JSON = {"Content-Type": "application/json"}

SECRET_VAR = "Sup3r-Secret-Var"
SECRET_ENV = "Env-Pa$$w0rd-42"
SURVEY_PW = "survey pw with spaces"


@pytest.mark.sqlite_only  # masking happens before storage, whatever the database
def test_secrets_are_masked_everywhere_kept_off_argv_and_out_of_every_log_line(
    workbench: Workbench, caplog: pytest.LogCaptureFixture
) -> None:
    """One real run serves the output, the events, the stream, argv and the log lines."""
    caplog.set_level(logging.DEBUG)
    vault = _vault_key(workbench)
    var_key = workbench.key(name="var", kind="secret", value=SECRET_VAR)
    env_key = workbench.key(name="env", kind="secret", value=SECRET_ENV)
    env = workbench.client.post(
        workbench.url("environments"),
        json={
            "name": "prod",
            "secrets": [
                {"name": "secret_value", "target": "extra_var", "key_id": var_key},
                {"name": "DB_PASSWORD", "target": "env", "key_id": env_key},
            ],
        },
    )
    assert env.status_code == 201, env.text
    template = workbench.template(
        "secrets.yml",
        environment_id=env.json()["id"],
        vault_key_ids=[vault],
        verbosity=4,
        survey=[{"variable": "survey_pw", "label": "pw", "type": "password", "required": True}],
    )
    run = workbench.launch(template, survey={"survey_pw": SURVEY_PW})
    assert SURVEY_PW not in str(run)

    cmdlines: list[str] = []
    stop = threading.Event()

    def watch() -> None:
        uuid = workbench.uuid(run["id"])
        while not stop.is_set():
            cmdlines.extend(processes.cmdlines(uuid))
            stop.wait(0.05)

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        done = workbench.wait(run["id"])
    finally:
        stop.set()
        watcher.join()
    assert done["status"] == "successful", workbench.text(run["id"])
    assert any("ansible-playbook" in c for c in cmdlines)

    text = workbench.text(run["id"])
    assert "the secret is ********" in text
    assert "env says ******** and ********" in text
    events = workbench.client.get(
        workbench.url(f"runs/{run['id']}/events"), params={"limit": 1000}
    ).text
    stream = workbench.client.get(workbench.url(f"runs/{run['id']}/stream")).text
    detail = workbench.client.get(workbench.url(f"runs/{run['id']}")).text
    for secret in (SECRET_VAR, SECRET_ENV, SURVEY_PW):
        for where, content in (
            ("output", text),
            ("events", events),
            ("stream", stream),
            ("run", detail),
            ("argv", "\n".join(cmdlines)),
        ):
            assert secret not in content, f"{secret!r} leaked into {where}"

    refused = {"name": "x", "kind": "ssh", "private_key": SECRET_ENV}
    assert workbench.client.post(workbench.url("keys"), json=refused).status_code == 422
    logged = "\n".join(r.getMessage() for r in caplog.records) + caplog.text
    assert logged.strip()
    for value in (SECRET_VAR, SURVEY_PW, VAULT_PW, SECRET_ENV):
        assert value not in logged, f"{value!r} was logged"


VAULT_PW = "Vault-Pw-Rotates-9"
BECOME_PW = "Become-Pw-Sudo-7"
SSH_PASSPHRASE = "Ssh-Passphrase-3"


def test_vault_become_and_ssh_passphrase_are_masked(workbench: Workbench, tmp_path: Path) -> None:
    private, _public = ssh_keygen(tmp_path, passphrase=SSH_PASSPHRASE)
    ssh = workbench.key(name="ssh", kind="ssh", private_key=private, passphrase=SSH_PASSPHRASE)
    become = workbench.key(name="sudo", kind="login_password", password=BECOME_PW)
    vault = workbench.key(name="vault", kind="vault_password", password=VAULT_PW)
    (workbench.repo_dir / "leak.txt").write_text(f"{VAULT_PW} {BECOME_PW} {SSH_PASSPHRASE}\n")
    template = workbench.template(
        "leak.yml", verbosity=4, ssh_key_id=ssh, become_key_id=become, vault_key_ids=[vault]
    )
    run = workbench.wait(workbench.launch(template)["id"])
    text = workbench.text(run["id"])
    assert run["status"] == "successful", text
    assert "******** ******** ********" in text
    events = workbench.client.get(
        workbench.url(f"runs/{run['id']}/events"), params={"limit": 1000}
    ).text
    stream = workbench.client.get(workbench.url(f"runs/{run['id']}/stream")).text
    for secret in (VAULT_PW, BECOME_PW, SSH_PASSPHRASE):
        for where, content in (("output", text), ("events", events), ("stream", stream)):
            assert secret not in content, f"{secret!r} leaked into {where}"


def test_errors_about_secrets_never_echo_them(workbench: Workbench, tmp_path: Path) -> None:
    private, _public = ssh_keygen(tmp_path, passphrase=SSH_PASSPHRASE)
    url = workbench.url("keys")
    bad_bodies: list[dict[str, Any]] = [
        {"name": "a", "kind": "secret", "value": SECRET_VAR, "extra": SECRET_ENV},
        {"name": "a/b", "kind": "secret", "value": SECRET_VAR},
        {"name": "a", "kind": "secret", "value": SECRET_VAR * 10_000},
        {"name": "a", "kind": "ssh", "private_key": SECRET_VAR},
        {"name": "a", "kind": "ssh", "private_key": private, "passphrase": SECRET_ENV},
        {"name": "a", "kind": "nope", "password": SECRET_VAR},
        {"name": "a", "kind": "vault_password", "password": SECRET_VAR, "vault_id": SECRET_ENV},
    ]
    for body in bad_bodies:
        response = workbench.client.post(url, json=body)
        assert response.status_code == 422, response.text
        assert SECRET_VAR not in response.text
        assert SECRET_ENV not in response.text
    broken = workbench.client.post(
        url, content=f'{{"name": "a", "kind": "secret", "value": "{SECRET_VAR}"', headers=JSON
    )
    assert broken.status_code == 422
    assert SECRET_VAR not in broken.text
    assert "private_key" in workbench.client.post(url, json=bad_bodies[3]).json()["detail"]


def _vault_key(workbench: Workbench) -> int:
    return workbench.key(name="vault", kind="vault_password", password=VAULT_PW)


@pytest.mark.sqlite_only
def test_no_secret_in_the_server_log_at_debug(tmp_path: Path) -> None:
    # a first start: the migrations and the admin's creation are logged at DEBUG too
    server = FreshServer(tmp_path / "data", log_level="DEBUG")
    server.start()
    try:
        with server.api() as api:
            ids = localhost_project(api, _copy_playbooks(tmp_path), "logs")
            base = f"/projects/{ids['project']}"
            secret = post(api, f"{base}/keys", {"name": "s", "kind": "secret", "value": SECRET_VAR})
            vault = post(
                api, f"{base}/keys", {"name": "v", "kind": "vault_password", "password": VAULT_PW}
            )
            env = post(
                api,
                f"{base}/environments",
                {"name": "e", "secrets": [
                    {"name": "secret_value", "target": "extra_var", "key_id": secret["id"]}]},
            )  # fmt: skip
            template = post(
                api,
                f"{base}/templates",
                {"name": "t", "playbook": "secrets.yml", "repository_id": ids["repository"],
                 "inventory_id": ids["inventory"], "environment_id": env["id"], "verbosity": 4,
                 "vault_key_ids": [vault["id"]],
                 "survey": [{"variable": "survey_pw", "label": "pw", "type": "password",
                             "required": True}]},
            )  # fmt: skip
            run = post(
                api,
                f"{base}/runs",
                {"template_id": template["id"], "survey": {"survey_pw": SURVEY_PW}},
            )
            done = wait_for_run(
                api, f"{base}/runs/{run['id']}", statuses={"successful", "failed", "error"}
            )
            assert done["status"] == "successful"
            api.post(f"{base}/keys", json={"name": "k", "kind": "ssh", "private_key": SECRET_ENV})
    finally:
        server.stop()
    log = server.log.read_text()
    assert "DEBUG" in log
    for value in (SECRET_VAR, SURVEY_PW, VAULT_PW, SECRET_ENV):
        assert value not in log, f"{value!r} is in the server log"


def _copy_playbooks(tmp_path: Path) -> Path:
    repo = tmp_path / "playbooks"
    shutil.copytree(Path(__file__).parent.parent / "playbooks", repo)
    return repo
