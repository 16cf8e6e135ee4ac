from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, status

from steward.api import deps
from steward.galaxy import service
from steward.galaxy.models import GalaxyServer
from steward.galaxy.schemas import GalaxyServerCreate, GalaxyServerRead, GalaxyServerUpdate
from steward.schemas import Page

router = APIRouter(prefix="/projects/{project_id}/galaxy-servers", tags=["galaxy servers"])

ViewedServer = Annotated[GalaxyServer, deps.viewed_object(GalaxyServer, "server")]
EditedServer = Annotated[GalaxyServer, deps.edited_object(GalaxyServer, "server")]


@router.get("")
def list_galaxy_servers(
    project: deps.ResourceView, session: deps.SessionDep, page: deps.PageQuery
) -> Page[GalaxyServerRead]:
    """The servers the project's requirements are installed from, in the order they are asked;
    none: ansible-galaxy's default (galaxy.ansible.com)."""
    rows, total = service.list_for_project(session, project, limit=page.limit, offset=page.offset)
    return Page.of([GalaxyServerRead.model_validate(s) for s in rows], total, page)


@router.post("", status_code=status.HTTP_201_CREATED)
def create_galaxy_server(
    body: GalaxyServerCreate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    guard: deps.OutboundDep,
) -> GalaxyServerRead:
    """``url`` and ``auth_url`` must be somewhere the server may connect (not loopback,
    link-local, its own address… unless ``STEWARD_OUTBOUND_ALLOWED_NETWORKS`` allows it);
    checked again right before ansible-galaxy runs."""
    created = service.create(session, project, body, actor=actor, guard=guard)
    return GalaxyServerRead.model_validate(created)


@router.get("/{server_id}")
def read_galaxy_server(server: ViewedServer) -> GalaxyServerRead:
    return GalaxyServerRead.model_validate(server)


@router.patch("/{server_id}")
def update_galaxy_server(
    server: EditedServer,
    body: GalaxyServerUpdate,
    project: deps.ResourceWrite,
    session: deps.SessionDep,
    actor: deps.ActorDep,
    guard: deps.OutboundDep,
) -> GalaxyServerRead:
    updated = service.update(session, project, server, body, actor=actor, guard=guard)
    return GalaxyServerRead.model_validate(updated)


@router.delete("/{server_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_galaxy_server(
    server: EditedServer, session: deps.SessionDep, actor: deps.ActorDep
) -> None:
    service.delete(session, server, actor=actor)
