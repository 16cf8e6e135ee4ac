"""Runner groups: everyone signed in sees them (the names a waiting run's reason gives, and
which have workers online); admins create, change and delete them, and see the workers."""

from __future__ import annotations

import datetime as dt
from typing import Annotated

from fastapi import APIRouter, Depends, status

from steward.api.deps import ActorDep, AdminActor, PageQuery, RuntimeDep, SessionDep, StoredPathIds
from steward.runner_groups import service
from steward.runner_groups.models import RunnerGroup
from steward.runner_groups.schemas import (
    RunnerGroupCreate,
    RunnerGroupRead,
    RunnerGroupUpdate,
    WorkerRead,
)
from steward.runtime import Runtime
from steward.schemas import Page

router = APIRouter(prefix="/runner-groups", tags=["runner groups"], dependencies=[StoredPathIds])
workers = APIRouter(prefix="/workers", tags=["runner groups"])


def _lease(runtime: Runtime) -> dt.timedelta:
    return dt.timedelta(seconds=runtime.settings.lease_seconds)


def _managed(group_id: int, _admin: AdminActor, session: SessionDep) -> RunnerGroup:
    return service.get(session, group_id)


ManagedGroup = Annotated[RunnerGroup, Depends(_managed)]


@router.get("")
def list_runner_groups(
    _actor: ActorDep,
    session: SessionDep,
    rt: RuntimeDep,
    page: PageQuery,
) -> Page[RunnerGroupRead]:
    items, total = service.list_all(session, _lease(rt), limit=page.limit, offset=page.offset)
    return Page.of(items, total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_runner_group(
    body: RunnerGroupCreate, admin: AdminActor, session: SessionDep, rt: RuntimeDep
) -> RunnerGroupRead:
    return service.read(session, service.create(session, admin, body), _lease(rt))


@router.get("/{group_id}")
def read_runner_group(
    group_id: int, _actor: ActorDep, session: SessionDep, rt: RuntimeDep
) -> RunnerGroupRead:
    return service.read(session, service.get(session, group_id), _lease(rt))


@router.patch("/{group_id}")
def update_runner_group(
    group: ManagedGroup,
    body: RunnerGroupUpdate,
    admin: AdminActor,
    session: SessionDep,
    rt: RuntimeDep,
) -> RunnerGroupRead:
    return service.read(session, service.update(session, admin, group, body), _lease(rt))


@router.delete("/{group_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_runner_group(group: ManagedGroup, admin: AdminActor, session: SessionDep) -> None:
    """Refused (409) while a project or template chooses the group."""
    service.delete(session, admin, group)


@workers.get("")
def list_workers(_admin: AdminActor, session: SessionDep, rt: RuntimeDep) -> list[WorkerRead]:
    """The workers that executed runs recently (host, queues, slots, runs now): admins only."""
    return service.list_workers(session, _lease(rt))
