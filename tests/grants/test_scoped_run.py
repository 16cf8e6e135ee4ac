"""A host-scoped grant end to end, with real ansible-playbook: a grantee limited to the ``dev``
group launches a play on ``all`` of an inventory of two hosts (two local-connection aliases),
and only the dev host runs it; once the admin adds the other host to ``dev``, the next run of
the same grant reaches it too (the scope is resolved when the run starts). The grant routes
(POST, PATCH) and the template read (``launch_hosts``) are wired on the way."""

from __future__ import annotations

import sys

from fastapi.testclient import TestClient
from support.builders import Workbench, bearer, make_user, token

LOCAL = f"ansible_connection=local ansible_python_interpreter={sys.executable}"


def _inventory(dev: str, prod: str) -> str:
    return f"[dev]\n{dev}\n[prod]\n{prod}\n[all:vars]\n{LOCAL.replace(' ', chr(10))}\n"


def _hosts(workbench: Workbench, client: TestClient, run_id: int) -> list[str]:
    run = workbench.wait(run_id)
    assert run["status"] == "successful", run
    answer = client.get(workbench.url(f"runs/{run_id}/hosts"))
    return sorted(recap["host"] for recap in answer.json())


def test_a_scoped_grantee_runs_on_the_scope_as_it_is_when_the_run_starts(
    workbench: Workbench,
) -> None:
    admin = workbench.client
    inventory = workbench.inventory("two", _inventory("alpha", "beta"))
    template = workbench.template("ok.yml", inventory_id=inventory, overridable=["limit"])
    junior = make_user(admin, "junior")
    grants = workbench.url(f"templates/{template}/grants")
    body = {"user_id": junior["id"], "permission": "run", "hosts": ["dev"]}
    created = admin.post(grants, json=body)
    assert created.status_code == 201, created.text
    assert created.json()["hosts"] == ["dev"]
    client = TestClient(admin.app, base_url="http://testserver")
    client.headers.update(bearer(token(admin, "junior")))
    read = client.get(workbench.url(f"templates/{template}")).json()
    assert read["launch_hosts"] == ["dev"]
    assert read["launch_hosts_now"] == {"names": ["alpha"], "count": 1, "unresolved": []}

    launch = {"template_id": template, "limit": "all"}  # asks for every host
    first = client.post(workbench.url("runs"), json=launch)
    assert first.status_code == 201, first.text
    assert _hosts(workbench, client, first.json()["id"]) == ["alpha"]

    moved = {"content": _inventory("alpha\nbeta", "")}
    assert admin.patch(workbench.url(f"inventories/{inventory}"), json=moved).status_code == 200
    second = client.post(workbench.url("runs"), json=launch)
    assert second.status_code == 201, second.text
    assert _hosts(workbench, client, second.json()["id"]) == ["alpha", "beta"]
    now = client.get(workbench.url(f"templates/{template}")).json()["launch_hosts_now"]
    assert now == {"names": ["alpha", "beta"], "count": 2, "unresolved": []}

    widened = admin.patch(f"{grants}/{created.json()['id']}", json={"hosts": []})
    assert widened.status_code == 200, widened.text
    assert widened.json()["hosts"] == []
    read = client.get(workbench.url(f"templates/{template}")).json()
    assert read["launch_hosts"] is None
    assert read["launch_hosts_now"] is None
