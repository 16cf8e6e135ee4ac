"""Hostile values of a repository's pinned SSH host keys: refused with 422 on the field, never
written to ssh's file as options or extra lines."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from support.builders import assert_problem, make_project

from steward.repositories.schemas import KNOWN_HOSTS_MAX

pytestmark = pytest.mark.security

KEY = "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
GOOD = f"git.example.org ssh-ed25519 {KEY}"


@pytest.mark.parametrize(
    ("value", "cause"),
    [
        (f"{GOOD}\nProxyCommand touch /tmp/pwned", "line 2"),
        (f"git.example.org ssh-ed25519 {KEY}\x00", "pattern"),
        (f"git.example.org\tssh-ed25519 {KEY}\r", "pattern"),
        ("-oProxyCommand=id ssh-ed25519 AAAA", "line 1"),
        (f"git.example.org ssh-ed25519 {KEY} x\x1b[31m", "pattern"),
        ("git.example.org not-a-key-type AAAA", "line 1"),
        (f"{GOOD}\n" * (KNOWN_HOSTS_MAX // len(GOOD) + 1), "at most"),
    ],
)
def test_hostile_known_hosts_are_refused(client: TestClient, value: str, cause: str) -> None:
    project = make_project(client)
    body = {"name": "r", "kind": "git", "url": "ssh://git@git.example.org/x.git"}
    created = client.post(
        f"/api/v1/projects/{project}/repositories", json={**body, "ssh_known_hosts": value}
    )
    assert cause in assert_problem(created, 422, "ssh_known_hosts")


def test_pinned_keys_only_for_ssh_urls(client: TestClient) -> None:
    project = make_project(client)
    url = f"/api/v1/projects/{project}/repositories"
    https = {"name": "h", "kind": "git", "url": "https://git.example.org/x.git"}
    refused = client.post(url, json={**https, "ssh_known_hosts": GOOD})
    assert "only an ssh URL uses it" in assert_problem(refused, 422, "ssh_known_hosts")
    comments = f"# from ssh-keyscan\n{GOOD}\n\n@revoked * ssh-ed25519 {KEY}\n"
    ssh = {"name": "s", "kind": "git", "url": "git@git.example.org:x.git"}
    created = client.post(url, json={**ssh, "ssh_known_hosts": comments})
    assert created.status_code == 201, created.text
    assert created.json()["ssh_known_hosts"] == comments.strip()
