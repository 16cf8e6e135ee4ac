from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from support import runs, services
from support.builders import (
    assert_problem,
    make_inventory,
    make_local_repository,
    make_project,
    make_template,
)

from steward.inventories import service
from steward.inventories.models import Inventory
from steward.inventories.schemas import InventoryCreate
from steward.projects.models import Project
from steward.repositories.checkout import Reach

INI = """\
[web]
web1 ansible_host=10.0.0.1
web2

[db]
db1 ansible_password=hunter2 ansible_become_pass=sudo-hunter2 db_key=k3y port=5432

[prod:children]
web
db

[web:vars]
http_port=80
api_token=t0ken
"""

YAML = """\
all:
  children:
    web:
      hosts:
        web1:
          credentials: {user: app, secret_word: sesame}
      vars:
        vault_pass_file: /etc/vault
"""


def url(project_id: int, suffix: str = "") -> str:
    return f"/api/v1/projects/{project_id}/inventories{suffix}"


@pytest.fixture
def project_id(client: TestClient) -> int:
    return make_project(client)


@pytest.fixture
def repo_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "repo"
    (directory / "inventories" / "host_vars").mkdir(parents=True)
    (directory / "inventories" / "prod.ini").write_text("[app]\napp1\napp2\n")
    (directory / "inventories" / "host_vars" / "app1.yml").write_text("db_password: x\nrole: a\n")
    (directory / "inventories" / "broken.ini").write_text("[app]\napp1 role\n")
    (directory / "ok.yml").write_text("- hosts: all\n  tasks: []\n")  # what make_template runs
    (directory / "generator.yml").write_text(
        "plugin: ansible.builtin.generator\n"
        "hosts:\n  name: '{{ app }}-{{ env }}'\n  parents:\n    - name: '{{ env }}'\n"
        "layers:\n  app: [web, db]\n  env: [prod]\n"
    )
    script = directory / "list.sh"
    script.write_text(
        "#!/bin/sh\n"
        'echo \'{"scripted": {"hosts": ["s1"]}, "_meta": {"hostvars": {"s1": {"x": 1}}}}\'\n'
    )
    script.chmod(0o755)
    return directory


@pytest.fixture
def repository_id(client: TestClient, project_id: int, repo_dir: Path) -> int:
    return make_local_repository(client, project_id, repo_dir)


def by_name(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in items}


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_static_ini_inventory_resolves_hosts_and_groups(
    client: TestClient, project_id: int
) -> None:
    inventory = make_inventory(client, project_id, content=INI)
    resolved = client.get(url(project_id, f"/{inventory['id']}/hosts"))
    assert resolved.status_code == 200, resolved.text
    hosts, groups = by_name(resolved.json()["hosts"]), by_name(resolved.json()["groups"])
    assert sorted(hosts) == ["db1", "web1", "web2"]
    assert hosts["web1"]["vars"] == {"ansible_host": "10.0.0.1"}
    assert hosts["web1"]["groups"] == ["web"]
    assert groups["prod"]["children"] == ["web", "db"]
    assert groups["web"]["hosts"] == ["web1", "web2"]
    assert groups["web"]["vars"]["http_port"] == 80


def test_secret_variables_are_masked_in_hosts(client: TestClient, project_id: int) -> None:
    ini = make_inventory(client, project_id, name="ini", content=INI)
    yaml = make_inventory(client, project_id, name="yaml", format="yaml", content=YAML)
    ini_hosts = client.get(url(project_id, f"/{ini['id']}/hosts"))
    yaml_hosts = client.get(url(project_id, f"/{yaml['id']}/hosts"))
    db1 = by_name(ini_hosts.json()["hosts"])["db1"]["vars"]
    assert db1 == {
        "ansible_password": "********",
        "ansible_become_pass": "********",
        "db_key": "********",
        "port": 5432,
    }
    assert by_name(ini_hosts.json()["groups"])["web"]["vars"]["api_token"] == "********"
    web1 = by_name(yaml_hosts.json()["hosts"])["web1"]["vars"]
    assert web1 == {"credentials": {"user": "app", "secret_word": "********"}}
    assert by_name(yaml_hosts.json()["groups"])["web"]["vars"] == {"vault_pass_file": "********"}
    for secret in ("hunter2", "k3y", "t0ken", "sesame", "/etc/vault"):
        assert secret not in ini_hosts.text + yaml_hosts.text


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_broken_ini_is_refused_with_ansibles_message(client: TestClient, project_id: int) -> None:
    body = {"name": "bad", "kind": "static", "format": "ini", "content": "[web]\nweb1 port\n"}
    refused = client.post(url(project_id), json=body)
    detail = assert_problem(refused, 422, "content")
    assert "Expected key=value host variable assignment, got: port" in detail
    assert "/tmp" not in detail
    assert client.get(url(project_id)).json()["total"] == 0


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_broken_yaml_is_refused_with_ansibles_message(client: TestClient, project_id: int) -> None:
    body = {"name": "bad", "kind": "static", "format": "yaml", "content": "all:\n  hosts: {a: 1\n"}
    detail = assert_problem(client.post(url(project_id), json=body), 422, "content")
    assert "YAML parsing failed" in detail
    assert "/tmp" not in detail


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_ini_text_declared_as_yaml_does_not_fall_through_to_another_plugin(
    client: TestClient, project_id: int
) -> None:
    body = {"name": "bad", "kind": "static", "format": "yaml", "content": INI}
    assert_problem(client.post(url(project_id), json=body), 422, "content")


