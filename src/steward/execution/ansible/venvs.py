"""The Python virtual environments a run's Ansible may come from (AWX's custom venvs).

A collection's plugins may import Python libraries that the server's own venv does not have.
The administrator installs ansible-core and those libraries into a venv of their own and lists
it in ``STEWARD_ANSIBLE_VENVS``; a template picks one by its path (``""``: the server's own), and
its runs use that venv's ``ansible-galaxy`` and ``ansible-playbook``. Only listed venvs can be
chosen: a template writer never names an arbitrary program to run.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import subprocess
from collections.abc import Sequence
from importlib.metadata import version
from pathlib import Path
from typing import Any

from steward.config import Settings
from steward.errors import InvalidInput, InvalidState
from steward.execution.ansible.playbook import BIN_DIR

SERVER = ""  # the server's own venv
PROGRAMS = ("ansible-playbook", "ansible-galaxy")
_VERSION = "from ansible.release import __version__; print(__version__)"


@dataclasses.dataclass(frozen=True)
class Venv:
    path: str  # as listed in the settings; "" for the server's own
    bin_dir: Path

    @property
    def ansible_galaxy(self) -> Path:
        return self.bin_dir / "ansible-galaxy"


def allowed(settings: Settings) -> list[str]:
    return [str(venv) for venv in settings.ansible_venvs]


def check_choice(value: str, listed_venvs: Sequence[str], field: str = "ansible_venv") -> None:
    """A template's choice: the server's own (``""``) or one of ``listed_venvs`` (422)."""
    if value == SERVER or value in listed_venvs:
        return
    listed = ", ".join(listed_venvs) or "none"
    raise InvalidInput(
        field,
        f"'{value}' is not a virtual environment this server allows"
        f' (STEWARD_ANSIBLE_VENVS: {listed}); "" runs with the server\'s own',
    )


def problem(bin_dir: Path) -> str | None:
    """Why the venv with ``bin_dir`` cannot run Ansible, or None."""
    for program in PROGRAMS:
        if not os.access(bin_dir / program, os.X_OK):
            return f"it has no executable bin/{program}"
    return None


def resolve(settings: Settings, value: str) -> Venv:
    """The venv a run uses; ``InvalidState`` (the run fails with the reason) when it is no
    longer allowed or no longer holds Ansible."""
    if value == SERVER:
        return Venv(SERVER, BIN_DIR)
    if value not in allowed(settings):
        raise InvalidState(
            f"the virtual environment '{value}' is no longer allowed on this server"
            " (STEWARD_ANSIBLE_VENVS)"
        )
    venv = Venv(value, Path(value) / "bin")
    if (why := problem(venv.bin_dir)) is not None:
        raise InvalidState(f"the virtual environment '{value}' cannot run Ansible: {why}")
    return venv


def describe(path: str) -> dict[str, Any]:
    """A venv as ``GET /ansible-venvs`` lists it: its path, ansible-core version, problem."""
    bin_dir = BIN_DIR if path == SERVER else Path(path) / "bin"
    why = problem(bin_dir)
    return {
        "path": path,
        "ansible_version": "" if why else ansible_version(bin_dir),
        "problem": why,
    }


def ansible_version(bin_dir: Path) -> str:
    """The ansible-core version of the venv (part of the requirements cache key); "" when it
    cannot be told. Asked once per installation of its ``ansible-galaxy``."""
    script = bin_dir / "ansible-galaxy"
    try:
        stamp = script.stat().st_mtime_ns
    except OSError:
        return ""
    return _version(bin_dir, stamp)


@functools.cache
def _version(bin_dir: Path, _stamp: int) -> str:
    if bin_dir == BIN_DIR:
        return version("ansible-core")
    try:
        done = subprocess.run(
            [str(bin_dir / "python"), "-c", _VERSION],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""
