from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, status
from sqlalchemy.orm import Session

from steward.api import deps
from steward.inventories import service
from steward.inventories.models import Inventory
from steward.inventories.schemas import (
    InventoryCreate,
    InventoryHealth,
    InventoryPreview,
    InventoryRead,
    InventoryUpdate,
    ResolvedRead,
)
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/inventories", tags=["inventories"])


ViewedInventory = Annotated[Inventory, deps.viewed_object(Inventory, "inventory")]
EditedInventory = Annotated[Inventory, deps.edited_object(Inventory, "inventory")]


@router.get("")
def list_inventories(
    project: deps.ResourceView, session: deps.SessionDep, page: deps.PageQuery
) -> Page[InventoryRead]:
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    return Page.of(_with_health(session, rows), total, page)


def _with_health(session: Session, rows: list[Inventory]) -> list[InventoryRead]:
    counts = service.health_counts(session, [i.id for i in rows])
    empty = InventoryHealth(unreachable_now=0, checked=0, hosts=0)
    return [
        InventoryRead.model_validate(i).model_copy(update={"health": counts.get(i.id, empty)})
        for i in rows
    ]


@router.post("", status_code=status.HTTP_201_CREATED)
def create_inventory(
    body: InventoryCreate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    reach: deps.ReachDep,
) -> InventoryRead:
    """Static inventories are parsed by Ansible before they are saved; the path of a file or
    plugin inventory must be in its repository, which is checked out for that."""
    created = service.create(session, project, body, actor=actor, reach=reach)
    return _with_health(session, [created])[0]


@router.post("/preview", dependencies=[deps.Previewing])
def preview_inventory(body: InventoryPreview, _project: deps.ResourceWrite) -> ResolvedRead:
    """Hosts and groups of unsaved static text, or a 422 with Ansible's message."""
    return ResolvedRead.of(service.preview(body))


@router.get("/{inventory_id}")
def read_inventory(inventory: ViewedInventory, session: deps.SessionDep) -> InventoryRead:
    return _with_health(session, [inventory])[0]


@router.get("/{inventory_id}/hosts")
def inventory_hosts(
    inventory: ViewedInventory,
    session: deps.SessionDep,
    reach: deps.ReachDep,
    runtime: deps.RuntimeDep,
) -> ResolvedRead:
    """Hosts and groups as Ansible resolves them; variables that look secret are masked.

    File and plugin inventories check out their repository first.
    """
    hosts = service.hosts(session, reach, inventory, runtime.sandbox)
    return ResolvedRead.of(hosts)


@router.patch("/{inventory_id}")
def update_inventory(
    inventory: EditedInventory,
    body: InventoryUpdate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    reach: deps.ReachDep,
) -> InventoryRead:
    """A new source is checked as on create."""
    updated = service.update(session, project, inventory, body, actor=actor, reach=reach)
    return _with_health(session, [updated])[0]


@router.delete("/{inventory_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_inventory(
    inventory: EditedInventory, session: deps.SessionDep, actor: deps.ActorDep
) -> None:
    """Refused (409) while templates use the inventory; the answer names them."""
    service.delete(session, inventory, actor=actor)