@pytest.mark.parametrize("path", ["../x.ini", "/etc/hosts", "inventories/../../x", ".", ""])
def test_paths_leaving_the_repository_are_refused(
    db_session: Session, tmp_path: Path, path: str
) -> None:
    """Below HTTP (refused before any checkout); over HTTP: test_a_refused_body_is_a_422."""
    project = services.project(db_session)
    repository = runs.template(db_session, project).repository_id
    body = {"name": "f", "kind": "file", "repository_id": repository, "path": path}
    services.refused(lambda: create_below(db_session, project, body, tmp_path), "path")
    assert db_session.scalar(select(func.count()).select_from(Inventory)) == 1  # runs.template's


def test_path_is_stored_normalized(client: TestClient, project_id: int, repository_id: int) -> None:
    body = {"kind": "file", "repository_id": repository_id, "path": "./inventories//x/../prod.ini"}
    created = make_inventory(client, project_id, **body)
    assert created["path"] == "inventories/prod.ini"
    assert created["content"] == ""
    assert created["format"] is None


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_file_inventory_resolves_from_a_checkout_with_its_host_vars(
    client: TestClient, project_id: int, repository_id: int
) -> None:
    body = {"kind": "file", "repository_id": repository_id, "path": "inventories/prod.ini"}
    inventory = make_inventory(client, project_id, **body)
    resolved = client.get(url(project_id, f"/{inventory['id']}/hosts"))
    assert resolved.status_code == 200, resolved.text
    hosts = by_name(resolved.json()["hosts"])
    assert sorted(hosts) == ["app1", "app2"]
    assert hosts["app1"]["vars"] == {"db_password": "********", "role": "a"}


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_plugin_inventories_run_plugin_configs_and_scripts(
    client: TestClient, project_id: int, repository_id: int
) -> None:
    plugin = {"kind": "plugin", "repository_id": repository_id}
    generator = make_inventory(client, project_id, name="gen", path="generator.yml", **plugin)
    script = make_inventory(client, project_id, name="script", path="list.sh", **plugin)
    generated = client.get(url(project_id, f"/{generator['id']}/hosts")).json()
    scripted = client.get(url(project_id, f"/{script['id']}/hosts")).json()
    assert by_name(generated["groups"])["prod"]["hosts"] == ["web-prod", "db-prod"]
    assert scripted["hosts"] == [{"name": "s1", "groups": ["scripted"], "vars": {"x": 1}}]


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_hosts_of_a_broken_or_missing_repository_file_name_the_path(
    client: TestClient, project_id: int, repository_id: int, repo_dir: Path
) -> None:
    source = {"kind": "file", "repository_id": repository_id}
    broken = make_inventory(client, project_id, name="b", path="inventories/broken.ini", **source)
    (repo_dir / "nope.ini").write_text("app1\n")
    missing = make_inventory(client, project_id, name="m", path="nope.ini", **source)
    (repo_dir / "nope.ini").unlink()  # gone after saving (saving a missing path is refused)
    detail = assert_problem(client.get(url(project_id, f"/{broken['id']}/hosts")), 422, "path")
    assert "Expected key=value host variable assignment" in detail
    assert "/tmp" not in detail
    detail = assert_problem(client.get(url(project_id, f"/{missing['id']}/hosts")), 422, "path")
    assert "'nope.ini' is not in repository 'playbooks'" in detail


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_hosts_of_a_repository_that_cannot_be_checked_out_is_a_conflict(
    client: TestClient, project_id: int, repository_id: int, repo_dir: Path
) -> None:
    body = {"kind": "file", "repository_id": repository_id, "path": "inventories/prod.ini"}
    inventory = make_inventory(client, project_id, **body)
    repo_dir.rename(repo_dir.with_name("moved"))
    refused = client.get(url(project_id, f"/{inventory['id']}/hosts"))
    assert_problem(refused, 409, "repository 'playbooks' could not be checked out")


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_preview_resolves_unsaved_text_or_names_content(
    client: TestClient, project_id: int
) -> None:
    preview = client.post(url(project_id, "/preview"), json={"format": "ini", "content": INI})
    assert preview.status_code == 200, preview.text
    assert sorted(by_name(preview.json()["hosts"])) == ["db1", "web1", "web2"]
    broken = client.post(url(project_id, "/preview"), json={"format": "ini", "content": "[a\nb c"})
    assert_problem(broken, 422, "content")
    assert client.get(url(project_id)).json()["total"] == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"kind": "static", "content": "a\n"}, "format"),
        ({"kind": "static", "format": "ini", "path": "x.ini"}, "path"),
        ({"kind": "file", "path": "x.ini"}, "repository_id"),
        ({"kind": "file", "repository_id": 999999, "path": "x.ini"}, "repository_id"),
        ({"kind": "plugin", "format": "yaml", "path": "x.yml"}, "format"),
        ({"kind": "static", "format": "ini", "colour": "red"}, "colour"),
        ({"kind": "dynamic"}, "kind"),
    ],
)
def test_fields_that_do_not_fit_the_kind_are_named(
    db_session: Session, tmp_path: Path, body: dict[str, Any], field: str
) -> None:
    """Below HTTP; over HTTP: test_a_refused_body_is_a_422."""
    project = services.project(db_session)
    services.refused(
        lambda: create_below(db_session, project, {"name": "x", **body}, tmp_path), field
    )
    assert db_session.scalar(select(func.count()).select_from(Inventory)) == 0


