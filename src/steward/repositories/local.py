"""Where a repository may read the server's disk: a ``local`` repository's directory, or the
directory of a git ``file://`` URL, must be strictly inside one of the roots.

The roots are ``Settings.repository_roots`` (``STEWARD_LOCAL_REPOSITORY_ROOTS``). A root itself is
refused: it is shared by every project. Checked when a repository is saved and again before every
use, since the settings and the symlinks on the way can change after it was saved.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from steward.errors import DomainError
from steward.repositories import git
from steward.repositories.models import Repository, RepositoryKind


class LocalDirectoryRefused(DomainError):
    """The directory is not one a local repository may use; ``message`` says why."""


def describe_roots(roots: Sequence[Path]) -> str:
    if not roots:
        return "no local repository roots are configured (STEWARD_LOCAL_REPOSITORY_ROOTS)"
    listed = ", ".join(str(root) for root in roots)
    return f"allowed: a directory inside {listed} (STEWARD_LOCAL_REPOSITORY_ROOTS)"


def _real(path: Path) -> Path | None:
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return None


def resolve_local(url: str, roots: Sequence[Path]) -> Path:
    """The real directory ``url`` names (symlinks followed), checked to be inside ``roots``.

    The roots are checked before existence, so a refusal says nothing about paths outside them.
    """
    path = Path(url)
    if not path.is_absolute():
        raise LocalDirectoryRefused(f"{url} is not an absolute path; {describe_roots(roots)}")
    real = _real(path)
    inside = real is not None and any(
        (root_real := _real(root)) is not None
        and real != root_real
        and real.is_relative_to(root_real)
        for root in roots
    )
    if real is None or not inside:
        shown = url if real is None or str(real) == url else f"{url} (resolves to {real})"
        raise LocalDirectoryRefused(
            f"{shown} is not inside a local repository root; {describe_roots(roots)}"
        )
    if not real.is_dir():
        raise LocalDirectoryRefused(f"directory {url} does not exist on the server")
    return real


def allowed_directory(repo: Repository, roots: Sequence[Path]) -> Path | None:
    """The real directory of the server ``repo`` reads, checked to be inside ``roots``; None for
    a git repository on another machine."""
    path = repo.url if repo.kind == RepositoryKind.LOCAL else git.file_path(repo.url)
    return None if path is None else resolve_local(path, roots)
