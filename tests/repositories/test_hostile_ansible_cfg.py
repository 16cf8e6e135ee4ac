"""A repository's ``ansible.cfg`` may not point Ansible at files outside the checkout.

Ansible reads ``ansible.cfg`` from its working directory, the checkout root. Every setting that
ansible-core's own definitions (``config/base.yml``) type as a path must stay inside the checkout;
otherwise the checkout is refused, and so the run (``error``), ``/hosts`` and saving.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from support.builders import (
    LOCALHOST_INVENTORY,
    assert_problem,
    make_local_repository,
    make_project,
    post,
)
from support.waits import wait_finished

from steward.execution.ansible import config as ansible_config
from steward.repositories import containment

pytestmark = pytest.mark.security

PLAY = "- hosts: all\n  gather_facts: false\n  tasks: []\n"


def test_path_settings_come_from_ansible_core_definitions() -> None:
    keys = ansible_config.ini_path_keys()
    assert keys["defaults", "vault_password_file"].type == "path"
    assert keys["defaults", "callback_plugins"].type == "pathspec"
    assert keys["defaults", "roles_path"].env == ("ANSIBLE_ROLES_PATH",)
    assert keys["defaults", "inventory"].type == "pathlist"
    assert keys["defaults", "local_tmp"].type == "tmppath"
    assert ("defaults", "forks") not in keys  # an integer
    assert ansible_config.env_path_vars()["ANSIBLE_VAULT_PASSWORD_FILE"].type == "path"


def test_split_follows_ansible_core() -> None:
    assert ansible_config.split("a:/b", "pathspec") == ["a", "/b"]
    assert ansible_config.split("a, /b", "pathlist") == ["a", "/b"]
    assert ansible_config.split("a:b", "path") == ["a:b"]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    tree = tmp_path / "checkout"
    (tree / "roles").mkdir(parents=True)
    return tree


@pytest.mark.parametrize(
    ("text", "where", "cause"),
    [
        ("[defaults]\nvault_password_file = /srv/steward/data/secret.key\n", "vault_password_file",
         "'/srv/steward/data/secret.key' points outside"),
        ("[defaults]\ncallback_plugins = /tmp/evil\n", "callback_plugins", "'/tmp/evil' points"),
        ("[defaults]\nroles_path = ../../x\n", "roles_path", "'../../x' points outside"),
        ("[defaults]\nroles_path = roles:/etc/ansible/roles\n", "roles_path", "'/etc/ansible"),
        ("[defaults]\ninventory = hosts, /etc/hosts\n", "inventory", "'/etc/hosts' points"),
        ("[defaults]\nlibrary = $HOME/lib\n", "library", "environment variables ($…)"),
        ("[defaults]\nlog_path = ~/steward.log\n", "log_path", "'~' (a home directory)"),
        ("[defaults]\nroles_path = {{CWD}}/../x\n", "roles_path", "templates ({{…}})"),
        ("[defaults]\nprivate_key_file = '/etc/ssh/key' ; quoted\n", "private_key_file",
         "'/etc/ssh/key' points outside"),
        ("[DEFAULT]\nroles_path = /etc\n[defaults]\n", "roles_path", "'/etc' points outside"),
        ("[galaxy]\ntoken_path = /root/.ansible/galaxy_token\n", "[galaxy] token_path", "/root"),
        ("[persistent_connection]\ncontrol_path_dir = /tmp\n", "control_path_dir", "'/tmp'"),
    ],
)  # fmt: skip
def test_a_path_setting_leading_outside_is_refused(
    root: Path, text: str, where: str, cause: str
) -> None:
    (root / "ansible.cfg").write_text(text)
    with pytest.raises(containment.NotContained) as refused:
        containment.check(root)
    assert refused.value.message.startswith("ansible.cfg [")
    assert where in refused.value.message
    assert cause in refused.value.message


def test_a_relative_path_through_a_symlinked_directory_is_judged_by_its_text(root: Path) -> None:
    """Ansible normalizes ``deep/../..`` by text (the parent of the checkout), then opens it."""
    (root / "a" / "b").mkdir(parents=True)
    (root / "deep").symlink_to("a/b")
    (root / "ansible.cfg").write_text("[defaults]\nroles_path = deep/../../x\n")
    with pytest.raises(containment.NotContained, match=r"roles_path: 'deep/../../x' points"):
        containment.check(root)


def test_paths_inside_and_other_settings_are_accepted(root: Path) -> None:
    (root / "ansible.cfg").write_text(
        "[defaults]\nroles_path = roles:./more/roles\ncallback_plugins = plugins/callback\n"
        "vault_password_file = \nforks = 50\nstdout_callback = yaml\ninventory = hosts,inv/\n"
        "[ssh_connection]\npipelining = True\n"
    )
    containment.check(root)


def test_an_unreadable_ansible_cfg_is_refused(root: Path) -> None:
    (root / "ansible.cfg").write_text("roles_path = /etc\n")  # no section
    with pytest.raises(containment.NotContained, match=r"ansible\.cfg cannot be read"):
        containment.check(root)


# --- through the API -------------------------------------------------------------------------


def url(project_id: int, path: str) -> str:
    return f"/api/v1/projects/{project_id}/{path}"


@pytest.fixture
def repo_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "repo"
    directory.mkdir()
    (directory / "ok.yml").write_text(PLAY)
    (directory / "hosts.ini").write_text("web1\n")
    return directory


def saved_template(client: TestClient, repo_dir: Path) -> tuple[int, int]:
    """(project id, template id) of a template of ``repo_dir`` running ok.yml on localhost."""
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = {"name": "local", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY}
    inventory = post(client, url(project_id, "inventories"), body)
    fields: dict[str, Any] = {"name": "t", "playbook": "ok.yml", "repository_id": repository_id}
    template = post(
        client, url(project_id, "templates"), fields | {"inventory_id": inventory["id"]}
    )
    return project_id, template["id"]


@pytest.mark.sqlite_only
@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("vault_password_file = /srv/steward/data/secret.key", "[defaults] vault_password_file"),
        ("callback_plugins = /tmp/evil", "[defaults] callback_plugins"),
        ("roles_path = ../../x", "[defaults] roles_path"),
    ],
)
def test_a_run_of_a_repository_whose_ansible_cfg_leads_outside_ends_in_error(
    client: TestClient, repo_dir: Path, line: str, named: str
) -> None:
    project_id, template_id = saved_template(client, repo_dir)
    (repo_dir / "ansible.cfg").write_text(f"[defaults]\n{line}\n")  # added after saving
    launched = post(client, url(project_id, "runs"), {"template_id": template_id})
    run = wait_finished(client, project_id, launched["id"])
    assert run["status"] == "error", run
    assert f"ansible.cfg {named}:" in run["status_reason"]
    assert "points outside the repository" in run["status_reason"]
    assert run["line_count"] == 0


def test_saving_a_template_of_such_a_repository_is_refused(
    client: TestClient, repo_dir: Path
) -> None:
    (repo_dir / "ansible.cfg").write_text("[defaults]\ncallback_plugins = /tmp/evil\n")
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = {"name": "local", "kind": "static", "format": "ini", "content": LOCALHOST_INVENTORY}
    inventory = post(client, url(project_id, "inventories"), body)
    fields: dict[str, Any] = {"name": "t", "playbook": "ok.yml", "repository_id": repository_id}
    refused = client.post(
        url(project_id, "templates"), json=fields | {"inventory_id": inventory["id"]}
    )
    assert "ansible.cfg [defaults] callback_plugins" in assert_problem(
        refused, 422, "repository_id"
    )


def test_hosts_of_such_a_repository_is_refused(client: TestClient, repo_dir: Path) -> None:
    project_id = make_project(client)
    repository_id = make_local_repository(client, project_id, repo_dir)
    body = {"name": "f", "kind": "file", "repository_id": repository_id, "path": "hosts.ini"}
    inventory = post(client, url(project_id, "inventories"), body)
    (repo_dir / "ansible.cfg").write_text("[defaults]\ninventory_plugins = /tmp/evil\n")
    answer = client.get(url(project_id, f"inventories/{inventory['id']}/hosts"))
    assert "ansible.cfg [defaults] inventory_plugins" in assert_problem(answer, 409, "/tmp/evil")
