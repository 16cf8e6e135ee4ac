"""git, the SSH client and ansible-core: found and in range, or a FAIL naming the fix."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from steward.config import Settings
from steward.doctor import tools
from steward.doctor.findings import Level

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_git_is_found_with_its_version_and_missing_without(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    found = tools.git(settings)
    assert found.level is Level.OK, found.line()
    assert found.detail.startswith("git version ")

    (tmp_path / "bin").mkdir()  # a PATH that has programs, but no git
    os.symlink("/bin/sh", tmp_path / "bin" / "sh")
    missing = tools.git(settings, path=str(tmp_path / "bin"))
    assert missing.level is Level.FAIL
    assert missing.line().startswith("FAIL git: not found on PATH")
    assert "apt-get install git" in missing.detail


def test_ssh_programs_are_found_or_named(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    assert tools.ssh(settings).level is Level.OK, tools.ssh(settings).line()
    missing = tools.ssh(settings, path=str(tmp_path))
    assert missing.level is Level.WARN
    assert "ssh, ssh-agent, ssh-add not found" in missing.detail


def test_the_supported_range_is_the_one_the_package_declares() -> None:
    declared = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    (pin,) = [Requirement(d) for d in declared if Requirement(d).name == "ansible-core"]
    assert tools.supported_range() == pin.specifier


def test_ansible_core_in_range_is_ok_outside_it_fails(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path)
    found = tools.ansible_core(settings)
    assert found.level is Level.OK, found.line()
    assert "ansible-playbook" in found.detail

    old = tools.ansible_core(settings, installed="2.17.0", supported=SpecifierSet("==2.21.*"))
    assert old.level is Level.FAIL
    assert "ansible-core 2.17.0 is outside the range" in old.detail

    empty = tmp_path / "venv"
    (empty / "bin").mkdir(parents=True)
    with_venv = Settings(data_dir=tmp_path, ansible_venvs=[empty])
    broken = tools.ansible_core(with_venv)
    assert broken.level is Level.FAIL, broken.line()
    assert f"the venv {empty}" in broken.detail
    assert "bin/ansible-playbook" in broken.detail
