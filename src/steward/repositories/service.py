from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.db import utcnow
from steward.errors import InvalidInput, Unreachable
from steward.keys.models import Key, KeyKind
from steward.outbound import network
from steward.projects import scoped
from steward.projects.models import Project
from steward.references import refuse_if_referenced
from steward.repositories import git, host_keys, local
from steward.repositories.checkout import (
    CheckoutFailed,
    Reach,
    key_material,
    local_head,
    vet_server,
)
from steward.repositories.local import LocalDirectoryRefused, allowed_directory
from steward.repositories.models import Repository, RepositoryKind
from steward.repositories.schemas import RepositoryCreate, RepositoryTestResult, RepositoryUpdate

KEY_KIND_FOR: dict[str, KeyKind | None] = {
    "ssh": KeyKind.SSH,
    "https": KeyKind.LOGIN_PASSWORD,
    "http": KeyKind.LOGIN_PASSWORD,
    "file": None,
}
AUDITED_FIELDS = ("name", "description", "kind", "url", "ref", "key_id", "ssh_known_hosts")
URL_FORMS = "https://host/path, ssh://[user@]host/path, user@host:path or file:///absolute/path"


def _server_directory(session: Session, repo: Repository, roots: Sequence[Path]) -> Path | None:
    """The server directory a ``local`` repository or a ``file://`` URL reads: it must be
    inside its project's local directories, or anyone who may edit repositories could read any
    directory, another project's among them."""
    try:
        return allowed_directory(session, repo, roots)
    except LocalDirectoryRefused as exc:
        raise InvalidInput("url", exc.message) from exc


def _check_local(repo: Repository) -> None:
    if repo.key_id is not None:
        raise InvalidInput("key_id", "a local repository takes no key")
    if repo.ref:
        raise InvalidInput("ref", "a local repository has no ref: it is used as it is")
    if repo.ssh_known_hosts:
        raise InvalidInput("ssh_known_hosts", "a local repository is not fetched over ssh")


def _check_git_url(url: str, guard: network.Guard) -> str:
    scheme = git.transport(url)
    if scheme is None:
        raise InvalidInput("url", f"not a git URL Steward can use; use {URL_FORMS}")
    if git.has_password_in_url(url):
        raise InvalidInput("url", "no password in the URL: store it in a login_password key")
    server = git.server(url)
    if server is not None:  # checked again right before git runs
        problem = guard.check_at_save(server.host, server.port)
        if problem is not None:
            raise InvalidInput("url", f"the git server may not be reached: {problem}")
    return scheme


def _check_key(session: Session, project: Project, key_id: int, scheme: str) -> None:
    key = session.scalar(select(Key).where(Key.id == key_id, Key.project_id == project.id))
    if key is None:
        raise InvalidInput("key_id", f"key {key_id} is not in project '{project.name}'")
    expected = KEY_KIND_FOR[scheme]
    if expected is None:
        raise InvalidInput("key_id", f"a {scheme} URL takes no key")
    if key.kind != expected:
        raise InvalidInput(
            "key_id", f"key '{key.name}' is a {key.kind} key; a {scheme} URL needs a {expected} key"
        )


def _check(
    session: Session,
    project: Project,
    repo: Repository,
    roots: Sequence[Path],
    guard: network.Guard,
) -> None:
    if repo.ref.startswith("-"):  # the schema refuses it too: git would read it as an option
        raise InvalidInput("ref", "must not begin with '-'")
    if repo.kind == RepositoryKind.LOCAL:
        _check_local(repo)
    else:
        scheme = _check_git_url(repo.url, guard)
        if repo.key_id is not None:
            _check_key(session, project, repo.key_id, scheme)
        if repo.ssh_known_hosts and scheme != "ssh":
            raise InvalidInput("ssh_known_hosts", f"only an ssh URL uses it; this one is {scheme}")
    _server_directory(session, repo, roots)


def list_for_project(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[Repository], int]:
    return scoped.list_in_project(session, Repository, project, limit=limit, offset=offset)


def local_problem(session: Session, repo: Repository, roots: Sequence[Path]) -> str | None:
    """Why ``repo`` cannot read its server directory now (shown with it); None when it can."""
    return local.problem(session, repo, roots)


