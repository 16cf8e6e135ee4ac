"""Which Ansible settings are paths, read from ansible-core's own definitions (``base.yml``).

A repository's ``ansible.cfg`` and an environment's ``ANSIBLE_*`` variables can point Ansible at
files on the server (``vault_password_file``, ``callback_plugins``, ``roles_path``…). Rather than
keep a hand-written list that would miss settings added by the next ansible-core, the settings
whose type is a path are taken from the installed ansible-core's ``config/base.yml``, with the
``ini`` section/key and ``env`` names that set them. Plugin options (``[ssh_connection]``…) are
described by each plugin, not here, and are not covered.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import posixpath
from pathlib import Path
from typing import Any

import yaml

# ansible-core's path-like types (config/manager.py ``ensure_type``)
PATH_TYPES = frozenset({"path", "pathspec", "pathlist", "tmppath", "temppath", "tmp"})


@dataclasses.dataclass(frozen=True)
class PathSetting:
    name: str  # ansible-core's name, e.g. DEFAULT_ROLES_PATH
    type: str  # one of PATH_TYPES
    ini: tuple[tuple[str, str], ...]  # (section, key) pairs, e.g. ("defaults", "roles_path")
    env: tuple[str, ...]  # e.g. ("ANSIBLE_ROLES_PATH",)


def _base_yml() -> Path:
    """``ansible/config/base.yml`` of the installed ansible-core, found without importing it."""
    spec = importlib.util.find_spec("ansible")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("ansible-core is not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "config" / "base.yml"


def _setting(name: str, definition: dict[str, Any]) -> PathSetting:
    ini = tuple((str(e["section"]), str(e["key"])) for e in definition.get("ini") or [])
    env = tuple(str(e["name"]) for e in definition.get("env") or [])
    return PathSetting(name=name, type=str(definition["type"]).lower(), ini=ini, env=env)


@functools.cache
def path_settings() -> tuple[PathSetting, ...]:
    """Every ansible-core setting whose value is a path or a list of paths."""
    definitions: dict[str, Any] = yaml.safe_load(_base_yml().read_text(encoding="utf-8"))
    return tuple(
        _setting(name, definition)
        for name, definition in definitions.items()
        if isinstance(definition, dict) and str(definition.get("type", "")).lower() in PATH_TYPES
    )


@functools.cache
def ini_path_keys() -> dict[tuple[str, str], PathSetting]:
    """(section, key) of ``ansible.cfg`` -> the path setting it sets."""
    return {entry: s for s in path_settings() for entry in s.ini}


@functools.cache
def env_path_vars() -> dict[str, PathSetting]:
    """Environment variable name -> the path setting it sets."""
    return {name: s for s in path_settings() for name in s.env}


def split(value: str, setting_type: str) -> list[str]:
    """The paths in a value, split as ansible-core splits it: ``:`` for a pathspec, ``,`` for a
    pathlist, a single path otherwise."""
    if setting_type == "pathspec":
        return value.split(":")
    if setting_type == "pathlist":
        return [part.strip() for part in value.split(",")]
    return [value]


def unexpanded(path: str) -> str | None:
    """Why ``path`` cannot be checked before Ansible expands it, or None.

    Ansible expands ``$VAR``, a leading ``~`` and ``{{CWD}}`` (templates in general) in paths:
    what they name is only known on the machine, at run time, so they are refused outright.
    """
    if "$" in path:
        return "environment variables ($…) are not allowed in a path"
    if path.startswith("~"):
        return "'~' (a home directory) is not allowed in a path"
    if "{{" in path or "{%" in path:
        return "templates ({{…}}) are not allowed in a path"
    return None


def escapes(path: str) -> str | None:
    """Why the relative ``path`` leaves the directory it is relative to, by its text alone
    (no file system: used where there is no checkout yet), or None when it stays inside."""
    if problem := unexpanded(path):
        return problem
    if path.startswith("/"):
        return "must be a relative path inside the repository, not an absolute one"
    normalized = posixpath.normpath(path) if path else "."
    if normalized == ".." or normalized.startswith("../"):
        return "must stay inside the repository ('..' leaves it)"
    return None
