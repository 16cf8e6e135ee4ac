"""A template's virtual environment: listed by the administrator, chosen per template, used for
the install and the playbook (a collection's plugin imports a library only that venv has)."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.builders import assert_problem

from requirements.servers import GalaxyServer
from requirements.site import Site
from steward.config import Settings

PROBE = """- hosts: all
  gather_facts: false
  tasks:
    - ansible.builtin.debug:
        msg: "python {{ ansible_playbook_python }}; probe {{ 'x' | testns.tools.venv_probe }}"
"""


def test_venvs_are_listed_and_only_listed_ones_may_be_chosen(
    site: Site, artifacts: dict[str, Path]
) -> None:
    listed = site.client.get("/api/v1/ansible-venvs")
    assert listed.status_code == 200, listed.text
    own, second = listed.json()
    assert own["path"] == ""
    assert own["problem"] is None
    assert own["ansible_version"].count(".") == 2
    assert second == {
        "path": str(artifacts["venv"]),
        "ansible_version": own["ansible_version"],  # it borrows this one's ansible-core
        "problem": None,
    }
    body = {
        "name": "elsewhere",
        "playbook": "site.yml",
        "repository_id": site.repository_id,
        "inventory_id": site.inventory_id,
        "ansible_venv": "/usr",
    }
    detail = assert_problem(site.client.post(site.url("templates"), json=body), 422, "ansible_venv")
    assert str(artifacts["venv"]) in detail  # names what is allowed
    template = site.template(ansible_venv=str(artifacts["venv"]))
    patched = site.client.patch(site.url(f"templates/{template}"), json={"ansible_venv": "/tmp"})
    assert_problem(patched, 422, "ansible_venv")
    read = site.client.get(site.url(f"templates/{template}")).json()
    assert read["ansible_venv"] == str(artifacts["venv"])
    assert read["install_requirements"] is True


@pytest.mark.slow
@pytest.mark.sqlite_only
def test_the_chosen_venv_runs_the_playbook_with_its_libraries(
    site: Site, galaxy: GalaxyServer, artifacts: dict[str, Path]
) -> None:
    url = galaxy.file_url(artifacts["collection"].name)
    site.write("requirements.yml", f"collections:\n  - name: {url}\n    type: url\n")
    site.write("probe.yml", PROBE)
    venv = artifacts["venv"]
    chosen = site.run(site.template("probe.yml", name="venv", ansible_venv=str(venv)))
    assert chosen["status"] == "successful", chosen
    text = site.text(chosen["id"])
    assert f"python {venv}/bin/python; probe the second venv" in text
    own = site.run(site.template("probe.yml", name="own"))
    assert own["status"] == "failed", own
    assert "No module named 'steward_venv_probe'" in site.text(own["id"])
    # each venv has its own cache entry: the venv is part of the key
    assert site.phase(own["id"])["data"]["cache"] == "stored"


@pytest.mark.sqlite_only
def test_a_venv_no_longer_listed_fails_the_run(site: Site, artifacts: dict[str, Path]) -> None:
    template = site.template("collection.yml", ansible_venv=str(artifacts["venv"]))
    runtime = site.client.app.state.runtime  # type: ignore[attr-defined]
    runtime.settings.ansible_venvs = []  # the administrator removed it (a restart, in life)
    run = site.run(template)
    assert run["status"] == "error", run
    assert run["status_reason"] == (
        f"the virtual environment '{artifacts['venv']}' is no longer allowed on this server"
        " (STEWARD_ANSIBLE_VENVS)"
    )


def test_the_setting_takes_absolute_directories(tmp_path: Path) -> None:
    parsed = Settings(data_dir=tmp_path, ansible_venvs="/opt/a:/opt/b/,/opt/a")  # type: ignore[arg-type]
    assert parsed.ansible_venvs == [Path("/opt/a"), Path("/opt/b")]
    assert Settings(data_dir=tmp_path).ansible_venvs == []
    with pytest.raises(ValueError, match="not an absolute directory"):
        Settings(data_dir=tmp_path, ansible_venvs="venvs/a")  # type: ignore[arg-type]
