from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, status

from steward.api.deps import (
    ActorDep,
    CipherDep,
    ResourceView,
    ResourceWrite,
    RuntimeDep,
    SessionDep,
)
from steward.api.schemas import Page, PageParams
from steward.repositories import service
from steward.repositories.schemas import (
    RepositoryCreate,
    RepositoryRead,
    RepositoryTestResult,
    RepositoryUpdate,
)

router = APIRouter(prefix="/projects/{project_id}/repositories", tags=["repositories"])


@router.get("")
def list_repositories(
    project: ResourceView, session: SessionDep, page: Annotated[PageParams, Query()]
) -> Page[RepositoryRead]:
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    items = [RepositoryRead.model_validate(r) for r in rows]
    return Page(items=items, total=total, limit=page.limit, offset=page.offset)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_repository(
    body: RepositoryCreate,
    project: ResourceWrite,
    session: SessionDep,
    actor: ActorDep,
    runtime: RuntimeDep,
) -> RepositoryRead:
    roots = runtime.settings.repository_roots
    created = service.create(session, project, body, actor=actor, roots=roots)
    return RepositoryRead.model_validate(created)


@router.get("/{repository_id}")
def read_repository(
    repository_id: int, project: ResourceView, session: SessionDep
) -> RepositoryRead:
    return RepositoryRead.model_validate(service.get(session, project, repository_id))


@router.patch("/{repository_id}")
def update_repository(
    repository_id: int,
    body: RepositoryUpdate,
    project: ResourceWrite,
    session: SessionDep,
    actor: ActorDep,
    runtime: RuntimeDep,
) -> RepositoryRead:
    roots = runtime.settings.repository_roots
    updated = service.update(session, project, repository_id, body, actor=actor, roots=roots)
    return RepositoryRead.model_validate(updated)


@router.delete("/{repository_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_repository(
    repository_id: int, project: ResourceWrite, session: SessionDep, actor: ActorDep
) -> None:
    """Delete a repository no template or inventory uses (409 names them)."""
    service.delete(session, project, repository_id, actor=actor)


@router.post("/{repository_id}/test")
def test_repository(
    repository_id: int,
    project: ResourceWrite,
    session: SessionDep,
    cipher: CipherDep,
    runtime: RuntimeDep,
) -> RepositoryTestResult:
    """Reach the repository with its key (``git ls-remote``) and resolve its ref; 422 with
    git's message when it cannot."""
    scratch = runtime.settings.data_dir
    roots = runtime.settings.repository_roots
    return service.test_access(session, cipher, project, repository_id, scratch, roots)
