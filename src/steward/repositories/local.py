"""Where a repository may read the server's disk: a ``local`` repository's directory, or the
directory of a git ``file://`` URL, must be inside one of its project's own local directories.

An admin assigns those to a project (``Project.local_roots``, ``PUT /projects/{id}/local-roots``);
each must be strictly inside one of the instance's roots (``Settings.repository_roots``,
``STEWARD_LOCAL_REPOSITORY_ROOTS``), which are the shared space no project may use as a whole. A
project without any cannot use local directories at all: a manager of one project can never
point a repository at another project's directory. Checked when a repository is saved and again
before every use (a checkout for a run, a playbook listing, an inventory's hosts), since the
settings, the assignment and the symlinks on the way can change after it was saved.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.errors import DomainError
from steward.projects.models import Project
from steward.repositories import git
from steward.repositories.models import Repository, RepositoryKind

log = logging.getLogger(__name__)

SETTING = "STEWARD_LOCAL_REPOSITORY_ROOTS"
WHO_ASSIGNS = (
    "an admin assigns them in the project's settings (Local directories;"
    " PUT /api/v1/projects/{project_id}/local-roots)"
)


class LocalDirectoryRefused(DomainError):
    """The directory is not one a local repository may use; ``message`` says why."""


def _real(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None


def _listed(paths: Iterable[Path | str]) -> str:
    return ", ".join(str(p) for p in paths)


def check_root(value: str, instance_roots: Sequence[Path]) -> Path:
    """The real directory of ``value``, a local directory an admin assigns to a project: an
    absolute path without ``..``, strictly inside one of ``instance_roots`` once symlinks are
    followed (a root itself is shared by every project), an existing directory."""
    if not instance_roots:
        raise LocalDirectoryRefused(f"no local repository roots are configured ({SETTING})")
    where = f"allowed: a directory strictly inside {_listed(instance_roots)} ({SETTING})"
    path = Path(value)
    if not path.is_absolute():
        raise LocalDirectoryRefused(f"{value} is not an absolute path; {where}")
    if ".." in path.parts:
        raise LocalDirectoryRefused(f"{value}: give the path without '..'; {where}")
    real = _real(path)
    inside = real is not None and any(
        (root_real := _real(root)) is not None
        and real != root_real
        and real.is_relative_to(root_real)
        for root in instance_roots
    )
    if real is None or not inside:
        shown = value if real is None or str(real) == value else f"{value} (resolves to {real})"
        raise LocalDirectoryRefused(
            f"{shown} is not strictly inside a local repository root; {where}"
        )
    if not real.is_dir():
        raise LocalDirectoryRefused(f"directory {value} does not exist on the server")
    return real


@dataclasses.dataclass(frozen=True)
class ProjectRoots:
    """A project's local directories as they stand now: ``usable`` (real paths) and the
    assigned ones that no longer fit, each with why."""

    project: str
    project_id: int
    usable: tuple[Path, ...]
    unusable: tuple[tuple[str, str], ...] = ()

    def describe(self) -> str:
        """Where the project's repositories may be, for a refusal."""
        if self.usable:
            text = f"allowed: a directory inside {_listed(self.usable)}"
        else:
            who = WHO_ASSIGNS.format(project_id=self.project_id)
            text = f"project '{self.project}' has no local directories assigned; {who}"
        if self.unusable:
            text += "; assigned but unusable: " + "; ".join(
                f"{path}: {why}" for path, why in self.unusable
            )
        return text


def roots_of(project: Project, instance_roots: Sequence[Path]) -> ProjectRoots:
    """``project``'s assigned local directories, each checked again against ``instance_roots``."""
    usable: list[Path] = []
    unusable: list[tuple[str, str]] = []
    for value in project.local_roots or []:
        try:
            real = check_root(str(value), instance_roots)
        except LocalDirectoryRefused as exc:
            unusable.append((str(value), exc.message))
        else:
            if real not in usable:
                usable.append(real)
    return ProjectRoots(project.name, project.id, tuple(usable), tuple(unusable))


