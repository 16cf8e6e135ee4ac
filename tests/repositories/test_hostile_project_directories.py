"""Local directories belong to projects: a manager of project A cannot reach project B's local
directory, whatever the spelling (a path, a ``file://`` URL, ``..``, a symlink, a sibling whose
name starts like A's), cannot assign directories (only admins do), and A's runs never see B's
directory: not the playbook (the sandbox hides every local root), not ansible-galaxy (which is
given A's own directories only, read-only, for ``git+file://`` requirements).

Every refusal has its control: the same form inside A's own directory is accepted and works.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from requirements.servers import make_role_repo
from support.builders import (
    LOCALHOST_INVENTORY,
    PLAYBOOKS,
    assert_problem,
    assign_local_roots,
    make_git_repo,
    make_project,
    member_client,
    post,
)
from support.waits import wait_for_run

from steward.config import Settings
from steward.execution.ansible.sandbox import Sandbox
from steward.projects.models import Project
from steward.repositories import local

pytestmark = [
    pytest.mark.security,
    pytest.mark.sqlite_only,
]  # the file system, the sandbox and Ansible

B_SECRET = "project-b-secret-4f9c1e"


@pytest.fixture
def roots(tmp_path: Path) -> Path:
    path = tmp_path / "roots"
    path.mkdir()
    return path


@pytest.fixture
def settings(settings: Settings, roots: Path) -> Settings:
    """``roots`` is the instance's only local repository root (STEWARD_LOCAL_REPOSITORY_ROOTS)."""
    return settings.model_copy(update={"local_repository_roots": [roots]})


class Projects:
    """Project A (local directory roots/a) with a manager, project B (roots/b, and roots/ab: a
    sibling whose name starts like A's) holding a secret, a git repository and playbooks."""

    def __init__(self, client: TestClient, roots: Path) -> None:
        self.admin = client
        self.roots = roots
        self.a = make_project(client, "a")
        self.b = make_project(client, "b")
        self.a_dir = roots / "a"
        self.b_dir = roots / "b"
        self.ab_dir = roots / "ab"
        for directory in (self.a_dir, self.b_dir, self.ab_dir):
            shutil.copytree(PLAYBOOKS, directory / "site")
            make_git_repo(directory / "git")
            (directory / "site" / "secret.txt").write_text(f"{B_SECRET}\n")
        (self.a_dir / "site" / "secret.txt").write_text("a's own file\n")
        assign_local_roots(client, self.a, self.a_dir)
        assign_local_roots(client, self.b, self.b_dir, self.ab_dir)
        self.manager = member_client(client, self.a, "mallory", "manager")

    def project(self, project_id: int) -> Project:
        runtime = self.admin.app.state.runtime  # type: ignore[attr-defined]
        with runtime.sessions() as session:
            found: Project | None = session.get(Project, project_id)
            assert found is not None
            session.expunge(found)
            return found

    def save(self, url: str, kind: str = "local", name: str = "r") -> Any:
        body = {"name": name, "kind": kind, "url": url}
        return self.manager.post(f"/api/v1/projects/{self.a}/repositories", json=body)


@pytest.fixture
def projects(client: TestClient, roots: Path) -> Projects:
    return Projects(client, roots)


def refused(answer: Any, projects: Projects) -> str:
    detail = assert_problem(answer, 422, "url")
    assert "is not inside a local directory of project 'a'" in detail
    assert f"allowed: a directory inside {projects.a_dir}" in detail
    assert B_SECRET not in answer.text
    return detail


def accepted(answer: Any) -> int:
    assert answer.status_code == 201, answer.text
    assert answer.json()["local_problem"] is None
    repository_id: int = answer.json()["id"]
    return repository_id


def playbooks_of(projects: Projects, repository_id: int) -> list[str]:
    url = f"/api/v1/projects/{projects.a}/repositories/{repository_id}/playbooks"
    listed = projects.manager.get(url)
    assert listed.status_code == 200, listed.text
    found: list[str] = listed.json()["playbooks"]
    return found


def test_a_local_path_into_another_projects_directory_is_refused(projects: Projects) -> None:
    refused(projects.save(str(projects.b_dir / "site")), projects)
    refused(projects.save(str(projects.b_dir)), projects)
    refused(projects.save(str(projects.roots)), projects)  # the shared root itself
    # control: the same form inside A's own directory is accepted and lists its playbooks
    mine = accepted(projects.save(str(projects.a_dir / "site")))
    assert "ok.yml" in playbooks_of(projects, mine)


