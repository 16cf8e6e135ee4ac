"""The health routes' wiring, and the one real run with a pre-flight: an inventory of two hosts
on 127.0.0.1, one the tests' sshd, one a refused port; checked now (the inventory, a host),
read back, counted on the inventory, then a template with ``preflight: skip_unreachable``
runs ansible-playbook on the reachable host only and records why the other was left out
(the rules: test_service.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.builders import Workbench, assert_problem, ssh_keygen
from support.health import refused_port
from support.sshd import SshServer

pytestmark = pytest.mark.sqlite_only  # the SQL is tested on both databases below HTTP


def test_check_read_count_and_skip_an_unreachable_host_in_a_real_run(
    workbench: Workbench, sshd: SshServer, tmp_path: Path
) -> None:
    private, public = ssh_keygen(tmp_path)
    sshd.authorize(public)
    key = workbench.key(name="deploy", kind="ssh", username=sshd.user, private_key=private)
    down = refused_port()
    inventory = workbench.inventory(
        "remote",
        f"up ansible_host=127.0.0.1 ansible_port={sshd.port}"
        f" ansible_python_interpreter={sys.executable}\n"
        f"down ansible_host=127.0.0.1 ansible_port={down}\n",
    )
    client = workbench.client

    checked = client.post(workbench.url(f"inventories/{inventory}/health")).json()
    assert (checked["checked"], checked["unreachable"]) == (2, 1)
    one = client.post(workbench.url("hosts/up/health")).json()
    assert [(i["host"], i["status"]) for i in one["items"]] == [("up", "reachable")]
    assert_problem(client.post(workbench.url("hosts/nowhere/health")), 404, "")

    listed = client.get(workbench.url("inventories")).json()["items"]
    assert [i["health"] for i in listed if i["id"] == inventory] == [
        {"unreachable_now": 1, "checked": 2, "hosts": 2}
    ]
    read = client.get(workbench.url(f"inventories/{inventory}")).json()
    assert read["health"]["unreachable_now"] == 1

    template = workbench.template(
        "whoami.yml", inventory_id=inventory, ssh_key_id=key, preflight="skip_unreachable"
    )
    assert client.get(workbench.url(f"templates/{template}")).json()["preflight"] == (
        "skip_unreachable"
    )
    run = workbench.wait(workbench.launch(template)["id"], timeout=60)
    assert run["status"] == "successful", workbench.text(run["id"])
    recap = client.get(workbench.url(f"runs/{run['id']}/hosts")).json()
    assert [h["host"] for h in recap] == ["up"]
    skipped = client.get(workbench.url(f"runs/{run['id']}/preflight")).json()
    assert skipped == [
        {
            "host": "down",
            "status": "refused",
            "reason": f"port {down}: connection refused",
            "skipped": True,
        }
    ]

    health = client.get(workbench.url("hosts/down/health"), params={"days": 1}).json()
    assert [c["trigger"] for c in health["history"]] == ["preflight", "manual"]
    assert [(x["inventory"], x["unreachable"]) for x in health["latest"]] == [("remote", True)]
    assert_problem(client.get(workbench.url("hosts/down/health"), params={"days": 0}), 422, "days")