def resolve_local(url: str, roots: ProjectRoots) -> Path:
    """The real directory ``url`` names (symlinks followed), checked to be one of the project's
    local directories or inside one.

    The roots are checked before existence, so a refusal says nothing about paths outside them.
    """
    path = Path(url)
    if not path.is_absolute():
        raise LocalDirectoryRefused(f"{url} is not an absolute path; {roots.describe()}")
    real = _real(path)
    if real is None or not any(real.is_relative_to(root) for root in roots.usable):
        shown = url if real is None or str(real) == url else f"{url} (resolves to {real})"
        raise LocalDirectoryRefused(
            f"{shown} is not inside a local directory of project '{roots.project}';"
            f" {roots.describe()}"
        )
    if not real.is_dir():
        raise LocalDirectoryRefused(f"directory {url} does not exist on the server")
    return real


def server_path(repo: Repository) -> str | None:
    """The server directory ``repo`` reads (a local repository, a git ``file://`` URL); None
    for a git repository on another machine."""
    return repo.url if repo.kind == RepositoryKind.LOCAL else git.file_path(repo.url)


def allowed_directory(
    session: Session, repo: Repository, instance_roots: Sequence[Path]
) -> Path | None:
    """The real directory of the server ``repo`` reads, checked to be inside its project's
    local directories (themselves inside ``instance_roots``); None for a git repository on
    another machine. Raises ``LocalDirectoryRefused``."""
    path = server_path(repo)
    if path is None:
        return None
    project = session.get(Project, repo.project_id)
    if project is None:  # a repository being created is given its project before this
        raise LocalDirectoryRefused(f"project {repo.project_id} does not exist")
    return resolve_local(path, roots_of(project, instance_roots))


def problem(session: Session, repo: Repository, instance_roots: Sequence[Path]) -> str | None:
    """Why ``repo`` cannot read its server directory now; None when it can, or reads none."""
    try:
        allowed_directory(session, repo, instance_roots)
    except LocalDirectoryRefused as exc:
        return exc.message
    return None


@dataclasses.dataclass(frozen=True)
class Misfit:
    project: str
    repository: str
    repository_id: int
    reason: str

    def line(self) -> str:
        return (
            f"repository '{self.repository}' (id {self.repository_id}) of project"
            f" '{self.project}' cannot be used: {self.reason}. Fix: an admin assigns a directory"
            f" holding it to project '{self.project}' (project settings, Local directories), or"
            " a manager points the repository elsewhere"
        )


def misfits(session: Session, instance_roots: Sequence[Path]) -> list[Misfit]:
    """Every repository reading a server directory that does not fit its project's local
    directories now (said at start and by ``steward repositories check``)."""
    rows = session.execute(
        select(Repository, Project)
        .join(Project, Project.id == Repository.project_id)
        .where((Repository.kind == RepositoryKind.LOCAL) | Repository.url.startswith("file:"))
        .order_by(Project.name, Repository.name)
    )
    found: list[Misfit] = []
    roots: dict[int, ProjectRoots] = {}
    for repo, project in rows:
        path = server_path(repo)
        if path is None:
            continue
        if project.id not in roots:
            roots[project.id] = roots_of(project, instance_roots)
        try:
            resolve_local(path, roots[project.id])
        except LocalDirectoryRefused as exc:
            found.append(Misfit(project.name, repo.name, repo.id, exc.message))
    return found


def create_default_root(default: Path, instance_roots: Sequence[Path]) -> bool:
    """Make ``<data>/repositories``, the local root when none is configured, at start: the
    directory people are told to put playbooks in exists. A root an administrator configured
    is theirs to make. Whether it is one of the roots."""
    if default not in instance_roots:
        return False
    default.mkdir(mode=0o750, parents=True, exist_ok=True)
    return True


def log_misfits(session: Session, instance_roots: Sequence[Path]) -> int:
    """One warning per repository that does not fit (at server start); how many."""
    found = misfits(session, instance_roots)
    for misfit in found:
        log.warning("%s", misfit.line())
    return len(found)