def test_a_file_url_into_another_projects_directory_is_refused(projects: Projects) -> None:
    for url in (
        f"file://{projects.b_dir / 'git'}",
        f"file://localhost{projects.b_dir / 'git'}",
        f"file://{projects.a_dir}/../b/git",
    ):
        refused(projects.save(url, kind="git"), projects)
    # control: a file:// URL of A's own directory is accepted and reached
    mine = accepted(projects.save(f"file://{projects.a_dir / 'git'}", kind="git"))
    tested = projects.manager.post(f"/api/v1/projects/{projects.a}/repositories/{mine}/test")
    assert tested.status_code == 200, tested.text
    assert tested.json()["commit"]


def test_dot_dot_out_of_its_directory_is_refused(projects: Projects) -> None:
    detail = refused(projects.save(f"{projects.a_dir}/../b/site"), projects)
    assert f"resolves to {projects.b_dir / 'site'}" in detail
    # control: '..' that stays inside A's directory is accepted
    (projects.a_dir / "tmp").mkdir()
    accepted(projects.save(f"{projects.a_dir}/tmp/../site"))


def test_a_symlink_into_another_projects_directory_is_refused_at_save_and_at_use(
    projects: Projects,
) -> None:
    (projects.a_dir / "theirs").symlink_to(projects.b_dir / "site")
    detail = refused(projects.save(str(projects.a_dir / "theirs")), projects)
    assert f"resolves to {projects.b_dir / 'site'}" in detail
    # control: a symlink staying inside A's directory is accepted
    (projects.a_dir / "current").symlink_to(projects.a_dir / "site")
    mine = accepted(projects.save(str(projects.a_dir / "current"), name="current"))
    assert "ok.yml" in playbooks_of(projects, mine)
    # repointed at B's directory after saving: refused at the next use, nothing of B's shown
    (projects.a_dir / "current").unlink()
    (projects.a_dir / "current").symlink_to(projects.b_dir / "site")
    url = f"/api/v1/projects/{projects.a}/repositories/{mine}/playbooks"
    answer = projects.manager.get(url)
    assert "is not inside a local directory of project 'a'" in assert_problem(answer, 409, "")
    assert "ok.yml" not in answer.text


def test_a_sibling_whose_name_starts_like_its_directory_is_refused(projects: Projects) -> None:
    """roots/ab is B's: it starts with the text of roots/a, and is not inside it."""
    refused(projects.save(str(projects.ab_dir / "site")), projects)
    refused(projects.save(f"{projects.a_dir}b/site"), projects)
    refused(projects.save(f"file://{projects.ab_dir / 'git'}", kind="git"), projects)
    accepted(projects.save(str(projects.a_dir / "site")))  # control


def test_an_update_into_another_projects_directory_is_refused_and_keeps_the_old(
    projects: Projects,
) -> None:
    mine = accepted(projects.save(str(projects.a_dir / "site")))
    url = f"/api/v1/projects/{projects.a}/repositories/{mine}"
    for moved in (str(projects.b_dir / "site"), f"{projects.a_dir}/../ab/site"):
        refused(projects.manager.patch(url, json={"url": moved}), projects)
    assert projects.manager.get(url).json()["url"] == str(projects.a_dir / "site")
    # control: moving inside A's directory is accepted
    (projects.a_dir / "other").mkdir()
    answer = projects.manager.patch(url, json={"url": str(projects.a_dir / "other")})
    assert answer.status_code == 200, answer.text


def test_a_manager_cannot_assign_directories_only_an_admin_can(projects: Projects) -> None:
    url = f"/api/v1/projects/{projects.a}/local-roots"
    for wanted in ([str(projects.b_dir)], [str(projects.a_dir), str(projects.b_dir)]):
        answer = projects.manager.put(url, json={"local_roots": wanted})
        assert answer.status_code == 403, answer.text
    assert projects.admin.get(f"/api/v1/projects/{projects.a}").json()["local_roots"] == [
        str(projects.a_dir)
    ]
    refused(projects.save(str(projects.b_dir / "site")), projects)
    # control: once the admin assigns it, the same save is accepted
    assign_local_roots(projects.admin, projects.a, projects.b_dir)
    assert projects.save(str(projects.b_dir / "site")).status_code == 201


# --- runs: the sandbox of A's run never sees B's directory --------------------------------------

READER = """- hosts: all
  gather_facts: false
  tasks:
    - name: read {{ item }}
      ansible.builtin.command: cat {{ item }}
      register: read
      failed_when: false
      loop: "{{ targets }}"
    - ansible.builtin.debug:
        msg: "{{ read.results | map(attribute='stdout') | list }}
          {{ read.results | map(attribute='stderr') | list }}"
"""


