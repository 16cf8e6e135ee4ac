"""A project's Galaxy servers: kept like its other objects, revealed (with their secrets) only
for the install phase of a run. Their ``url`` and ``auth_url`` must be somewhere the server may
connect (``outbound.network``): checked at save and right before ansible-galaxy runs."""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.crypto import KeyCipher
from steward.db import paged
from steward.errors import InvalidInput
from steward.galaxy.models import GalaxyServer
from steward.galaxy.schemas import GalaxyServerCreate, GalaxyServerUpdate
from steward.keys import service as keys
from steward.keys.models import Key, KeyKind
from steward.outbound import network
from steward.projects import scoped
from steward.projects.models import Project

KEY_KINDS = frozenset({KeyKind.SECRET, KeyKind.LOGIN_PASSWORD})
AUDITED_FIELDS = (
    "name", "description", "url", "auth_url", "key_id", "validate_certs", "position",
)  # fmt: skip


def _fields(server: GalaxyServer) -> dict[str, Any]:
    return audit.snapshot(server, AUDITED_FIELDS)


def _ordered(project_id: int) -> Select[GalaxyServer]:
    return (
        select(GalaxyServer)
        .where(GalaxyServer.project_id == project_id)
        .order_by(GalaxyServer.position, GalaxyServer.name)
    )


def list_for_project(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[GalaxyServer], int]:
    """In the order ansible-galaxy asks them."""
    return paged(session, _ordered(project.id), limit=limit, offset=offset)


def _key(session: Session, project: Project, key_id: int | None) -> Key | None:
    if key_id is None:
        return None
    key = session.get(Key, key_id)
    if key is None or key.project_id != project.id:
        raise InvalidInput("key_id", f"key {key_id} does not exist in this project")
    if key.kind not in KEY_KINDS:
        raise InvalidInput(
            "key_id",
            f"key {key.id} is a {key.kind} key; a secret key (a token) or a login_password"
            " key is required",
        )
    return key


URL_FIELDS = ("url", "auth_url")


def refusal(url: str, guard: network.Guard, *, at_save: bool) -> str | None:
    """Why the server may not connect to a Galaxy ``url`` (already an http(s) URL), or None. At
    save a name that does not resolve now is accepted; right before a run it is refused."""
    try:
        parsed = network.parse_url(url)
        if at_save:
            return guard.check_at_save(parsed.host, parsed.port)
        guard.vet(parsed.host, parsed.port)
    except network.Refused as exc:
        return str(exc)
    return None


def _check_reachable(server: GalaxyServer, guard: network.Guard) -> None:
    for field in URL_FIELDS:
        url = getattr(server, field)
        problem = refusal(url, guard, at_save=True) if url else None
        if problem is not None:
            raise InvalidInput(field, f"the Galaxy server may not be reached: {problem}")


def _apply(
    session: Session, project: Project, server: GalaxyServer, changes: dict[str, Any]
) -> None:
    if "key_id" in changes:
        server.key = _key(session, project, changes.pop("key_id"))
    if "auth_url" in changes:
        server.auth_url = changes.pop("auth_url") or ""
    for field, value in changes.items():
        setattr(server, field, value)


def create(
    session: Session,
    project: Project,
    body: GalaxyServerCreate,
    *,
    actor: Actor,
    guard: network.Guard,
) -> GalaxyServer:
    scoped.check_name_free(session, GalaxyServer, project, body.name, "galaxy server")
    server = GalaxyServer(project_id=project.id)
    _apply(session, project, server, body.model_dump())
    _check_reachable(server, guard)
    return audit.commit_created(session, actor, AuditAction.GALAXY_SERVER_CREATE, server, _fields)


def update(
    session: Session,
    project: Project,
    server: GalaxyServer,
    body: GalaxyServerUpdate,
    *,
    actor: Actor,
    guard: network.Guard,
) -> GalaxyServer:
    before = _fields(server)
    changes = scoped.changes_of(session, project, server, body, "galaxy server")
    moved = any(field in changes for field in URL_FIELDS)
    _apply(session, project, server, changes)  # takes auth_url and key_id out of changes
    if moved:
        _check_reachable(server, guard)
    return audit.commit_updated(
        session, actor, AuditAction.GALAXY_SERVER_UPDATE, server, before, _fields
    )


def delete(session: Session, server: GalaxyServer, *, actor: Actor) -> None:
    audit.commit_deleted(session, actor, AuditAction.GALAXY_SERVER_DELETE, server, _fields)


@dataclasses.dataclass(frozen=True)
class ServerAccess:
    """A server as ansible-galaxy gets it, secrets decrypted. ``repr`` shows no secret."""

    name: str
    url: str
    auth_url: str
    validate_certs: bool
    key_id: int | None
    token: str = dataclasses.field(default="", repr=False)
    username: str = ""
    password: str = dataclasses.field(default="", repr=False)

    def identity(self) -> list[Any]:
        """What the installed content depends on (the requirements cache key): not the secret."""
        return [self.name, self.url, self.auth_url, self.validate_certs, self.key_id]

    def secret_values(self) -> list[str]:
        return [v for v in (self.token, self.password) if v]


def for_run(session: Session, cipher: KeyCipher, project_id: int) -> list[ServerAccess]:
    """The project's servers in order, with their keys' secrets: for a run's install phase."""
    servers = []
    for server in session.scalars(_ordered(project_id)):
        access = ServerAccess(
            name=server.name,
            url=server.url,
            auth_url=server.auth_url,
            validate_certs=server.validate_certs,
            key_id=server.key_id,
        )
        if server.key_id is not None:
            material = keys.reveal(session, cipher, server.key_id, project_id)
            access = dataclasses.replace(
                access,
                token=material.value,
                username=material.username if material.kind == KeyKind.LOGIN_PASSWORD else "",
                password=material.password,
            )
        servers.append(access)
    return servers
