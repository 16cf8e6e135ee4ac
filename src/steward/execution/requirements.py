"""The install phase of a run: the repository's roles and collections, before the playbook.

It is part of the run's record: its lines are the run's first output lines (masked like the
rest), its events are numbered before the playbook's, and a ``steward_requirements`` event
closes it with its start, end, duration, what was installed and whether it came from the cache
(the timeline shows it). When ansible-galaxy fails, the run ends ``error`` with its message.

Where Ansible finds what was installed: ``ANSIBLE_ROLES_PATH`` / ``ANSIBLE_COLLECTIONS_PATH``
list the repository's own first (what its ``ansible.cfg`` or the environment sets, else its
``roles/`` and ``collections/``), then the installed ones, then Ansible's defaults.
"""

from __future__ import annotations

import configparser
import dataclasses
import logging
import shutil
import time
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from steward.config import Settings
from steward.db import utcnow
from steward.execution.ansible import config as ansible_config
from steward.execution.ansible.playbook import RunnerSpec
from steward.execution.ansible.sandbox import Sandbox
from steward.execution.ansible.venvs import Venv, ansible_version
from steward.execution.recorder import REQUIREMENTS_EVENT
from steward.galaxy import cache as galaxy_cache
from steward.galaxy import install as galaxy
from steward.galaxy.requirements import (
    LocalDirectories,
    Requirements,
    RequirementsError,
    find,
)
from steward.galaxy.service import ServerAccess, refusal
from steward.masking import Masker
from steward.outbound import network
from steward.repositories import containment

log = logging.getLogger(__name__)

MIB = 1024 * 1024
TASK = "Install requirements"
REASON_MAX = 1000
# Ansible's own defaults, after the repository's and the installed paths
DEFAULTS = {
    "DEFAULT_ROLES_PATH": ("roles", "~/.ansible/roles:/usr/share/ansible/roles:/etc/ansible/roles"),
    "COLLECTIONS_PATHS": ("collections", "~/.ansible/collections:/usr/share/ansible/collections"),
}

Event = dict[str, Any]


@dataclasses.dataclass(frozen=True)
class RequirementsPlan:
    """What the phase needs besides the checkout, read at preparation (secrets decrypted)."""

    enabled: bool  # the template's switch
    project_id: int
    venv: Venv
    servers: tuple[ServerAccess, ...] = ()
    # the project's own local directories (real paths), bound read-only for ansible-galaxy so
    # that git+file:// requirements reach them; another project's stay hidden by the sandbox
    local_dirs: tuple[Path, ...] = ()
    local_roots: tuple[Path, ...] = ()  # the server's (STEWARD_LOCAL_REPOSITORY_ROOTS)


@dataclasses.dataclass
class Installed:
    """The outcome of the phase. ``events``: how many it recorded (the playbook's follow);
    ``failure``: why the run must end ``error``; ``stopped``: canceled or timed out meanwhile."""

    events: int = 0
    failure: str | None = None
    stopped: bool = False
    env: dict[str, str] = dataclasses.field(default_factory=dict)
    read_only: tuple[Path, ...] = ()  # cache entries bound read-only into the sandbox
    lease: galaxy_cache.Lease | None = None

    def release(self) -> None:
        if self.lease is not None:
            self.lease.release()

    def numbered(self, add: Callable[[Event], None]) -> Callable[[Event], None]:
        """``add`` for the playbook's events, numbered after the phase's."""
        if not self.events:
            return add
        offset = self.events
        return lambda event: add({**event, "counter": int(event.get("counter", 0)) + offset})


class _Output:
    """The phase's events, numbered 1, 2, …: a line each, then the closing event."""

    def __init__(self, add: Callable[[Event], None]) -> None:
        self._add = add
        self.count = 0
        self.started = utcnow()
        self._clock = time.monotonic()
        self.lines: list[str] = []

    def _event(self, kind: str, stdout: str, data: dict[str, Any] | None = None) -> None:
        self.count += 1
        event: Event = {
            "event": kind,
            "counter": self.count,
            "uuid": str(uuid.uuid4()),
            "stdout": stdout,
            "created": utcnow().isoformat(),
        }
        if data is not None:
            event["event_data"] = data
        self._add(event)

    def elapsed(self) -> float:
        return time.monotonic() - self._clock

    def line(self, text: str) -> None:
        self.lines.append(text)
        self._event("verbose", text)

    def done(self, summary: list[str], *, failed: bool, **data: Any) -> None:
        """Record the closing event, with the phase's start, end and duration."""
        body = {
            "task": TASK,
            "start": self.started.isoformat(),
            "end": utcnow().isoformat(),
            "duration": self.elapsed(),
            "failed": failed,
            **data,
        }
        self._event(REQUIREMENTS_EVENT, "\n".join(summary), body)