def run_in_a(projects: Projects, playbook: str, **template: Any) -> tuple[dict[str, Any], str]:
    """Run ``playbook`` of A's local repository (roots/a/site) on localhost, as A's manager."""
    base = f"/api/v1/projects/{projects.a}"
    api = projects.manager
    repository = accepted(projects.save(str(projects.a_dir / "site"), name="site"))
    inventory = {"name": "local", "kind": "static", "format": "ini"}
    inventory_id = post(api, f"{base}/inventories", {**inventory, "content": LOCALHOST_INVENTORY})
    body = {"name": "t", "playbook": playbook, "repository_id": repository}
    template_id = post(
        api, f"{base}/templates", {**body, "inventory_id": inventory_id["id"], **template}
    )
    run_id = post(api, f"{base}/runs", {"template_id": template_id["id"]})["id"]
    run = wait_for_run(api, f"{base}/runs/{run_id}", timeout=120)
    text = api.get(f"{base}/runs/{run_id}/output").text
    return run, text


def test_a_playbook_of_a_reads_nothing_of_bs_directory(
    projects: Projects, markers_dir: Path
) -> None:
    b_secret = projects.b_dir / "site" / "secret.txt"
    assert B_SECRET in b_secret.read_text()  # it is there, readable outside the sandbox
    visible = markers_dir / "visible.txt"  # control: a file outside the hidden roots
    visible.write_text("visible-control-7d2e\n")
    (projects.a_dir / "site" / "reader.yml").write_text(READER)
    targets = [str(b_secret), str(projects.b_dir / "git" / "site.yml"), str(visible)]
    run, text = run_in_a(projects, "reader.yml", extra_vars={"targets": targets})
    assert run["status"] == "successful", text
    assert "visible-control-7d2e" in text  # the playbook does print what it can read
    assert B_SECRET not in text
    for target in targets[:2]:
        assert f"cat: {target}: No such file or directory" in text


REQUIREMENTS = "roles:\n  - name: greeter\n    src: git+file://{src}\n    version: v1.0\n"
WITH_ROLE = "- hosts: all\n  gather_facts: false\n  roles: [greeter]\n"


@pytest.mark.slow
def test_git_file_requirements_reach_its_own_directory_only(projects: Projects) -> None:
    theirs = make_role_repo(projects.b_dir / "role")
    assert (theirs / "tasks" / "main.yml").is_file()  # there, outside the sandbox
    make_role_repo(projects.a_dir / "role")
    site = projects.a_dir / "site"
    (site / "greet.yml").write_text(WITH_ROLE)
    (site / "requirements.yml").write_text(REQUIREMENTS.format(src=theirs))
    run, text = run_in_a(projects, "greet.yml")
    assert run["status"] == "error", text
    reason = run["status_reason"]
    assert f"roles[0] 'git+file://{theirs}' is not inside a local directory of this" in reason
    assert "greeter says hi" not in text
    assert "greeter says hi" not in text

    # control: the same requirement naming A's own directory installs, and the role runs
    (site / "requirements.yml").write_text(REQUIREMENTS.format(src=projects.a_dir / "role"))
    base = f"/api/v1/projects/{projects.a}"
    template_id = projects.manager.get(f"{base}/templates").json()["items"][0]["id"]
    run_id = post(projects.manager, f"{base}/runs", {"template_id": template_id})["id"]
    again = wait_for_run(projects.manager, f"{base}/runs/{run_id}", timeout=120)
    text = projects.manager.get(f"{base}/runs/{run_id}/output").text
    assert again["status"] == "successful", text
    assert "greeter says hi" in text


def test_ansible_galaxys_sandbox_shows_its_own_directories_only(
    projects: Projects, settings: Settings
) -> None:
    """Behind the check above: the sandbox ansible-galaxy runs in binds A's own directories
    (read-only) and nothing of B's, so a clone of B's repository finds nothing there."""
    sandbox = Sandbox.from_settings(settings)
    assert sandbox.enabled, sandbox.refusal
    own = local.roots_of(projects.project(projects.a), settings.repository_roots).usable
    assert own == (projects.a_dir.resolve(),)

    def ls_remote(directory: Path) -> subprocess.CompletedProcess[str]:
        argv = ["git", "ls-remote", f"file://{directory}"]
        return subprocess.run(
            sandbox.wrap(argv, read_only=own), capture_output=True, text=True, timeout=60
        )

    assert (
        subprocess.run(  # B's repository is there, readable outside the sandbox
            ["git", "ls-remote", f"file://{projects.b_dir / 'git'}"],
            capture_output=True,
            timeout=60,
        ).returncode
        == 0
    )
    theirs = ls_remote(projects.b_dir / "git")
    assert theirs.returncode != 0
    assert "refs/heads/main" not in theirs.stdout
    mine = ls_remote(projects.a_dir / "git")  # control: A's own, bound read-only
    assert mine.returncode == 0, mine.stderr
    assert "refs/heads/main" in mine.stdout
    written = subprocess.run(
        sandbox.wrap(["touch", str(projects.a_dir / "x")], read_only=own), capture_output=True
    )
    assert written.returncode != 0  # read-only
    assert not (projects.a_dir / "x").exists()
