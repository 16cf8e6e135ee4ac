"""Runs whose repository declares requirements: installed before the playbook, from real
sources on this machine, recorded as a phase of the run, cached for the next runs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from sqlalchemy import select
from support.builders import post
from support.waits import wait_until

from requirements.servers import GalaxyServer
from requirements.site import Site, cache_entries
from steward.config import Settings
from steward.execution.ansible import processes
from steward.execution.ansible.sandbox import Sandbox
from steward.runs.models import Run

pytestmark = pytest.mark.sqlite_only  # Ansible and the file system; the database is incidental


def requirements_yml(galaxy: GalaxyServer, role_repo: Path, tarball: str) -> str:
    return (
        "collections:\n"
        f"  - name: {galaxy.file_url(tarball)}\n"
        "    type: url\n"
        "roles:\n"
        "  - name: greeter\n"
        f"    src: git+file://{role_repo}\n"
        "    version: v1.0\n"
    )


@pytest.mark.slow
def test_url_collection_and_git_role_are_installed_then_taken_from_the_cache(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path], settings: Settings
) -> None:
    site.write(
        "requirements.yml",
        requirements_yml(galaxy, artifacts["role"], artifacts["collection"].name),
    )
    template = site.template()
    first = site.run(template)
    assert first["status"] == "successful", first
    text = site.text(first["id"])
    assert "hello steward from testns.tools" in text
    assert "greeter says hi" in text
    assert "testns.tools:1.0.0 was installed successfully" in text
    phase = site.phase(first["id"])
    assert phase["data"]["cache"] == "stored"
    assert phase["data"]["collections"] == [["testns.tools", "1.0.0"]]
    assert phase["data"]["roles"] == [["greeter", "v1.0"]]
    assert galaxy.paths().count("/files/testns-tools-1.0.0.tar.gz") >= 1
    assert len(cache_entries(settings)) == 1

    requests_before = len(galaxy.paths())
    second = site.run(template)
    assert second["status"] == "successful", second
    again = site.phase(second["id"])
    assert again["data"]["cache"] == "hit"
    assert len(galaxy.paths()) == requests_before  # nothing fetched
    assert phase["duration"] > 0.5  # ansible-galaxy ran: about 3 s here
    assert again["duration"] < 1.0  # measured 0.003-0.006 s; generous against a loaded machine
    assert "from the cache" in site.text(second["id"])
    assert "hello steward from testns.tools" in site.text(second["id"])


def test_galaxy_server_of_the_project_with_its_token(
    site: Site, artifacts: dict[str, Path], settings: Settings
) -> None:
    token = "galaxy-token-7f3a9c"
    with GalaxyServer([artifacts["collection"]], token=token).running() as hub:
        key = post(site.client, site.url("keys"), {"name": "hub", "kind": "secret", "value": token})
        site.server(url=hub.url, key_id=key["id"])
        site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
        run = site.run(site.template("collection.yml"))
        assert run["status"] == "successful", run
        assert "hello steward" not in site.text(run["id"])  # the module ran: nothing printed
        assert site.phase(run["id"])["data"]["collections"] == [["testns.tools", "1.0.0"]]
        download = f"/download/{artifacts['collection'].name}"
        assert (download, f"Token {token}") in hub.requests
        assert {auth for _, auth in hub.requests} == {f"Token {token}"}
    assert len(cache_entries(settings)) == 1


def test_a_refused_token_ends_the_run_with_ansible_galaxys_message(
    site: Site, artifacts: dict[str, Path]
) -> None:
    with GalaxyServer([artifacts["collection"]], token="right").running() as hub:
        key = post(
            site.client, site.url("keys"), {"name": "hub", "kind": "secret", "value": "wrong"}
        )
        site.server(url=hub.url, key_id=key["id"])
        site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
        run = site.run(site.template("collection.yml"))
    assert run["status"] == "error", run
    reason = run["status_reason"]
    assert reason.startswith("installing requirements failed: ansible-galaxy failed to install")
    assert "HTTP Code: 401" in reason, reason
    phase = site.phase(run["id"])
    assert phase["failed"] is True
    assert site.timeline(run["id"]) == [
        {**site.timeline(run["id"])[0], "kind": "requirements", "status": "failed"}
    ]
    assert "PLAY [" not in site.text(run["id"])  # the playbook never started


def test_a_missing_collection_fails_the_run_with_the_reason(
    site: Site, galaxy: GalaxyServer
) -> None:
    site.server(url=galaxy.url)
    site.write("requirements.yml", "collections:\n  - name: testns.missing\n")
    run = site.run(site.template("collection.yml"))
    assert run["status"] == "error", run
    assert "Failed to resolve the requested dependencies map" in run["status_reason"]
    assert "testns.missing" in run["status_reason"]
    failed = site.events(run["id"], failed=True)
    assert [e["event"] for e in failed] == ["steward_requirements"]


def test_a_broken_requirements_file_fails_the_run_with_the_reason(site: Site) -> None:
    site.write("roles/requirements.yml", "- name: greeter\n  src: [unclosed\n")
    run = site.run(site.template("collection.yml"))
    assert run["status"] == "error", run
    assert run["status_reason"].startswith(
        "installing requirements failed: roles/requirements.yml is not valid YAML:"
    ), run["status_reason"]
    assert "line 3" in run["status_reason"]
    assert run["status_reason"] in site.text(run["id"])


@pytest.mark.slow
def test_two_runs_installing_the_same_requirements_at_once(
    site: Site, artifacts: dict[str, Path], settings: Settings
) -> None:
    """Both install (each its own copy, in its own sandbox), both succeed; the cache keeps one
    entry, which later runs use."""
    with GalaxyServer([artifacts["collection"]], delay=1.5).running() as hub:
        site.server(url=hub.url)
        site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
        template = site.template("collection.yml")
        runs = [site.launch(template), site.launch(template)]
        finished = [site.wait(run_id) for run_id in runs]
        assert [r["status"] for r in finished] == ["successful", "successful"], finished
        download = f"/download/{artifacts['collection'].name}"
        assert hub.paths().count(download) == 2  # both were installing: neither found an entry
        assert {site.phase(r)["data"]["cache"] for r in runs} == {"stored"}
        assert len(cache_entries(settings)) == 1
        third = site.run(template)
        assert third["status"] == "successful"
        assert site.phase(third["id"])["data"]["cache"] == "hit"
        assert hub.paths().count(download) == 2


def test_the_template_switch_turns_installation_off(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path], settings: Settings
) -> None:
    site.write(
        "requirements.yml",
        requirements_yml(galaxy, artifacts["role"], artifacts["collection"].name),
    )
    template = site.template("collection.yml", install_requirements=False)
    run = site.run(template)
    assert run["status"] == "failed", run
    assert site.events(run["id"], event="steward_requirements") == []
    assert "couldn't resolve module/action 'testns.tools.hello'" in site.text(run["id"])
    assert galaxy.paths() == []
    assert cache_entries(settings) == []


@pytest.mark.slow
def test_a_changed_requirements_file_is_installed_again(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path], settings: Settings
) -> None:
    url = galaxy.file_url(artifacts["collection"].name)
    site.write("requirements.yml", f"collections:\n  - name: {url}\n    type: url\n")
    template = site.template("collection.yml")
    assert site.run(template)["status"] == "successful"
    site.write("requirements.yml", f"collections:\n  - {{name: '{url}', type: url}}\n")
    run = site.run(template)
    assert run["status"] == "successful"
    assert site.phase(run["id"])["data"]["cache"] == "stored"
    assert len(cache_entries(settings)) == 2


@pytest.mark.slow
def test_repository_paths_come_before_the_installed_ones(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path]
) -> None:
    """A role of the repository's own ``roles/`` wins over the installed role of that name."""
    site.write(
        "requirements.yml",
        requirements_yml(galaxy, artifacts["role"], artifacts["collection"].name),
    )
    site.write(
        "roles/greeter/tasks/main.yml", "- ansible.builtin.debug:\n    msg: the repo's own\n"
    )
    site.write("playbooks/site.yml", (site.repo / "site.yml").read_text())
    run = site.run(site.template("playbooks/site.yml", name="nested"))
    assert run["status"] == "successful", run
    text = site.text(run["id"])
    assert "the repo's own" in text
    assert "greeter says hi" not in text


