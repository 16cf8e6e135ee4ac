"""Resolve an inventory source into hosts and groups by asking Ansible itself.

This is the only module that runs ``ansible-inventory``. It runs as a child process with a small
environment of its own (no variable of the server leaks into an inventory script), a private
Ansible home, and ``ANSIBLE_INVENTORY_UNPARSED_FAILED`` so that a broken file fails loudly
instead of falling through to another plugin.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import json
import os
import signal
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from steward.errors import InvalidInput
from steward.execution.ansible.sandbox import Sandbox
from steward.inventories.models import Inventory, InventoryFormat, InventoryKind
from steward.inventories.redaction import mask_vars

STATIC_FILE_PLUGINS = ("yaml", "ini", "toml")
PLUGIN_SOURCE_PLUGINS = ("auto", "script")
EXTENSIONS = {InventoryFormat.INI: ".ini", InventoryFormat.YAML: ".yml"}
TIMEOUT_SECONDS = 60.0
MAX_MESSAGE = 1000


class InventoryUnparsable(InvalidInput):
    """Ansible could not parse the source; the message is Ansible's own, without local paths."""

    def __init__(self, message: str) -> None:
        super().__init__("inventory", message)


@dataclasses.dataclass(frozen=True)
class Host:
    name: str
    groups: list[str]
    vars: dict[str, Any]  # the host's own variables, secrets masked


@dataclasses.dataclass(frozen=True)
class Group:
    name: str
    hosts: list[str]  # direct members only
    children: list[str]
    vars: dict[str, Any]  # the group's own variables, secrets masked


@dataclasses.dataclass(frozen=True)
class ResolvedInventory:
    hosts: list[Host]
    groups: list[Group]


def static_format(inventory: Inventory) -> InventoryFormat:
    if inventory.kind != InventoryKind.STATIC or inventory.format is None:
        raise ValueError(f"inventory {inventory.id} is not a static inventory with a format")
    return InventoryFormat(inventory.format)


def plugins_for(inventory: Inventory) -> tuple[str, ...]:
    """The inventory plugins to enable (``ANSIBLE_INVENTORY_ENABLED``) for this source."""
    if inventory.kind == InventoryKind.STATIC:
        return (static_format(inventory).value,)
    if inventory.kind == InventoryKind.FILE:
        return STATIC_FILE_PLUGINS
    return PLUGIN_SOURCE_PLUGINS


def write_content(fmt: InventoryFormat, content: str, dest_dir: Path) -> Path:
    """Write inventory text to a new file (mode 0600) in ``dest_dir``; its absolute path.

    ``dest_dir`` is created (0700) if missing; an existing file is never overwritten.
    """
    dest_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    path = dest_dir.resolve() / f"hosts{EXTENSIONS[fmt]}"
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
    with os.fdopen(os.open(path, flags, 0o600), "w", encoding="utf-8") as out:
        out.write(content)
    return path


def write_static(inv: Inventory, dest_dir: Path) -> Path:
    """Write a static inventory's text with the extension of its format; its absolute path."""
    return write_content(static_format(inv), inv.content, dest_dir)


def resolve(
    path: Path,
    *,
    cwd: Path | None = None,
    plugins: Sequence[str] = STATIC_FILE_PLUGINS + PLUGIN_SOURCE_PLUGINS,
    timeout: float = TIMEOUT_SECONDS,
    sandbox: Sandbox | None = None,
    limit: str = "",
) -> ResolvedInventory:
    """Hosts and groups of the inventory source at ``path`` (relative paths are under ``cwd``);
    with ``limit`` (a host pattern checked by ``templates.patterns``), only the hosts it selects.

    A repository's inventory may be a script or a plugin: code from the repository, run inside
    ``sandbox`` like a playbook. Raises ``InventoryUnparsable`` with Ansible's message when the
    source is broken.
    """
    workdir = (cwd or path.parent).resolve()
    source = workdir / path
    with tempfile.TemporaryDirectory(prefix="steward-inventory-") as home:
        argv = [str(Path(sys.executable).parent / "ansible-inventory")]
        argv += ["-i", str(source), "--list", "--export"]
        if limit:
            argv.append(f"--limit={limit}")
        if sandbox is not None:
            argv = sandbox.wrap(argv, visible=[workdir, Path(home)])
        stdout, stderr, rc = _run_ansible_inventory(argv, workdir, Path(home), plugins, timeout)
        if rc != 0:
            shown = {str(source): _shown(source, workdir), str(workdir): ".", home: "~"}
            raise InventoryUnparsable(_message(stderr, rc, shown))
    return _parse(json.loads(stdout))


