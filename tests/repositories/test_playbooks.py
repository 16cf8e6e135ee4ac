"""The playbooks of a repository, listed for the template form, and a template's playbook
checked to be one when it is saved."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from support.builders import (
    assert_problem,
    git,
    git_commit_all,
    git_init,
    make_inventory,
    make_local_repository,
    make_project,
    make_repository,
)

PLAY = "- hosts: all\n  gather_facts: false\n  tasks: []\n"


def _tree(root: Path) -> None:
    files = {
        "site.yml": PLAY,
        "imports.yaml": "- import_playbook: site.yml\n- ansible.builtin.import_playbook: db.yml\n",
        "db/db.yml": "- hosts: db\n  vars:\n    pw: !vault |\n      $ANSIBLE_VAULT\n",
        "deep/a/b/c/d/e/f/too_deep.yml": PLAY,
        "deep/a/b/c/d/e/deepest.yml": PLAY,
        "vars.yml": "a: 1\n",
        "list_of_tasks.yml": "- name: t\n  debug: {msg: x}\n",
        "empty.yml": "",
        "broken.yml": "- hosts: [\n",
        "README.md": PLAY,
        "roles/web/tasks/main.yml": PLAY,
        "collections/ns/x.yml": PLAY,
        "group_vars/all.yml": PLAY,
        "host_vars/h.yml": PLAY,
        ".github/workflows/ci.yml": PLAY,
    }
    for name, content in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(content)
    (root / "linked.yml").symlink_to("site.yml")  # inside: listed


def _url(project: int, repository: int) -> str:
    return f"/api/v1/projects/{project}/repositories/{repository}/playbooks"


def test_playbooks_of_a_local_repository(client: TestClient, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _tree(root)
    project = make_project(client)
    repository = make_local_repository(client, project, root)
    response = client.get(_url(project, repository))
    assert response.status_code == 200, response.text
    assert response.json() == {
        "commit": "",
        "playbooks": [
            "db/db.yml",
            "deep/a/b/c/d/e/deepest.yml",
            "imports.yaml",
            "linked.yml",
            "site.yml",
        ],
        "truncated": True,  # deep/a/b/c/d/e/f is below the six levels walked
    }


def test_playbooks_of_a_git_repository_at_a_ref(client: TestClient, tmp_path: Path) -> None:
    origin = tmp_path / "origin"
    git_init(origin)
    (origin / "site.yml").write_text(PLAY)
    git_commit_all(origin, "first")
    git(origin, "checkout", "--quiet", "-b", "feature")
    (origin / "feature.yml").write_text(PLAY)
    git_commit_all(origin, "feature")
    feature = git(origin, "rev-parse", "HEAD")
    git(origin, "checkout", "--quiet", "main")
    project = make_project(client)
    repository = make_repository(client, project, url=f"file://{origin}", ref="main")["id"]
    main = client.get(_url(project, repository)).json()
    assert main["playbooks"] == ["site.yml"]
    assert main["truncated"] is False
    at_feature = client.get(_url(project, repository), params={"ref": "feature"}).json()
    assert at_feature == {
        "commit": feature,
        "playbooks": ["feature.yml", "site.yml"],
        "truncated": False,
    }
    missing = client.get(_url(project, repository), params={"ref": "nope"})
    assert_problem(missing, 409, "cannot be read")


def test_an_unreadable_repository_is_a_409_and_does_not_block_saving(
    client: TestClient, tmp_path: Path
) -> None:
    project = make_project(client)
    gone = tmp_path / "gone"
    git_init(gone)
    (gone / "site.yml").write_text(PLAY)
    git_commit_all(gone, "first")
    repository = make_repository(client, project, url=f"file://{gone}")["id"]
    inventory = make_inventory(client, project)["id"]
    (gone / ".git").rename(tmp_path / "moved.git")  # the server is down
    listing = client.get(_url(project, repository))
    detail = assert_problem(listing, 409, "repository 'playbooks' cannot be read")
    assert "checkout of" in detail
    saved = client.post(
        f"/api/v1/projects/{project}/templates",
        json={
            "name": "t",
            "playbook": "anything.yml",
            "repository_id": repository,
            "inventory_id": inventory,
        },
    )
    assert saved.status_code == 201, saved.text


def test_saving_a_template_needs_a_playbook_of_the_repository(
    client: TestClient, tmp_path: Path
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    _tree(root)
    project = make_project(client)
    repository = make_local_repository(client, project, root)
    inventory = make_inventory(client, project)["id"]
    url = f"/api/v1/projects/{project}/templates"
    body = {"repository_id": repository, "inventory_id": inventory}
    refused = {
        "missing.yml": "is not in repository 'playbooks'",
        "vars.yml": "its top level is not a list of plays",
        "list_of_tasks.yml": "item 1 has no hosts or import_playbook",
        "empty.yml": "its top level is not a list of plays",
        "broken.yml": "is not valid YAML (line 2)",
    }
    for playbook, cause in refused.items():
        response = client.post(url, json={**body, "name": playbook, "playbook": playbook})
        detail = assert_problem(response, 422, "playbook")
        assert cause in detail, detail
    saved = client.post(url, json={**body, "name": "db", "playbook": "db/db.yml"})
    assert saved.status_code == 201, saved.text
    changed = client.patch(f"{url}/{saved.json()['id']}", json={"playbook": "vars.yml"})
    assert_problem(changed, 422, "playbook")
