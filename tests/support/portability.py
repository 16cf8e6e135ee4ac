"""A project holding every kind of object an export carries, made through the real API, with a
distinctive string in every field that holds a secret (so a test can look for each of them in
whatever the server answers)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from support.builders import (
    LOCALHOST_INVENTORY,
    PLAYBOOKS,
    assign_local_roots,
    make_project,
    post,
    ssh_keygen,
)

# each a value no other field of the project holds
SECRETS = {
    "ssh_private_key": "",  # filled by full_project: a real key (its lines are looked for)
    "ssh_passphrase": "SECRET-ssh-passphrase-7f3a",
    "login_password": "SECRET-login-password-91c2",
    "vault_password": "SECRET-vault-password-4d8e",
    "secret_value": "SECRET-plain-secret-value-b6a0",
    "hook_secret": "SECRET-webhook-shared-secret-2e9d",
    "smtp_password": "SECRET-smtp-password-c4f1",
    "hmac_secret": "SECRET-destination-hmac-58ab",
    "survey_password": "SECRET-survey-answer-0a7c",
}
SURVEY = [
    {"variable": "release", "label": "Release", "type": "text", "default": "v1"},
    {"variable": "db_password", "label": "DB password", "type": "password", "required": False},
]


def export_url(project_id: int) -> str:
    return f"/api/v1/projects/{project_id}/export"


IMPORT_URL = "/api/v1/projects/import"


def full_project(client: TestClient, tmp_path: Path, name: str = "source") -> dict[str, Any]:
    """Every kind of object, referring to each other; returns the ids and the secrets used.

    Template ``ok`` needs no key: it runs ``ok.yml`` on localhost through the local repository
    and static inventory as soon as it is imported."""
    secrets = dict(SECRETS)
    keydir = tmp_path / "keys"
    keydir.mkdir(exist_ok=True)
    private, _public = ssh_keygen(keydir, passphrase=secrets["ssh_passphrase"])
    secrets["ssh_private_key"] = private
    repo_dir = tmp_path / f"playbooks-{name}"
    shutil.copytree(PLAYBOOKS, repo_dir)

    project = make_project(client, name)
    base = f"/api/v1/projects/{project}"
    client.patch(base, json={"description": "all kinds", "max_parallel_runs": 3})

    def key(**body: Any) -> int:
        key_id: int = post(client, f"{base}/keys", body)["id"]
        return key_id

    ssh = key(
        name="deploy-ssh",
        kind="ssh",
        username="deploy",
        private_key=private,
        passphrase=secrets["ssh_passphrase"],
    )
    login = key(
        name="become", kind="login_password", username="root", password=secrets["login_password"]
    )
    vault = key(
        name="vault-prod",
        kind="vault_password",
        vault_id="prod",
        password=secrets["vault_password"],
    )
    token = key(name="api-token", kind="secret", value=secrets["secret_value"])
    hook_key = key(name="hook-secret", kind="secret", value=secrets["hook_secret"])
    smtp = key(
        name="smtp", kind="login_password", username="mailer", password=secrets["smtp_password"]
    )
    hmac_key = key(name="hmac", kind="secret", value=secrets["hmac_secret"])

    assign_local_roots(client, project, repo_dir)
    local = post(
        client, f"{base}/repositories", {"name": "local", "kind": "local", "url": str(repo_dir)}
    )["id"]
    remote = post(
        client,
        f"{base}/repositories",
        {
            "name": "remote",
            "kind": "git",
            "url": "git@git.example.invalid:ops/site.git",
            "ref": "main",
            "key_id": ssh,
        },
    )["id"]
    static = post(
        client,
        f"{base}/inventories",
        {"name": "localhost", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY},
    )["id"]
    post(
        client,
        f"{base}/inventories",
        {"name": "from-file", "kind": "file", "repository_id": local, "path": "hosts.ini"},
    )
    env = post(
        client,
        f"{base}/environments",
        {
            "name": "prod",
            "extra_vars": {"region": "eu", "motd": "{{ lookup('env', 'HOME') }}"},
            "env_vars": {"APP_MODE": "prod"},
            "secrets": [
                {"name": "API_TOKEN", "target": "env", "key_id": token},
                {"name": "vault_pw", "target": "extra_var", "key_id": vault},
            ],
        },
    )["id"]
    ok = post(
        client,
        f"{base}/templates",
        {
            "name": "ok",
            "playbook": "ok.yml",
            "repository_id": local,
            "inventory_id": static,
            "extra_vars": {"who": "imported"},
            # options from a URL with the project's key as its credential: travels by name
            "survey": [
                {
                    "variable": "db",
                    "label": "Database",
                    "type": "choice",
                    "source": {"kind": "url", "url": "http://127.0.0.1:9/dbs", "key_id": token},
                }
            ],
        },
    )["id"]
    full = post(
        client,
        f"{base}/templates",
        {
            "name": "full",
            "description": "every reference",
            "playbook": "survey.yml",
            "repository_id": local,
            "inventory_id": static,
            "environment_id": env,
            "ssh_key_id": ssh,
            "become_key_id": login,
            "vault_key_ids": [vault],
            "extra_vars": {"db_port": 8080, "raw": "{{ 7 * 7 }}"},
            "limit": "localhost",
            "tags": "deploy",
            "verbosity": 1,
            "forks": 5,
            "timeout_seconds": 600,
            "overridable": ["limit", "extra_vars", "inventory_id"],
            "survey": SURVEY,
            "install_requirements": False,
            "labels": ["prod", "db"],
        },
    )["id"]
    # on a private git repository: saved although it cannot be checked out now (as on create),
    # and imported the same way while its key is a placeholder
    post(
        client,
        f"{base}/templates",
        {
            "name": "remote-site",
            "playbook": "site.yml",
            "repository_id": remote,
            "inventory_id": static,
            "ssh_key_id": ssh,
        },
    )
    nightly = post(
        client,
        f"{base}/templates/{full}/schedules",
        {
            "name": "nightly",
            "kind": "cron",
            "expression": "0 3 * * *",
            "timezone": "Europe/Berlin",
            "launch": {
                "limit": "localhost",
                "inventory_id": static,
                "survey": {"release": "v2", "db_password": secrets["survey_password"]},
            },
        },
    )["id"]
    post(
        client,
        f"{base}/templates/{ok}/schedules",
        {"name": "weekly", "kind": "rrule", "expression": "RRULE:FREQ=WEEKLY", "enabled": False},
    )
    post(
        client,
        f"{base}/templates/{full}/webhooks",
        {
            "name": "on-push",
            "auth": "github",
            "secret_key_id": hook_key,
            "matchers": [{"source": "body", "path": "ref", "op": "equals", "value": "main"}],
            "extractors": {"release": "head_commit.id"},
            "rate_limit_per_minute": 10,
        },
    )
    post(
        client,
        f"{base}/workflows",
        {
            "name": "release",
            "description": "gate, deploy, check",
            "nodes": [
                {"key": "gate", "kind": "approval", "name": "Ship it?", "timeout_seconds": 600},
                {
                    "key": "deploy",
                    "kind": "template",
                    "template_id": full,
                    "launch": {
                        "limit": "localhost",
                        "inventory_id": static,
                        "survey": {"release": "v3", "db_password": secrets["survey_password"]},
                    },
                },
                {"key": "check", "kind": "template", "template_id": ok},
                # the launcher may approve this one (the gate's option is left to its default)
                {
                    "key": "signoff",
                    "kind": "approval",
                    "name": "Signed off?",
                    "approver_must_differ": False,
                },
            ],
            "edges": [
                {"from": "gate", "to": "deploy", "on": "success"},
                {"from": "deploy", "to": "check", "on": "always"},
            ],
        },
    )
    mail = post(
        client,
        f"{base}/notification-destinations",
        {
            "name": "mail",
            "kind": "email",
            "config": {
                "host": "127.0.0.1",
                "from_address": "steward@example.org",
                "to": ["ops@example.org"],
            },
            "secret_key_id": smtp,
        },
    )["id"]
    hook = post(
        client,
        f"{base}/notification-destinations",
        {
            "name": "hook",
            "kind": "webhook",
            "config": {"url": "https://127.0.0.1:8443/in", "headers": {"X-Team": "ops"}},
            "secret_key_id": hmac_key,
        },
    )["id"]
    subs = f"{base}/notification-subscriptions"
    post(client, subs, {"destination_id": mail, "events": ["failed"]})
    post(client, subs, {"destination_id": hook, "events": ["succeeded"], "template_id": full})
    post(
        client,
        subs,
        {
            "destination_id": hook,
            "events": ["failed", "long_running", "host_quiet"],
            "schedule_id": nightly,
            "long_running_minutes": 30,
            "host_quiet_minutes": 7.5,
        },
    )
    return {"project": project, "templates": {"ok": ok, "full": full}, "secrets": secrets}
