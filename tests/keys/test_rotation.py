"""Master-key rotation: every stored secret re-encrypted under a new key, servers kept running."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from fastapi.testclient import TestClient
from sqlalchemy import select
from support.builders import PLAYBOOKS, localhost_project, make_key, make_project, post
from support.server import Server, steward
from support.waits import wait_for_run

from steward.keys import rotation
from steward.keys.models import Key
from steward.keys.service import reveal
from steward.runs.models import Run

VAULT_PASSWORD = "vault-pass-rotate"


def _opens(keys: list[bytes], token: bytes) -> bool:
    try:
        MultiFernet([Fernet(k) for k in keys]).decrypt(token)
    except InvalidToken:
        return False
    return True


def _key_lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line]


@pytest.mark.both_databases
def test_rotation_reencrypts_keys_and_run_parameters_and_is_audited(client: TestClient) -> None:
    runtime = client.app.state.runtime  # type: ignore[attr-defined]
    key_file: Path = runtime.settings.key_file
    old = _key_lines(key_file)
    project = make_project(client)
    key = make_key(client, project, name="api", value="before-rotation")
    with runtime.sessions() as session:  # a run's survey answers, sealed like keys are
        sealed = runtime.cipher.encrypt({"extra_vars": {"pw": "x"}})
        session.add_all(
            Run(project_id=project, status="successful", launch_type="api", secret_params=sealed)
            for _ in range(3)
        )
        session.commit()

    report = rotation.rotate(runtime.sessions, key_file, drop_old=True, batch=2)
    assert report.reencrypted == {
        "keys": 1,
        "run parameters": 3,
        "schedule answers": 0,
        "two-factor secrets": 0,
        "workflow answers": 0,
        "workflow run answers": 0,
    }
    new = _key_lines(key_file)
    assert len(new) == 1
    assert new[0] not in old
    with runtime.sessions() as session:
        tokens = list(session.scalars(select(Key.ciphertext)))
        tokens += list(session.scalars(select(Run.secret_params)))
        assert len(tokens) == 4
        assert all(t is not None and _opens(new, t) and not _opens(old, t) for t in tokens)
        # the app's cipher was loaded before the rotation: it follows the file by itself
        assert reveal(session, runtime.cipher, key["id"], project).secret == "before-rotation"
    created = make_key(client, project, name="after", value="after-rotation")
    with runtime.sessions() as session:
        token = session.scalar(select(Key.ciphertext).where(Key.id == created["id"]))
        assert token is not None
        assert _opens(new, token)

    # the object type's prefix finds the rotation with the other key actions
    records = client.get("/api/v1/audit", params={"action": "key"}).json()["items"]
    rotations = [record for record in records if record["action"] == "key:rotate"]
    assert [record["action"] for record in records].count("key:create") == 2
    assert len(rotations) == 1
    assert rotations[0]["actor"] == "system"
    assert "re-encrypted 1 keys, 3 run parameters" in rotations[0]["detail"]
    assert "dropped" in rotations[0]["detail"]


def _vault_repo(tmp_path: Path) -> Path:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    password_file = tmp_path / "vault-pass"
    password_file.write_text(VAULT_PASSWORD + "\n")
    (repo / "vault_vars.yml").write_text("vaulted_word: open-sesame\n")
    vault = str(Path(sys.executable).parent / "ansible-vault")
    subprocess.run(
        [vault, "encrypt", "--vault-id", f"prod@{password_file}", str(repo / "vault_vars.yml")],
        check=True,
        capture_output=True,
    )
    return repo


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    with Server(tmp_path / "data").running() as srv:
        yield srv


def _rotate(server: Server, *args: str) -> str:
    done = steward("keys", "rotate", *args, env=server.env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.sqlite_only
def test_rotation_while_the_server_runs_keeps_runs_working(server: Server, tmp_path: Path) -> None:
    with server.api() as api:
        ids = localhost_project(api, _vault_repo(tmp_path), "rotate")
        base = f"/projects/{ids['project']}"
        vault = post(
            api,
            f"{base}/keys",
            {"name": "vault", "kind": "vault_password", "vault_id": "prod",
             "password": VAULT_PASSWORD},
        )  # fmt: skip
        secret = post(api, f"{base}/keys", {"name": "db", "kind": "secret", "value": "db-pw"})
        env = post(
            api,
            f"{base}/environments",
            {
                "name": "prod",
                "secrets": [{"name": "DB_PW", "target": "env", "key_id": secret["id"]}],
            },
        )
        template = post(
            api,
            f"{base}/templates",
            {"name": "vault", "playbook": "vault.yml", "repository_id": ids["repository"],
             "inventory_id": ids["inventory"], "environment_id": env["id"],
             "vault_key_ids": [vault["id"]]},
        )  # fmt: skip

        def run_ok() -> None:
            run = post(api, f"{base}/runs", {"template_id": template["id"]})
            done = wait_for_run(
                api, f"{base}/runs/{run['id']}", statuses={"successful", "failed", "error"}
            )
            output = api.get(f"{base}/runs/{run['id']}/output").text
            assert done["status"] == "successful", output
            assert "vault says open-sesame" in output

        # no run before the rotation: the server sealed the keys above with the old key, and
        # each run after it succeeds only with the vault password and secret it decrypts
        old = _key_lines(server.data_dir / "secret.key")
        assert "re-encrypted 2 keys" in _rotate(server)
        assert len(_key_lines(server.data_dir / "secret.key")) == 2
        run_ok()  # the server, started before the rotation, reads what the new key sealed
        assert api.get(f"{base}/keys/{vault['id']}").json()["has_secret"] is True
        post(api, f"{base}/keys", {"name": "later", "kind": "secret", "value": "later-pw"})

        assert "old keys dropped" in _rotate(server, "--drop-old")
        current = _key_lines(server.data_dir / "secret.key")
        assert len(current) == 1
        run_ok()
    with sqlite3.connect(server.data_dir / "steward.db") as db:
        tokens = [r[0] for r in db.execute("select ciphertext from keys")]
        tokens += [r[0] for r in db.execute("select secret_params from runs") if r[0]]
    assert len(tokens) == 3
    assert all(_opens(current, t) and not _opens(old, t) for t in tokens)
