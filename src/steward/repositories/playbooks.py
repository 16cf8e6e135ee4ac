"""The playbooks of a repository: its ``.yml``/``.yaml`` files whose top level is a list of
plays, found in a checkout (``checkout.checkout``: contained, as a run's) to offer in the
template form, and the test a template's playbook must pass when it is saved.

Bounded: a short git timeout, a depth, a number of entries walked, a size per file read; the
walk never follows a symlinked directory and never reads a file that resolves outside the
checkout. Content of roles, collections and variable directories is not looked at.
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from sqlalchemy.orm import Session

from steward.errors import InvalidInput, InvalidState
from steward.inventories.paths import inside
from steward.repositories.checkout import CheckoutFailed, CheckoutNotContained, Reach, checkout
from steward.repositories.models import Repository, RepositoryKind

GIT_TIMEOUT_SECONDS = 60  # a listing is asked for by a form, not a run
DEPTH_MAX = 6  # directories below the root
ENTRIES_MAX = 20_000  # files and directories walked
FILE_BYTES_MAX = 512 * 1024  # a bigger file is not read (nor offered)
READ_BYTES_MAX = 16 * 1024 * 1024  # read in all, for one listing
PLAYBOOKS_MAX = 2_000
SKIPPED = frozenset({"roles", "collections", "group_vars", "host_vars"})
PLAY_KEYS = frozenset({"hosts", "import_playbook", "ansible.builtin.import_playbook"})


@dataclasses.dataclass(frozen=True)
class Listing:
    commit: str
    playbooks: list[str]
    truncated: bool  # a bound was reached: more files may be playbooks


class _Loader(yaml.SafeLoader):
    """Safe, and any tag (``!vault``, ``!unsafe``) read as its plain value: only the shape of
    the document matters here."""


def _untagged(loader: yaml.SafeLoader, _suffix: str, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node)
    return loader.construct_scalar(node)  # type: ignore[arg-type]


_Loader.add_multi_constructor("!", _untagged)


def problem(path: Path) -> str | None:
    """Why the file at ``path`` is not a playbook; None when it is one."""
    try:
        if path.stat().st_size > FILE_BYTES_MAX:
            return f"is larger than {FILE_BYTES_MAX // 1024} KiB; it is not read as a playbook"
        document = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)  # noqa: S506
    except (OSError, UnicodeError) as exc:
        return f"cannot be read: {type(exc).__name__}"
    except RecursionError:
        return "is not a playbook: it nests too deeply"
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        return f"is not valid YAML{where}"
    if not isinstance(document, list) or not document:
        return "is not a playbook: its top level is not a list of plays"
    for index, play in enumerate(document):
        if not isinstance(play, dict) or not PLAY_KEYS & play.keys():
            return f"is not a playbook: item {index + 1} has no hosts or import_playbook"
    return None


def find(root: Path) -> tuple[list[str], bool]:
    """The playbooks under ``root`` (relative, sorted) and whether a bound cut the walk."""
    found: list[str] = []
    walked = read = 0
    truncated = False
    for directory, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(directory)
        depth = len(here.relative_to(root).parts)
        kept = sorted(d for d in dirnames if d not in SKIPPED and not d.startswith("."))
        if depth >= DEPTH_MAX and kept:
            truncated = True
            kept = []
        dirnames[:] = kept
        for name in sorted(filenames):
            walked += 1
            if walked > ENTRIES_MAX or len(found) >= PLAYBOOKS_MAX or read > READ_BYTES_MAX:
                return sorted(found), True
            if not name.endswith((".yml", ".yaml")) or name.startswith("."):
                continue
            relative = (here / name).relative_to(root)
            real = inside(root, relative)
            if real is None or not real.is_file():
                continue
            read += min(real.stat().st_size, FILE_BYTES_MAX)
            if problem(real) is None:
                found.append(relative.as_posix())
        walked += len(kept)
    return sorted(found), truncated


def list_playbooks(
    session: Session,
    reach: Reach,
    repo: Repository,
    *,
    ref: str | None,
) -> Listing:
    """The playbooks of ``repo`` at ``ref`` (default: its own). 409 when it cannot be checked
    out now, 422 when its tree leads outside itself (a run of it would be refused too)."""
    if ref is not None and repo.kind == RepositoryKind.LOCAL:
        raise InvalidInput("ref", "a local repository has no ref: it is used as it is")
    with tempfile.TemporaryDirectory(prefix="steward-playbooks-") as tmp:
        try:
            tree = checkout(
                session,
                reach.cipher,
                repo,
                Path(tmp) / "repository",
                roots=reach.roots,
                guard=reach.guard,
                ref=ref,
                timeout=GIT_TIMEOUT_SECONDS,
            )
        except CheckoutNotContained as exc:
            raise InvalidInput("repository_id", exc.message) from exc
        except CheckoutFailed as exc:
            raise InvalidState(f"repository '{repo.name}' cannot be read: {exc.message}") from exc
        playbooks, truncated = find(tree.path)
    return Listing(commit=tree.commit, playbooks=playbooks, truncated=truncated)