def create_below(session: Session, project: Project, body: dict[str, Any], scratch: Path) -> Any:
    """``POST .../inventories`` below HTTP: the body validated as the route validates its JSON,
    then ``inventories.service.create`` (no local repository roots: nothing is checked out)."""
    sent = InventoryCreate.model_validate_json(json.dumps(body))
    reach = Reach(services.cipher(), [], services.guard(), scratch)
    return service.create(session, project, sent, actor=services.admin(session), reach=reach)


def test_a_refused_body_is_a_422(client: TestClient, project_id: int, repository_id: int) -> None:
    leaving = {"name": "f", "kind": "file", "repository_id": repository_id, "path": "../x.ini"}
    assert_problem(client.post(url(project_id), json=leaving), 422, "path")
    unfit = {"name": "x", "kind": "file", "repository_id": 999999, "path": "x.ini"}
    assert_problem(client.post(url(project_id), json=unfit), 422, "repository_id")
    assert client.get(url(project_id)).json()["total"] == 0


def test_repository_of_another_project_is_refused(
    client: TestClient, project_id: int, repo_dir: Path
) -> None:
    other = make_project(client, "other")
    foreign = make_local_repository(client, other, repo_dir)
    body = {"name": "f", "kind": "file", "repository_id": foreign, "path": "inventories/prod.ini"}
    detail = assert_problem(client.post(url(project_id), json=body), 422, "repository_id")
    assert f"repository {foreign} does not exist in this project" in detail


@pytest.mark.sqlite_only  # Ansible parses it; the database is incidental
def test_update_validates_the_whole_source_and_keeps_the_old_on_error(
    client: TestClient, project_id: int, repository_id: int
) -> None:
    inventory = make_inventory(client, project_id)
    item = url(project_id, f"/{inventory['id']}")
    assert_problem(client.patch(item, json={"content": "[x\ny z"}), 422, "content")
    assert client.get(item).json()["content"] == "localhost\n"
    switched = client.patch(
        item, json={"kind": "file", "repository_id": repository_id, "path": "inventories/prod.ini"}
    )
    assert switched.status_code == 200, switched.text
    assert (switched.json()["format"], switched.json()["content"]) == (None, "")
    assert_problem(client.patch(item, json={"name": None}), 422, "name")
    renamed = client.patch(item, json={"name": "renamed", "description": "d"})
    assert (renamed.json()["name"], renamed.json()["path"]) == ("renamed", "inventories/prod.ini")


@pytest.mark.both_databases
def test_names_are_unique_per_project(client: TestClient, project_id: int) -> None:
    make_inventory(client, project_id)
    again = client.post(url(project_id), json={"name": "hosts", "kind": "static", "format": "ini"})
    assert_problem(again, 409, "name")


def test_crud_roundtrip_and_other_projects_ids_are_not_found(
    client: TestClient, project_id: int
) -> None:
    inventory = make_inventory(client, project_id)
    listed = client.get(url(project_id)).json()
    assert [i["name"] for i in listed["items"]] == ["hosts"]
    assert client.get(url(project_id, f"/{inventory['id']}")).json() == inventory
    other = make_project(client, "other")
    assert_problem(client.get(url(other, f"/{inventory['id']}")), 404, f"{inventory['id']}")
    assert client.delete(url(project_id, f"/{inventory['id']}")).status_code == 204
    assert client.get(url(project_id, f"/{inventory['id']}")).status_code == 404


def test_delete_of_an_inventory_in_use_names_the_templates(
    client: TestClient, project_id: int, repository_id: int
) -> None:
    inventory = make_inventory(client, project_id)
    for name in ("deploy", "backup"):
        make_template(
            client, project_id, name=name, repository_id=repository_id, inventory_id=inventory["id"]
        )
    refused = client.delete(url(project_id, f"/{inventory['id']}"))
    detail = assert_problem(refused, 409, "'backup', 'deploy'")
    assert "inventory 'hosts' is used by templates" in detail
