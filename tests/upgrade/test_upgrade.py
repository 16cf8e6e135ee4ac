"""Upgrades lose nothing: a database built by the previous release's own code (its server, its
API) is upgraded to HEAD and everything is read back — users, teams, tokens, encrypted keys
(decrypted), runs with their output, events and metrics, schedules, webhooks, workflows.

The previous release's code is taken from git (``PREVIOUS``, the commit of that release in
this repository's history) and run in an environment of its own, made by uv from its
``uv.lock`` (uv's cache holds the packages)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
from io import BytesIO
from pathlib import Path
from typing import Any

import httpx2
import pytest
from sqlalchemy import select
from support.builders import LOCALHOST_INVENTORY, PLAYBOOKS, post, ssh_keygen
from support.server import ADMIN_PASSWORD, FreshServer, Server
from support.waits import wait_finished, wait_until

from steward import migrations
from steward.crypto import KeyCipher
from steward.db import make_engine, make_session_factory
from steward.keys.models import Key

# one worker runs both databases' upgrades, one after the other, from one previous release
pytestmark = [pytest.mark.both_databases, pytest.mark.slow, pytest.mark.xdist_group("upgrade")]

ROOT = Path(__file__).resolve().parents[2]
UV = ROOT / ".tools" / "bin" / "uv"
# the previous release: its version and its commit (CHANGELOG.md); the database it builds is
# upgraded to HEAD. A new release moves this line to itself.
PREVIOUS = ("0.1.0", "c24659f8edc0eda09eb6dba8aba1b79374bbcf50")
SECRETS: dict[str, dict[str, str]] = {  # each key's sealed fields (the SSH key's: at seeding)
    "vault": {"password": "vault-pass-0.1"},
    "become": {"password": "become-pass-0.1"},
    "token": {"value": "s3cret-token-0.1"},
}
DBA_PASSWORD = "dba-password-0.1!"


@pytest.fixture(scope="module")
def previous_release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The previous release's ``steward`` command: its commit's files, in an environment of its
    own made by uv from its lock file (the packages are in uv's cache: no download). Made once
    for both databases: the second server starts from the bytecode the first one compiled."""
    into = tmp_path_factory.mktemp("previous")
    version, commit = PREVIOUS
    files = ["src", "pyproject.toml", "uv.lock", "README.md"]
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", commit, *files],
        capture_output=True,
        check=False,
    )
    assert archive.returncode == 0, f"release {version} ({commit}): {archive.stderr.decode()}"
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    synced = subprocess.run(
        [str(UV), "sync", "--quiet", "--frozen", "--no-dev", "--python", sys.executable],
        cwd=into,
        env={**env, "UV_PYTHON_DOWNLOADS": "never"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert synced.returncode == 0, f"release {version}: uv sync: {synced.stderr}"
    return into / ".venv" / "bin" / "steward"


def _seed(api: httpx2.Client, repo: Path) -> dict[str, Any]:
    private_key, _public = ssh_keygen(repo.parent)
    SECRETS["ssh"] = {"private_key": private_key, "passphrase": ""}
    """What a team has after a while, made through the previous release's API."""
    world: dict[str, Any] = {}
    dba = post(api, "/users", {"username": "dba", "password": DBA_PASSWORD})
    team = post(api, "/teams", {"name": "dbas"})
    post(api, f"/teams/{team['id']}/members", {"user_id": dba["id"]})
    world["token"] = post(api, "/users/me/tokens", {"name": "ci", "scope": "write"})["token"]
    project = post(api, "/projects", {"name": "oracle"})["id"]
    world["project"] = project
    base = f"/projects/{project}"
    api.put(f"{base}/local-roots", json={"local_roots": [str(repo)]}).raise_for_status()
    keys = {
        "vault": {"kind": "vault_password", **SECRETS["vault"]},
        "become": {"kind": "login_password", "username": "oracle", **SECRETS["become"]},
        "token": {"kind": "secret", **SECRETS["token"]},
        "ssh": {"kind": "ssh", "username": "oracle", **SECRETS["ssh"]},
    }
    world["keys"] = {
        name: post(api, f"{base}/keys", {"name": name, **body})["id"] for name, body in keys.items()
    }
    repository = post(api, f"{base}/repositories", {"name": "r", "kind": "local", "url": str(repo)})
    inventory = post(
        api,
        f"{base}/inventories",
        {"name": "db", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY},
    )
    secret = {"name": "DB_TOKEN", "target": "env", "key_id": world["keys"]["token"]}
    environment = post(api, f"{base}/environments", {"name": "prod", "secrets": [secret]})
    template = post(
        api,
        f"{base}/templates",
        {
            "name": "stop_db",
            "playbook": "ok.yml",
            "repository_id": repository["id"],
            "inventory_id": inventory["id"],
            "environment_id": environment["id"],
            "vault_key_ids": [world["keys"]["vault"]],
            "overridable": ["extra_vars"],
        },
    )
    world["template"] = template["id"]
    post(
        api,
        f"{base}/templates/{template['id']}/grants",
        {"team_id": team["id"], "permission": "run"},
    )
    world["schedule"] = post(
        api,
        f"{base}/templates/{template['id']}/schedules",
        {"name": "nightly", "kind": "cron", "expression": "0 3 * * *"},
    )["id"]
    hook = {"name": "push", "auth": "github", "secret_key_id": world["keys"]["token"]}
    world["webhook"] = post(api, f"{base}/templates/{template['id']}/webhooks", hook)["id"]
    nodes = [
        {"key": "stop", "kind": "template", "template_id": template["id"]},
        {"key": "ok", "kind": "approval", "name": "restart?"},
    ]
    edges = [{"from": "stop", "to": "ok", "on": "success"}]
    world["workflow"] = post(
        api, f"{base}/workflows", {"name": "stop then ask", "nodes": nodes, "edges": edges}
    )["id"]
    # a message of the run (0.2 added a host column to messages: 0.1's are of no host)
    destination = {
        "name": "ops",
        "kind": "webhook",
        "config": {"url": "http://127.0.0.1:9/"},
        "secret_key_id": world["keys"]["token"],
    }
    destinations = f"{base}/notification-destinations"
    world["destination"] = post(api, destinations, destination)["id"]
    subscription = {"destination_id": world["destination"], "events": ["succeeded"]}
    post(api, f"{base}/notification-subscriptions", subscription)
    run = post(api, f"{base}/runs", {"template_id": template["id"], "extra_vars": {"who": "0.1"}})
    finished = wait_finished(api, project, run["id"])
    assert finished["status"] == "successful", finished
    world["run"] = finished
    world["output"] = api.get(f"{base}/runs/{run['id']}/output").text
    world["lines"] = api.get(f"{base}/runs/{run['id']}/lines", params={"limit": 5}).json()
    world["events"] = api.get(f"{base}/runs/{run['id']}/events").json()
    world["metrics"] = api.get(f"{base}/runs/{run['id']}/metrics").json()
    assert "hello 0.1" in world["output"]
    messages = f"{destinations}/{world['destination']}/messages"
    world["messages"] = wait_until(lambda: api.get(messages).json()["items"], what="a message")
    return world


def test_an_upgrade_from_the_previous_release_loses_nothing(
    empty_database_url: str, tmp_path: Path, previous_release: Path
) -> None:
    repo = tmp_path / "playbooks"
    shutil.copytree(PLAYBOOKS, repo)
    data = tmp_path / "data"  # one data directory: the master key stays where it was

    class PreviousServer(FreshServer):
        program = previous_release
        ready_seconds = 180.0  # its sources are a fresh copy: compiled to bytecode as they load

    old = PreviousServer(data, database_url=empty_database_url)
    with old.running(), old.api() as api:
        world = _seed(api, repo)
    assert migrations.schema(empty_database_url).current == "0001"

    new = Server(data, database_url=empty_database_url)
    with new.running():  # the server migrates at start
        assert not migrations.schema(empty_database_url).pending
        base = f"http://127.0.0.1:{new.port}/api/v1"
        with httpx2.Client(
            base_url=base, headers={"Authorization": f"Bearer {world['token']}"}, timeout=30
        ) as api:  # the token made before the upgrade still signs in
            _read_back(api, world)
        login = httpx2.post(
            f"{base}/auth/login", json={"username": "dba", "password": DBA_PASSWORD}, timeout=30
        )
        assert login.status_code == 200, login.text
        admin = httpx2.post(
            f"{base}/auth/login", json={"username": "admin", "password": ADMIN_PASSWORD}, timeout=30
        )
        assert admin.status_code == 200, admin.text

    # the keys decrypt with the master key the previous release made
    cipher = KeyCipher.load_or_create(data / "secret.key")
    engine = make_engine(empty_database_url)
    try:
        with make_session_factory(engine)() as session:
            for name, key_id in world["keys"].items():
                key = session.scalars(select(Key).where(Key.id == key_id)).one()
                assert key.ciphertext is not None
                assert cipher.decrypt(key.ciphertext) == SECRETS[name], name
    finally:
        engine.dispose()


def _read_back(api: httpx2.Client, world: dict[str, Any]) -> None:
    base = f"/projects/{world['project']}"
    users = {u["username"] for u in api.get("/users").json()["items"]}
    assert {"admin", "dba"} <= users
    teams = api.get("/teams").json()["items"]
    assert [t["name"] for t in teams] == ["dbas"]
    keys = api.get(f"{base}/keys").json()["items"]
    assert {k["name"] for k in keys} == set(SECRETS)
    run_id = world["run"]["id"]
    run = api.get(f"{base}/runs/{run_id}").json()
    assert run["status"] == "successful"
    assert run["template_id"] == world["template"]
    assert api.get(f"{base}/runs/{run_id}/output").text == world["output"]
    assert api.get(f"{base}/runs/{run_id}/lines", params={"limit": 5}).json() == world["lines"]
    assert api.get(f"{base}/runs/{run_id}/events").json() == world["events"]
    assert api.get(f"{base}/runs/{run_id}/metrics").json() == world["metrics"]
    messages = f"{base}/notification-destinations/{world['destination']}/messages"
    kept = api.get(messages).json()["items"]
    assert [(m["id"], m["event"], m["host"]) for m in kept] == [
        (m["id"], m["event"], "") for m in world["messages"]
    ]
    schedule = api.get(f"{base}/schedules/{world['schedule']}").json()
    assert (schedule["name"], schedule["expression"]) == ("nightly", "0 3 * * *")
    assert api.get(f"{base}/webhooks/{world['webhook']}").json()["name"] == "push"
    workflow = api.get(f"{base}/workflows/{world['workflow']}").json()
    assert [n["key"] for n in workflow["nodes"]] == ["stop", "ok"]
    # the hosts view knows the hosts of the runs before it (0004's backfill: no outcome kept)
    # and of the inventory saved before it (read when first listed)
    hosts = {h["name"]: h for h in api.get(f"{base}/hosts").json()["items"]}
    assert (hosts["localhost"]["runs"], hosts["localhost"]["last_run_id"]) == (1, run_id)
    assert hosts["localhost"]["last_outcome"] == ""
    assert hosts["localhost"]["inventories"] == ["db"]
    # and it still runs: the environment's secret and the vault password decrypt for a run
    again = post(
        api, f"{base}/runs", {"template_id": world["template"], "extra_vars": {"who": "0.2"}}
    )
    finished = wait_finished(api, world["project"], again["id"])
    assert finished["status"] == "successful", finished
    assert "hello 0.2" in api.get(f"{base}/runs/{again['id']}/output").text
