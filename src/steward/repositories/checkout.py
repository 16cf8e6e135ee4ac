"""A repository's playbooks copied into a run's private directory, with the commit recorded."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from sqlalchemy.orm import Session

from steward.crypto import KeyCipher
from steward.errors import DomainError, InvalidInput
from steward.inventories.paths import inside
from steward.keys import service as keys
from steward.keys.service import KeyMaterial
from steward.outbound import network
from steward.repositories import containment, git, host_keys
from steward.repositories.local import LocalDirectoryRefused, allowed_directory
from steward.repositories.models import Repository, RepositoryKind


@dataclasses.dataclass(frozen=True)
class Reach:
    """What a save needs to look into a project's repositories: ``cipher`` opens their keys,
    ``roots`` are the instance's local repository roots (``Settings.repository_roots``),
    ``guard`` says where git may connect and ``scratch`` (the data dir) holds git's key files
    while it connects."""

    cipher: KeyCipher
    roots: Sequence[Path]
    guard: network.Guard
    scratch: Path


@dataclasses.dataclass(frozen=True)
class Checkout:
    path: Path  # the directory holding the playbooks
    commit: str  # full commit hash, "" for a local directory that is not a git work tree


class CheckoutFailed(DomainError):
    """git failed (message: its stderr, secrets masked), or a local directory is gone or is
    outside the local repository roots."""


class CheckoutNotContained(CheckoutFailed):
    """The tree is in place but something in it leads outside it (a symlink, a path in
    ``ansible.cfg``): the repository's content is refused, not its reachability.

    ``links``: the symlinks leading outside, relative to the repository; ``where``: the
    repository and commit, as the message begins.
    """

    def __init__(self, message: str, *, where: str, links: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.where = where
        self.links = links


def key_material(session: Session, cipher: KeyCipher, repo: Repository) -> KeyMaterial | None:
    if repo.key_id is None:
        return None
    return keys.reveal(session, cipher, repo.key_id, repo.project_id)


def local_head(directory: Path) -> str:
    """HEAD of the git work tree ``directory`` is in, or "" when it is in none."""
    done = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", "HEAD"],
        cwd=directory,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    return done.stdout.strip() if done.returncode == 0 else ""


def _clone(url: str, ref: str, dest: Path, access: git.GitAccess, timeout: float) -> None:
    if ref.startswith("-") or url.startswith("-"):  # refused on save too; never an option to git
        raise git.GitFailed("a URL or ref beginning with '-' is refused")
    if git.COMMIT.match(ref):  # a commit needs the history: full clone, then check it out
        git.run(["clone", "--no-checkout", "--", url, str(dest)], access, timeout=timeout)
        try:
            git.run(["checkout", "--quiet", "--detach", ref], access, cwd=dest, timeout=timeout)
        except git.GitFailed as exc:
            raise git.GitFailed(f"commit {ref} is not in the repository: {exc.message}") from exc
        return
    branch = ["--branch", ref] if ref else []
    clone = ["clone", "--quiet", "--depth", "1", *branch, "--", url, str(dest)]
    git.run(clone, access, timeout=timeout)


def checkout(
    session: Session,
    cipher: KeyCipher,
    repo: Repository,
    dest: Path,
    *,
    roots: Sequence[Path],
    guard: network.Guard,
    ref: str | None = None,
    timeout: float = git.TIMEOUT_SECONDS,
) -> Checkout:
    """Fill the empty directory ``dest`` with the repository at ``ref`` (default: its own ref);
    each git command may take ``timeout`` seconds.

    The git server must be somewhere ``guard`` lets the server connect, checked right before
    git runs (settings and names may have changed since the save); git connects to the address
    checked (``git.Pin``).

    A local repository or a ``file://`` URL must be inside its project's local directories,
    themselves inside ``roots`` (``Settings.repository_roots``): checked again here, as the
    settings, the project's assignment and symlinks may change.
    The tree must not lead outside itself (``containment``): CheckoutNotContained otherwise.

    Key files live in a scratch directory beside ``dest`` and are gone when this returns.
    """
    dest.mkdir(mode=0o700, parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ValueError(f"checkout destination {dest} is not empty")
    try:
        directory = allowed_directory(session, repo, roots)  # again: all of it may change
    except LocalDirectoryRefused as exc:
        raise CheckoutFailed(f"{repo.kind} repository '{repo.name}': {exc.message}") from exc
    if repo.kind == RepositoryKind.LOCAL and directory is not None:
        shutil.copytree(directory, dest, symlinks=True, dirs_exist_ok=True)
        tree = Checkout(path=dest, commit=local_head(directory))
    else:
        wanted = repo.ref if ref is None else ref
        pin = vet_server(repo, guard)
        material = key_material(session, cipher, repo)
        with git.access(material, dest.parent, repo.ssh_known_hosts, pin=pin) as access:
            try:
                _clone(repo.url, wanted, dest, access, timeout)
                commit = git.run(["rev-parse", "HEAD"], access, cwd=dest).strip()
            except git.GitFailed as exc:
                raise CheckoutFailed(f"checkout of {repo.url} failed: {exc.message}") from exc
            host_keys.remember(session, repo, access)
        tree = Checkout(path=dest, commit=commit)
    _check_contained(repo, tree)
    return tree


def vet_server(repo: Repository, guard: network.Guard) -> git.Pin | None:
    """The checked address of the repository's git server, right before git runs;
    CheckoutFailed saying so when the guard refuses it (or it does not resolve)."""
    try:
        return git.vet(repo.url, guard)
    except network.Refused as exc:
        raise CheckoutFailed(
            f"checkout of {repo.url} refused before git ran: the git server {exc}"
        ) from exc


def _check_contained(repo: Repository, tree: Checkout) -> None:
    """Checked on the copy, after it is in place: the copy is what Ansible reads, and nobody
    else can change it between this check and the run."""
    try:
        containment.check(tree.path)
    except containment.NotContained as exc:
        at = f" at commit {tree.commit[:12]}" if tree.commit else ""
        where = f"repository '{repo.name}'{at}"
        raise CheckoutNotContained(f"{where}: {exc.message}", where=where, links=exc.links) from exc


def require_path(
    session: Session,
    reach: Reach,
    repo: Repository,
    relative: str,
    *,
    field: str,
    regular_file: bool,
    problem: Callable[[Path], str | None] | None = None,
) -> None:
    """At save: ``relative`` (the ``field`` of a template or an inventory) must exist in a
    checkout of ``repo`` that stays inside itself, as a regular file when ``regular_file``.
    422 on ``field``, or on ``repository_id`` for a violation elsewhere in the tree.

    When the repository cannot be checked out now for another reason (a git server unreachable,
    a key refused), the save goes ahead: the repository may come back, and every use checks out
    again and refuses the same things, so that check is the authoritative one; this one tells
    the editor early. ``problem``: what is wrong with the file found (None: nothing), a 422 on
    ``field`` too.
    """
    with tempfile.TemporaryDirectory(prefix="steward-save-check-") as tmp:
        dest = Path(tmp) / "repository"
        try:
            tree = checkout(session, reach.cipher, repo, dest, roots=reach.roots, guard=reach.guard)
        except CheckoutNotContained as exc:
            link = containment.link_on_path(exc.links, relative)
            if link is None:
                raise InvalidInput("repository_id", exc.message) from exc
            reason = containment.symlink_message(dest, link)
            raise InvalidInput(field, f"{exc.where}: {reason}") from exc
        except CheckoutFailed:
            return
        found = inside(tree.path, relative)
        if found is None:
            raise InvalidInput(field, f"'{relative}' points outside the repository")
        if not (found.is_file() if regular_file else found.exists()):
            at = f" at commit {tree.commit[:12]}" if tree.commit else ""
            raise InvalidInput(field, f"'{relative}' is not in repository '{repo.name}'{at}")
        wrong = problem(found) if problem is not None else None
        if wrong is not None:
            raise InvalidInput(field, f"'{relative}' {wrong}")
