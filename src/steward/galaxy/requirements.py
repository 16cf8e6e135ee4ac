"""The requirements files of a checkout: found, read and checked before ansible-galaxy sees them.

A repository declares roles and collections in ``requirements.yml`` at its root, or in
``roles/requirements.yml`` and ``collections/requirements.yml`` (``.yaml`` too), as AWX and
Semaphore read them. What an entry names may be a Galaxy name, a URL, a git repository or a
file: every path must stay inside the checkout (symlinks followed, both relative to the
checkout, where ansible-galaxy runs, and to the file), like everything else a run reads. Such
an entry makes the set uncacheable: what it installs depends on files the key does not cover.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

import yaml

from steward.errors import DomainError
from steward.execution.ansible import config as ansible_config
from steward.inventories.paths import inside

# in the order they are installed: a root file first, as Semaphore does
PLACES = ("", "roles/", "collections/")
NAMES = ("requirements.yml", "requirements.yaml")
MAX_FILE_BYTES = 1024 * 1024
MAX_ENTRIES = 1000
LOCAL_TYPES = frozenset({"file", "dir", "subdirs"})
# scp-like git addresses: user@host:path
_SCP = re.compile(r"^[\w.-]+@[\w.-]+:")


class RequirementsError(DomainError):
    """A requirements file that cannot be used; the message names the file and the entry."""


@dataclasses.dataclass(frozen=True)
class RequirementsFile:
    path: str  # relative to the checkout, e.g. "roles/requirements.yml"
    digest: str  # SHA-256 of its content
    roles: int  # entries of each kind
    collections: int
    local: bool  # an entry names a file of the repository


@dataclasses.dataclass(frozen=True)
class Requirements:
    files: tuple[RequirementsFile, ...]

    @property
    def cacheable(self) -> bool:
        return not any(f.local for f in self.files)

    @property
    def roles(self) -> int:
        return sum(f.roles for f in self.files)

    @property
    def collections(self) -> int:
        return sum(f.collections for f in self.files)


@dataclasses.dataclass(frozen=True)
class LocalDirectories:
    """For ``git+file://`` URLs: the server's local repository roots (``roots``) and, inside
    them, the directories of the run's own project (``own``, real paths). A URL inside the
    roots but outside ``own`` is another project's (or nobody's) and is refused."""

    roots: tuple[Path, ...] = ()
    own: tuple[Path, ...] = ()


def find(checkout: Path, local: LocalDirectories | None = None) -> Requirements:
    """The requirements files of ``checkout``, checked; raises ``RequirementsError``."""
    found = []
    for place in PLACES:
        for name in NAMES:
            relative = f"{place}{name}"
            path = inside(checkout, relative)
            if path is not None and path.is_file():
                found.append(_read(checkout, relative, path, local or LocalDirectories()))
                break  # requirements.yml wins over requirements.yaml in one directory
    return Requirements(tuple(found))


def _read(
    checkout: Path, relative: str, path: Path, directories: LocalDirectories
) -> RequirementsFile:
    content = path.read_bytes()[: MAX_FILE_BYTES + 1]
    if len(content) > MAX_FILE_BYTES:
        raise RequirementsError(f"{relative}: larger than {MAX_FILE_BYTES} bytes")
    try:
        data = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        raise RequirementsError(f"{relative} is not valid YAML: {_yaml_problem(exc)}") from exc
    roles, collections = _sections(relative, data)
    if len(roles) + len(collections) > MAX_ENTRIES:
        raise RequirementsError(f"{relative}: more than {MAX_ENTRIES} requirements")
    entries = _Entries(checkout, relative, directories)
    local = [entries.role(i, entry) for i, entry in enumerate(roles)]
    local += [entries.collection(i, entry) for i, entry in enumerate(collections)]
    return RequirementsFile(
        path=relative,
        digest=hashlib.sha256(content).hexdigest(),
        roles=len(roles),
        collections=len(collections),
        local=any(local),
    )


def _yaml_problem(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return f"{exc.problem} (line {mark.line + 1}, column {mark.column + 1})"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _sections(relative: str, data: Any) -> tuple[list[Any], list[Any]]:
    """(roles, collections) entries: a list is the old format (roles only)."""
    if data is None:
        return [], []
    if isinstance(data, list):
        return data, []
    if not isinstance(data, dict):
        raise RequirementsError(f"{relative}: must be a list of roles or a mapping")
    roles, collections = data.get("roles") or [], data.get("collections") or []
    for key, value in (("roles", roles), ("collections", collections)):
        if not isinstance(value, list):
            raise RequirementsError(f"{relative}: '{key}' must be a list")
    return roles, collections


@dataclasses.dataclass(frozen=True)
class _Entries:
    """Checks the entries of one file; each check returns whether the entry names a file of
    the repository."""

    checkout: Path
    relative: str
    local: LocalDirectories = LocalDirectories()

    def role(self, index: int, entry: Any) -> bool:
        where = f"roles[{index}]"
        if isinstance(entry, str):
            return self._source(where, entry.split(",", 1)[0].strip())
        if not isinstance(entry, dict):
            raise self._error(where, "must be a name, a URL or a mapping")
        if "include" in entry:
            raise self._error(where, "'include' is not supported: list the roles in this file")
        source = entry.get("src", entry.get("role", entry.get("name")))
        if not isinstance(source, str):
            raise self._error(where, "needs 'src' or 'name'")
        return self._source(where, source.split(",", 1)[0].strip())

    def collection(self, index: int, entry: Any) -> bool:
        where = f"collections[{index}]"
        if isinstance(entry, str):
            return self._source(where, entry)
        if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
            raise self._error(where, "must be a name or a mapping with 'name'")
        name, kind = entry["name"], entry.get("type")
        local = self._source(where, name, path=kind in LOCAL_TYPES)
        source = entry.get("source")
        if isinstance(source, str) and source.startswith("file:"):
            local |= self._source(f"{where}.source", source)
        signatures = entry.get("signatures") or []
        if not isinstance(signatures, list):
            raise self._error(f"{where}.signatures", "must be a list")
        for n, signature in enumerate(signatures):
            if isinstance(signature, str):
                local |= self._source(f"{where}.signatures[{n}]", signature)
        return local

    def _source(self, where: str, value: str, *, path: bool = False) -> bool:
        """Whether ``value`` names a file of the repository (refused outside it); URLs and
        Galaxy names are not files. ``git+file://`` is a git URL: it is cloned inside the
        sandbox, which hides Steward's data and repositories but the local directories of the
        run's own project (read-only), and refused here when it names another local directory
        of the server."""
        if value.startswith("git+file:"):
            self._git_file(where, value)
            return False
        if value.startswith("file://"):
            return self._path(where, value.removeprefix("file://"))
        if "://" in value or _SCP.match(value):
            return False
        if path or _looks_local(value) or (self.checkout / value).exists():
            return self._path(where, value)
        return False

    def _path(self, where: str, value: str) -> bool:
        if problem := ansible_config.unexpanded(value):
            raise self._error(where, f"'{value}': {problem}")
        if value.startswith("/"):
            raise self._error(where, f"'{value}' must be a path relative to the repository")
        parent = str(PurePosixPath(self.relative).parent)
        for base in dict.fromkeys([".", parent]):
            if inside(self.checkout, str(PurePosixPath(base) / value)) is None:
                raise self._error(where, f"'{value}' points outside the repository")
        return True

    def _git_file(self, where: str, value: str) -> None:
        path = urlsplit(value.removeprefix("git+")).path.split(",", 1)[0]
        try:
            real = Path(path).resolve()
        except (OSError, RuntimeError):
            raise self._error(where, f"'{value}' cannot be resolved (a symlink loop)") from None
        roots = [root.resolve() for root in self.local.roots]
        if any(real.is_relative_to(root) for root in roots) and not any(
            real.is_relative_to(own) for own in self.local.own
        ):
            raise self._error(
                where,
                f"'{value}' is not inside a local directory of this project (an admin assigns"
                " them in the project's settings)",
            )

    def _error(self, where: str, problem: str) -> RequirementsError:
        return RequirementsError(f"{self.relative}: {where} {problem}")


def _looks_local(value: str) -> bool:
    return value.startswith((".", "/", "~")) or "/" in value or value.endswith((".tar.gz", ".tgz"))
