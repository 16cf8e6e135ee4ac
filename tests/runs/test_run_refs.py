"""A run's read names what its parameters refer to by id: repository, inventory, environment,
keys (key names only for who may see the project's keys)."""

from __future__ import annotations

import shutil

from support.builders import Workbench, bearer, make_user, token


def test_a_run_names_its_repository_inventory_environment_and_keys(
    workbench: Workbench,
) -> None:
    become = workbench.key(name="sudo-pw", kind="login_password", password="pw-123456")
    vault = workbench.key(name="vault-prod", kind="vault_password", password="vault-123456")
    environment = workbench._post(workbench.url("environments"), {"name": "prod-env"})["id"]
    template = workbench.template(
        "ok.yml", become_key_id=become, vault_key_ids=[vault], environment_id=environment
    )
    # the refs come from the run's parameters, not its execution: with the repository's
    # directory gone, the run ends at its checkout instead of starting ansible-playbook
    shutil.rmtree(workbench.repo_dir)
    run = workbench.launch(template)
    read = workbench.run(run["id"])
    assert read["refs"] == {
        "repository": "local",
        "inventory": "localhost",
        "environment": "prod-env",
        "ssh_key": None,
        "become_key": "sudo-pw",
        "vault_keys": ["vault-prod"],
    }
    # a list stays lean: names are for the page of one run
    listed = workbench.client.get(workbench.url("runs")).json()["items"][0]
    assert listed["refs"] is None

    # a run grant on the template shows it the names a template shows it: no key names
    runner = make_user(workbench.client, "runner")
    grants = workbench.url(f"templates/{template}/grants")
    granted = workbench.client.post(grants, json={"user_id": runner["id"], "permission": "run"})
    assert granted.status_code == 201, granted.text
    as_runner = workbench.client.get(
        workbench.url(f"runs/{run['id']}"), headers=bearer(token(workbench.client, "runner"))
    )
    assert as_runner.status_code == 200, as_runner.text
    refs = as_runner.json()["refs"]
    assert (refs["repository"], refs["inventory"], refs["environment"]) == (
        "local",
        "localhost",
        "prod-env",
    )
    assert (refs["become_key"], refs["vault_keys"]) == (None, [])
    assert "sudo-pw" not in as_runner.text
    assert "vault-prod" not in as_runner.text
    assert workbench.wait(run["id"])["status"] == "error"