def install(
    plan: RequirementsPlan,
    spec: RunnerSpec,
    *,
    settings: Settings,
    sandbox: Sandbox,
    masker: Masker,
    add: Callable[[Event], None],
    stop: Callable[[], bool],
) -> Installed:
    """Install the requirements of ``spec``'s checkout (or take them from the cache), recording
    the phase through ``add``; nothing at all when there are none or the template turned it
    off. Never raises for what the repository or ansible-galaxy did wrong: see ``Installed``."""
    if not plan.enabled:
        return Installed()
    out = _Output(add)
    try:
        found = find(spec.project_dir, LocalDirectories(plan.local_roots, plan.local_dirs))
    except RequirementsError as exc:
        return _failed(out, masker, exc.message)
    if not found.files:
        return Installed()
    names = ", ".join(f.path for f in found.files)
    out.line(f"Installing requirements of {names}: {_count(found)}")
    store = galaxy_cache.Cache(
        settings.requirements_cache_dir, settings.requirements_cache_mb * MIB
    )
    lease = _lease(store, plan, found)
    try:
        guard = network.Guard.of(settings)
        return _install(plan, spec, found, out, store, lease, sandbox, masker, stop, guard)
    except BaseException:
        if lease is not None:
            lease.release()
        raise


def _lease(
    store: galaxy_cache.Cache, plan: RequirementsPlan, found: Requirements
) -> galaxy_cache.Lease | None:
    if not store.enabled or not found.cacheable:
        return None
    entry_key = galaxy_cache.key(
        files=[[f.path, f.digest] for f in found.files],
        servers=[s.identity() for s in plan.servers],
        venv=plan.venv.path,
        ansible_version=ansible_version(plan.venv.bin_dir),
    )
    return store.lease(plan.project_id, entry_key)


def _install(
    plan: RequirementsPlan,
    spec: RunnerSpec,
    found: Requirements,
    out: _Output,
    store: galaxy_cache.Cache,
    lease: galaxy_cache.Lease | None,
    sandbox: Sandbox,
    masker: Masker,
    stop: Callable[[], bool],
    guard: network.Guard,
) -> Installed:
    layout = galaxy.Layout(spec.private_data_dir)
    if lease is not None and lease.hit:
        tree, manifest, cache_state = lease.entry, lease.manifest(), "hit"
    else:
        layout.make()
        problem = _refused_server(plan, guard) or _run_galaxy(
            plan, spec, found, layout, sandbox, out, stop
        )
        if problem is _STOPPED:
            out.done(["Installing requirements: stopped"], failed=True, cache="none")
            return Installed(events=out.count, stopped=True, lease=lease)
        if problem is not None:
            return _failed(out, masker, str(problem), lease)
        try:
            containment.check_symlinks(layout.target)
        except containment.NotContained as exc:
            reason = f"what was installed holds a symlink leading outside it: {exc.links[0]}"
            return _failed(out, masker, reason, lease)
        manifest = {"files": [f.path for f in found.files], **galaxy.listing(layout.target)}
        if lease is not None:
            store.publish(lease, layout.target, manifest)
            _evict(store)
            tree, cache_state = lease.entry, "stored"
        else:
            tree, cache_state = layout.target, "off" if found.cacheable else "uncacheable"
    read_only: tuple[Path, ...] = ()
    if lease is not None and sandbox.enabled:
        read_only = (tree,)
    elif lease is not None:  # unsandboxed: a copy of its own, the entry stays as it is
        copy = spec.private_data_dir / "requirements-copy"
        shutil.copytree(tree, copy, symlinks=True)
        tree = copy
    env = search_paths(spec.env, spec.project_dir, tree, found)
    out.done(
        _summary(manifest, cache_state, out.elapsed()),
        failed=False,
        cache=cache_state,
        files=manifest.get("files", []),
        collections=manifest.get("collections", []),
        roles=manifest.get("roles", []),
    )
    return Installed(events=out.count, env=env, read_only=read_only, lease=lease)


def _evict(store: galaxy_cache.Cache) -> None:
    """Housekeeping after a new entry: a run must not fail because an old entry could not be
    removed (the next new entry tries again)."""
    try:
        store.evict()
    except OSError:
        log.warning("requirements cache: removing old entries failed", exc_info=True)


class _Stopped:
    """The install was ended by a cancel, a timeout or the server stopping."""


_STOPPED = _Stopped()


def _run_galaxy(
    plan: RequirementsPlan,
    spec: RunnerSpec,
    found: Requirements,
    layout: galaxy.Layout,
    sandbox: Sandbox,
    out: _Output,
    stop: Callable[[], bool],
) -> str | _Stopped | None:
    """Each ansible-galaxy command in turn, inside the sandbox; what went wrong, or None."""
    env = galaxy.environment(layout, plan.venv.bin_dir, plan.servers, spec.run_uuid)
    for command in galaxy.commands(plan.venv.ansible_galaxy, found, layout):
        out.line(f"ansible-galaxy {' '.join(command.argv[1:5])}")
        first = len(out.lines)
        argv = sandbox.wrap(
            command.argv, visible=[spec.private_data_dir], read_only=plan.local_dirs
        )
        code = galaxy.stream(argv, cwd=spec.project_dir, env=env, on_line=out.line, stop=stop)
        if code is None:
            return _STOPPED
        if code != 0:
            message = _galaxy_error(out.lines[first:])
            return f"ansible-galaxy failed to install the {command.title} (exit code {code})" + (
                f": {message}" if message else ""
            )
    return None


