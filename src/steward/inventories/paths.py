"""Paths of files inside a repository, as users type them: relative, normalized, never escaping."""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator
from pydantic_core import PydanticCustomError


def normalize(value: str) -> str:
    """``./a//b/../c.yml`` -> ``a/c.yml``; absolute paths and ``..`` escapes are refused."""
    if not value.strip():
        raise PydanticCustomError("repository_path", "must not be empty")
    if "\x00" in value or "\\" in value:
        raise PydanticCustomError("repository_path", "must not contain NUL or backslash")
    if value.startswith("/"):
        raise PydanticCustomError(
            "repository_path", "must be relative to the repository root, not absolute"
        )
    normalized = posixpath.normpath(value)
    if normalized == "." or normalized == ".." or normalized.startswith("../"):
        raise PydanticCustomError("repository_path", "must stay inside the repository")
    return normalized


RepositoryPath = Annotated[str, AfterValidator(normalize)]


def inside(root: Path, relative: str | Path) -> Path | None:
    """The file ``relative`` under ``root`` with every symlink followed, or None if it (or a
    symlink on the way, a chain, a dangling link's target) leaves ``root``.

    A symlink loop is None too: where it would lead cannot be known. An absolute ``relative``
    is judged where it points.
    """
    try:
        base = root.resolve()
        target = (base / relative).resolve()
    except (OSError, RuntimeError):  # RuntimeError: a symlink loop
        return None
    return target if target.is_relative_to(base) else None