@pytest.mark.slow
def test_unsandboxed_runs_get_a_copy_of_the_cache_entry(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path], settings: Settings
) -> None:
    """Without bubblewrap (STEWARD_SANDBOX=off) nothing can be bound read-only: the run gets a
    copy in its private directory, so what it changes is gone with it."""
    site.client.app.state.runtime.sandbox = Sandbox(enabled=False)  # type: ignore[attr-defined]
    url = galaxy.file_url(artifacts["collection"].name)
    site.write("requirements.yml", f"collections:\n  - name: {url}\n    type: url\n")
    site.write("where.yml", WHERE)
    template = site.template("where.yml")
    runs = [site.run(template), site.run(template)]
    assert [r["status"] for r in runs] == ["successful", "successful"], runs
    assert [site.phase(r["id"])["data"]["cache"] for r in runs] == ["stored", "hit"]
    for run in runs:
        private = settings.runs_dir / f"run-{run['id']}" / "requirements-copy" / "collections"
        assert f"collections path {private}" in site.text(run["id"])


WHERE = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "collections path {{ lookup('env', 'ANSIBLE_COLLECTIONS_PATH').split(':')[1] }}"
    - testns.tools.hello:
"""


@pytest.mark.slow
def test_a_cancel_during_the_install_ends_the_run_and_its_processes(
    site: Site, artifacts: dict[str, Path], settings: Settings
) -> None:
    with GalaxyServer([artifacts["collection"]], delay=60).running() as hub:
        site.server(url=hub.url)
        site.write("collections/requirements.yml", "collections:\n  - name: testns.tools\n")
        run_id = site.launch(site.template("collection.yml"))
        download = f"/download/{artifacts['collection'].name}"
        wait_until(lambda: download in hub.paths(), timeout=60, what="the download started")
        asked = time.monotonic()
        canceled = site.client.post(site.url(f"runs/{run_id}/cancel"))
        assert canceled.status_code == 202, canceled.text
        run = site.wait(run_id)
        took = time.monotonic() - asked
    assert run["status"] == "canceled", run
    assert took < 10  # ansible-galaxy is killed at once, not after its download
    uuid = _uuid(site, run_id)
    assert processes.run_processes(uuid) == []
    assert site.phase(run_id)["failed"] is True
    assert cache_entries(settings) == []


def _uuid(site: Site, run_id: int) -> str:
    runtime = site.client.app.state.runtime  # type: ignore[attr-defined]
    with runtime.sessions() as session:
        value: str = session.scalar(select(Run.uuid).where(Run.id == run_id))
    return value