def _refused_server(plan: RequirementsPlan, guard: network.Guard) -> str | None:
    """Each Galaxy server of the project checked right before ansible-galaxy runs (settings
    and names may have changed since the save); why one may not be reached, or None.
    ansible-galaxy connects by itself: to the address the name has then."""
    for server in plan.servers:
        for field, url in (("url", server.url), ("auth_url", server.auth_url)):
            problem = refusal(url, guard, at_save=False) if url else None
            if problem is not None:
                return (
                    f"Galaxy server '{server.name}' ({field}) refused before ansible-galaxy ran:"
                    f" {problem}"
                )
    return None


def _galaxy_error(lines: list[str]) -> str:
    """ansible-galaxy's error message: from its first ``[ERROR]:`` (or ``ERROR!``) line on, or
    its last line."""
    for n, line in enumerate(lines):
        if line.startswith(("[ERROR]:", "ERROR!")):
            text = " ".join(part.strip() for part in lines[n : n + 6] if part.strip())
            return text[:REASON_MAX]
    tail = [line.strip() for line in lines if line.strip()]
    return tail[-1][:REASON_MAX] if tail else ""


def _failed(
    out: _Output, masker: Masker, problem: str, lease: galaxy_cache.Lease | None = None
) -> Installed:
    reason = masker.text(f"installing requirements failed: {problem}")
    out.done([reason], failed=True, cache="none", error=reason)
    if lease is not None:
        lease.release()
    return Installed(events=out.count, failure=reason)


def _count(found: Requirements) -> str:
    parts = []
    if found.roles:
        parts.append(f"{found.roles} role{'s' if found.roles > 1 else ''}")
    if found.collections:
        parts.append(f"{found.collections} collection{'s' if found.collections > 1 else ''}")
    return " and ".join(parts) or "nothing listed"


CACHE_STATES = {
    "hit": "from the cache (installed for an earlier run)",
    "stored": "installed (kept for the next runs)",
    "off": "installed (not kept: the cache is off)",
    "uncacheable": "installed (not kept: they name files of the repository)",
}


def _summary(manifest: Mapping[str, Any], cache_state: str, seconds: float) -> list[str]:
    lines = [f"Requirements {CACHE_STATES[cache_state]} in {seconds:.2f} s:"]
    for kind in ("collections", "roles"):
        for name, version in manifest.get(kind, []):
            lines.append(f"  {kind[:-1]} {name} {version}".rstrip())
    return lines


def search_paths(
    env: Mapping[str, str], checkout: Path, tree: Path, found: Requirements
) -> dict[str, str]:
    """``env`` with the roles and collections paths for the playbook: the repository's own,
    then what was installed under ``tree``, then Ansible's defaults."""
    result = dict(env)
    settings = {s.name: s for s in ansible_config.path_settings()}
    for name, count in (
        ("DEFAULT_ROLES_PATH", found.roles),
        ("COLLECTIONS_PATHS", found.collections),
    ):
        if not count:
            continue
        setting = settings[name]
        own_dir, defaults = DEFAULTS[name]
        own = _repository_paths(env, checkout, setting) or [str(checkout / own_dir)]
        for variable in setting.env:
            result.pop(variable, None)
        result[setting.env[0]] = ":".join([*own, str(tree / own_dir), defaults])
    return result


def _repository_paths(
    env: Mapping[str, str], checkout: Path, setting: ansible_config.PathSetting
) -> list[str]:
    """What the environment (first) or the repository's ansible.cfg sets, as absolute paths
    (relative ones start at the checkout, where Ansible runs and the file is; both were checked
    to stay inside it)."""
    for variable in setting.env:
        if env.get(variable):
            return _absolute(checkout, ansible_config.split(env[variable], setting.type))
    cfg = checkout / containment.ANSIBLE_CFG
    if not cfg.is_file():
        return []
    parser = configparser.ConfigParser(inline_comment_prefixes=(";",))
    try:
        parser.read_string(cfg.read_text(encoding="utf-8"))
    except (UnicodeError, configparser.Error):
        return []  # checked when the checkout was made: cannot happen
    for section, key in setting.ini:
        value = parser.get(section, key, raw=True, fallback=None)
        if value:
            return _absolute(checkout, ansible_config.split(value, setting.type))
    return []


def _absolute(checkout: Path, paths: list[str]) -> list[str]:
    return [str((checkout / p).resolve()) if p else "" for p in paths if p]