def as_run_reads(
    inventory: Inventory, path: Path, cwd: Path, sandbox: Sandbox | None
) -> ResolvedInventory:
    """The hosts and their variables as a run's ansible-playbook reads them: a static
    inventory's text, or its source at ``path`` in the run's checkout ``cwd``, in ``sandbox``."""
    if inventory.kind == InventoryKind.STATIC and inventory.format is not None:
        return parse_content(InventoryFormat(inventory.format), inventory.content)
    return resolve(path, cwd=cwd, plugins=plugins_for(inventory), sandbox=sandbox)


def parse_content(fmt: InventoryFormat, content: str) -> ResolvedInventory:
    """Resolve inventory text that is not saved anywhere (validation at save time, preview).

    Static text resolves the same way every time, so results are remembered: the console's
    "preview, then save" costs one ansible-inventory start (about a second), not two.
    """
    return copy.deepcopy(_parse_content(fmt, content))


@functools.lru_cache(maxsize=128)
def _parse_content(fmt: InventoryFormat, content: str) -> ResolvedInventory:
    with tempfile.TemporaryDirectory(prefix="steward-static-") as tmp:
        path = write_content(fmt, content, Path(tmp))
        return resolve(path, cwd=path.parent, plugins=(fmt.value,))


def _environment(home: Path, plugins: Sequence[str]) -> dict[str, str]:
    return {
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.defpath}",
        "HOME": str(home),
        "LC_ALL": "C.UTF-8",
        "ANSIBLE_HOME": str(home / ".ansible"),
        "ANSIBLE_LOCAL_TEMP": str(home / "tmp"),
        "ANSIBLE_INVENTORY_ENABLED": ",".join(plugins),
        "ANSIBLE_INVENTORY_UNPARSED_FAILED": "True",
        "ANSIBLE_NOCOLOR": "True",
        "ANSIBLE_DEPRECATION_WARNINGS": "False",
        "ANSIBLE_RETRY_FILES_ENABLED": "False",
    }


def _run_ansible_inventory(
    argv: list[str], cwd: Path, home: Path, plugins: Sequence[str], timeout: float
) -> tuple[str, str, int]:
    # a session of its own, so that a hanging inventory script is killed with its children
    with subprocess.Popen(
        argv,
        cwd=cwd,
        env=_environment(home, plugins),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as child:
        try:
            stdout, stderr = child.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            raise InventoryUnparsable(
                f"ansible-inventory did not finish within {timeout:g} seconds"
            ) from None
    return stdout, stderr, child.returncode


def _shown(source: Path, workdir: Path) -> str:
    return str(source.relative_to(workdir)) if source.is_relative_to(workdir) else source.name


def _message(stderr: str, rc: int, shown: dict[str, str]) -> str:
    """Ansible's own complaint, trimmed, with local paths replaced by what the user knows."""
    text = stderr
    for local, public in shown.items():  # in order: the file before the directory holding it
        text = text.replace(local, public)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    failures = [
        line.removeprefix("[WARNING]: ")
        for line in lines
        if line.startswith("[WARNING]: Failed to parse")
    ]
    chosen = failures or [line for line in lines if line.startswith("[ERROR]")] or lines[-3:]
    message = "; ".join(chosen) or f"ansible-inventory failed with exit code {rc}"
    return message[:MAX_MESSAGE]


def _parse(listing: dict[str, Any]) -> ResolvedInventory:
    hostvars: dict[str, dict[str, Any]] = listing.pop("_meta", {}).get("hostvars", {})
    groups = [
        Group(
            name=name,
            hosts=list(body.get("hosts", [])),
            children=list(body.get("children", [])),
            vars=mask_vars(body.get("vars", {})),
        )
        for name, body in sorted(listing.items())
    ]
    membership: dict[str, list[str]] = {name: [] for name in hostvars}
    for group in groups:
        for host in group.hosts:
            membership.setdefault(host, []).append(group.name)
    hosts = [
        Host(name=name, groups=member_of, vars=mask_vars(hostvars.get(name, {})))
        for name, member_of in sorted(membership.items())
    ]
    return ResolvedInventory(hosts=hosts, groups=groups)