def _fields(repo: Repository) -> dict[str, Any]:
    return audit.snapshot(repo, AUDITED_FIELDS)


def create(
    session: Session,
    project: Project,
    body: RepositoryCreate,
    *,
    actor: Actor,
    reach: Reach,
    reach_now: bool = False,
) -> Repository:
    """With ``reach_now``, git must answer and find the ref (``reach_and_record``) or nothing
    is saved: the console asks before it saves one that cannot be reached.
    ``reach.roots``: the instance's local repository roots, inside which the project's own
    local directories are; ``reach.guard``: where a git server may be."""
    scoped.check_name_free(session, Repository, project, body.name, "repository")
    repo = Repository(project_id=project.id, **body.model_dump())
    _check(session, project, repo, reach.roots, reach.guard)
    if reach_now:
        session.add(repo)
        reach_and_record(session, repo, reach)
    return audit.commit_created(session, actor, AuditAction.REPOSITORY_CREATE, repo, _fields)


def update(
    session: Session,
    project: Project,
    repo: Repository,
    body: RepositoryUpdate,
    *,
    actor: Actor,
    reach: Reach,
    reach_now: bool = False,
) -> Repository:
    """``reach_now`` as on create."""
    before = _fields(repo)
    changes = scoped.changes_of(session, project, repo, body, "repository")
    for field, value in changes.items():
        setattr(repo, field, value)
    _check(session, project, repo, reach.roots, reach.guard)
    if reach_now:
        reach_and_record(session, repo, reach)
    return audit.commit_updated(
        session, actor, AuditAction.REPOSITORY_UPDATE, repo, before, _fields
    )


def delete(session: Session, repo: Repository, *, actor: Actor) -> None:
    refuse_if_referenced(session, repo)
    audit.commit_deleted(session, actor, AuditAction.REPOSITORY_DELETE, repo, _fields)


def reach_and_record(session: Session, repo: Repository, reach: Reach) -> RepositoryTestResult:
    """Reach the repository now (``test_access``) and keep the outcome on it: when, the commit
    its ref points at, or why it failed (raised again as ``Unreachable``, which the console
    offers to save anyway)."""
    repo.checked_at = utcnow()
    try:
        result = test_access(session, reach.cipher, repo, reach.scratch, reach.roots, reach.guard)
    except InvalidInput as exc:
        repo.checked_commit, repo.check_problem = "", exc.message
        raise Unreachable(exc.field, exc.reason) from exc
    repo.checked_commit, repo.check_problem = result.commit, ""
    return result


def test_and_remember(session: Session, repo: Repository, reach: Reach) -> RepositoryTestResult:
    """The test button: the outcome is kept (committed) whether git answered or not."""
    try:
        result = reach_and_record(session, repo, reach)
    finally:
        session.commit()
    return result


def test_access(
    session: Session,
    cipher: KeyCipher,
    repo: Repository,
    scratch: Path,
    roots: Sequence[Path],
    guard: network.Guard,
) -> RepositoryTestResult:
    """Reach the repository with its key and resolve its ref, without cloning; a local one or a
    ``file://`` URL must still be inside its project's local directories, a git server where
    ``guard`` allows."""
    directory = _server_directory(session, repo, roots)
    if repo.kind == RepositoryKind.LOCAL and directory is not None:
        return RepositoryTestResult(ref="", commit=local_head(directory))
    try:
        pin = vet_server(repo, guard)
    except CheckoutFailed as exc:
        raise InvalidInput("url", exc.message) from exc
    material = key_material(session, cipher, repo)
    with git.access(material, scratch, repo.ssh_known_hosts, pin=pin) as access:
        try:
            refs = git.ls_remote(repo.url, access)
        except git.GitFailed as exc:
            raise InvalidInput("url", f"git ls-remote failed: {exc.message}") from exc
        host_keys.remember(session, repo, access)
    commit = git.resolve_ref(refs, repo.ref)
    if commit is None and not git.COMMIT.match(repo.ref):
        raise InvalidInput("ref", f"no branch or tag '{repo.ref}' in {repo.url}")
    return RepositoryTestResult(ref=repo.ref, commit=commit or "")
