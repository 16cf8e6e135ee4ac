from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends, Query, status
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.api.deps import (
    ActorDep,
    PageQuery,
    ReachDep,
    ResourceView,
    ResourceWrite,
    RootsDep,
    SessionDep,
    edited_object,
    viewed_object,
)
from steward.projects.models import Project
from steward.repositories import playbooks, service
from steward.repositories.checkout import Reach
from steward.repositories.models import Repository
from steward.repositories.schemas import (
    PlaybookList,
    PlaybookParams,
    RepositoryCreate,
    RepositoryRead,
    RepositoryTestResult,
    RepositoryUpdate,
)
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/repositories", tags=["repositories"])


def _read(session: Session, repository: Repository, roots: Sequence[Path]) -> RepositoryRead:
    problem = service.local_problem(session, repository, roots)
    return RepositoryRead.model_validate(repository).model_copy(update={"local_problem": problem})


ViewedRepository = Annotated[Repository, viewed_object(Repository, "repository")]
EditedRepository = Annotated[Repository, edited_object(Repository, "repository")]


@router.get("")
def list_repositories(
    project: ResourceView,
    session: SessionDep,
    roots: RootsDep,
    page: PageQuery,
) -> Page[RepositoryRead]:
    """``local_problem`` marks each one whose server directory cannot be used now."""
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    return Page.of([_read(session, r, roots) for r in rows], total, page)


ReachNow = Annotated[
    bool,
    Query(
        alias="check",
        description="reach the repository now (git ls-remote, the ref resolved): 422 with"
        " git's message and nothing saved when it cannot; the outcome is kept as its last check",
    ),
]


@dataclasses.dataclass(frozen=True)
class Saving:
    """A create or an update of a repository as asked: resource:write in the project, the
    caller, how to look into the repository, and whether to reach it now (``?check``)."""

    project: Project
    session: Session
    actor: Actor
    reach: Reach
    now: bool  # reach it now

    def create(self, body: RepositoryCreate) -> RepositoryRead:
        created = service.create(
            self.session, self.project, body, actor=self.actor, reach=self.reach, reach_now=self.now
        )
        return _read(self.session, created, self.reach.roots)

    def update(self, repository: Repository, body: RepositoryUpdate) -> RepositoryRead:
        updated = service.update(
            self.session,
            self.project,
            repository,
            body,
            actor=self.actor,
            reach=self.reach,
            reach_now=self.now,
        )
        return _read(self.session, updated, self.reach.roots)


async def _saving(
    project: ResourceWrite,
    session: SessionDep,
    actor: ActorDep,
    reach: ReachDep,
    reach_now: ReachNow = False,
) -> Saving:
    return Saving(project, session, actor, reach, reach_now)


SavingDep = Annotated[Saving, Depends(_saving)]


@router.post("", status_code=status.HTTP_201_CREATED)
def create_repository(body: RepositoryCreate, saving: SavingDep) -> RepositoryRead:
    """A git server must be somewhere the server may connect (not loopback, link-local, its
    own address… unless ``STEWARD_OUTBOUND_ALLOWED_NETWORKS`` allows it): checked now and
    right before every git command."""
    return saving.create(body)


@router.get("/{repository_id}")
def read_repository(
    repository: ViewedRepository, session: SessionDep, roots: RootsDep
) -> RepositoryRead:
    return _read(session, repository, roots)


@router.patch("/{repository_id}")
def update_repository(
    repository: EditedRepository, body: RepositoryUpdate, saving: SavingDep
) -> RepositoryRead:
    return saving.update(repository, body)


@router.delete("/{repository_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_repository(repository: EditedRepository, session: SessionDep, actor: ActorDep) -> None:
    """Delete a repository no template or inventory uses (409 names them)."""
    service.delete(session, repository, actor=actor)


@router.post("/{repository_id}/test")
def test_repository(
    repository: EditedRepository, session: SessionDep, reach: ReachDep
) -> RepositoryTestResult:
    """Reach the repository with its key (``git ls-remote``) and resolve its ref; 422 with
    git's message when it cannot. Either way the outcome is kept as its last check."""
    return service.test_and_remember(session, repository, reach)


@router.get("/{repository_id}/playbooks")
def list_playbooks(
    repository: ViewedRepository,
    session: SessionDep,
    reach: ReachDep,
    params: Annotated[PlaybookParams, Query()],
) -> PlaybookList:
    """The playbooks found in a checkout of the repository at ``ref``; 409 with git's message
    when it cannot be read now, 422 when its tree leads outside itself."""
    found = playbooks.list_playbooks(session, reach, repository, ref=params.ref)
    return PlaybookList(commit=found.commit, playbooks=found.playbooks, truncated=found.truncated)
