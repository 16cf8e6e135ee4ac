"""The programs runs need: git (checkouts), the SSH client (runs over SSH), and ansible-core in
the range this Steward supports (declared once: the ``ansible-core`` requirement of its package,
``pyproject.toml``), with its ``ansible-playbook``; the venvs of STEWARD_ANSIBLE_VENVS too."""

from __future__ import annotations

import os
import shutil
import subprocess
from importlib import metadata

from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from steward import __version__
from steward.config import Settings
from steward.doctor.findings import Finding, fail, ok, warn
from steward.execution.ansible import venvs
from steward.execution.ansible.playbook import BIN_DIR

GIT = "git"
SSH = "ssh"
ANSIBLE = "ansible"

VERSION_TIMEOUT = 5.0  # seconds for `git --version`
SSH_PROGRAMS = ("ssh", "ssh-agent", "ssh-add")


def _path(path: str | None) -> str:
    return os.environ.get("PATH", os.defpath) if path is None else path


def git(_settings: Settings, *, path: str | None = None) -> Finding:
    """git on ``path`` (default: this process's PATH, where checkouts look for it), and its
    version."""
    path = _path(path)
    found = shutil.which("git", path=path)
    if found is None:
        return fail(
            GIT,
            f"not found on PATH ({path}): repositories cannot be checked out; apt-get install git",
        )
    try:
        done = subprocess.run(
            [found, "--version"],
            env={"PATH": path, "LC_ALL": "C"},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return fail(GIT, f"{found} does not run ({exc}); reinstall git")
    if done.returncode != 0:
        return fail(GIT, f"{found} --version exited with {done.returncode}; reinstall git")
    return ok(GIT, f"{done.stdout.strip()} ({found})")


def ssh(_settings: Settings, *, path: str | None = None) -> Finding:
    """The SSH client runs over SSH use (an agent of each run holds its key), and sshpass for
    SSH passwords: a warning when missing (runs on localhost need neither)."""
    path = _path(path)
    missing = [program for program in SSH_PROGRAMS if shutil.which(program, path=path) is None]
    if missing:
        return warn(
            SSH,
            f"{', '.join(missing)} not found on PATH: runs over SSH fail;"
            " apt-get install openssh-client",
        )
    if shutil.which("sshpass", path=path) is None:
        return warn(
            SSH,
            "sshpass not found on PATH: runs with an SSH password (not a key) fail;"
            " apt-get install sshpass",
        )
    return ok(SSH, f"{', '.join(SSH_PROGRAMS)} and sshpass found")


def supported_range() -> SpecifierSet | None:
    """The ansible-core versions this Steward supports, as its package declares them (None:
    not installed as a package, the range is unknown)."""
    try:
        requirements = metadata.requires("steward") or []
    except metadata.PackageNotFoundError:
        return None
    for line in requirements:
        requirement = Requirement(line)
        if requirement.name == "ansible-core" and requirement.marker is None:
            return requirement.specifier
    return None


def _installed() -> str | None:
    try:
        return metadata.version("ansible-core")
    except metadata.PackageNotFoundError:
        return None


def ansible_core(
    settings: Settings,
    *,
    installed: str | None = None,
    supported: SpecifierSet | None = None,
) -> Finding:
    """Steward's own ansible-core (``installed``, default: the one this interpreter imports)
    within ``supported`` (default: ``supported_range()``), its ``ansible-playbook`` executable;
    each venv of STEWARD_ANSIBLE_VENVS holding Ansible (FAIL) in that range (warn)."""
    installed = installed or _installed()
    supported = supported if supported is not None else supported_range()
    if installed is None:
        return fail(
            ANSIBLE, f"ansible-core is not installed beside Steward ({BIN_DIR}); reinstall Steward"
        )
    if (why := venvs.problem(BIN_DIR)) is not None:
        return fail(ANSIBLE, f"Steward's environment {BIN_DIR.parent}: {why}; reinstall Steward")
    if supported is not None and not supported.contains(installed, prereleases=True):
        return fail(
            ANSIBLE,
            f"ansible-core {installed} is outside the range Steward {__version__} supports"
            f" ({supported}); install ansible-core{supported} beside Steward (reinstall it)",
        )
    said = f"ansible-core {installed}"
    said += f" (supported: {supported})" if supported is not None else " (supported range unknown)"
    said += f", {BIN_DIR / 'ansible-playbook'}"
    for venv in settings.ansible_venvs:
        bin_dir = venv / "bin"
        if (why := venvs.problem(bin_dir)) is not None:
            return fail(
                ANSIBLE,
                f"{said}; the venv {venv} (STEWARD_ANSIBLE_VENVS): {why}; install"
                " ansible-core into it or remove it from the list",
            )
        version = venvs.ansible_version(bin_dir)
        if not version or (
            supported is not None and not supported.contains(version, prereleases=True)
        ):
            return warn(
                ANSIBLE,
                f"{said}; the venv {venv} has ansible-core {version or 'unknown'},"
                f" outside {supported}: runs of its templates may fail",
            )
        said += f"; venv {venv}: ansible-core {version}"
    return ok(ANSIBLE, said)
