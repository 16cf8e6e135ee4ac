from __future__ import annotations

import dataclasses
import hashlib
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.bounds import INVENTORY_VALUES_MAX, yaml_size_error
from steward.db import utcnow
from steward.errors import InvalidInput, InvalidState
from steward.execution.ansible.sandbox import Sandbox
from steward.health.models import FAILING, HostHealth
from steward.inventories import connection
from steward.inventories.models import Inventory, InventoryFormat, InventoryHost, InventoryKind
from steward.inventories.paths import inside
from steward.inventories.resolve import (
    InventoryUnparsable,
    ResolvedInventory,
    parse_content,
    plugins_for,
    resolve,
    static_format,
)
from steward.inventories.schemas import (
    InventoryCreate,
    InventoryHealth,
    InventoryPreview,
    InventoryUpdate,
)
from steward.metrics import endpoints
from steward.outbound import network
from steward.projects import scoped
from steward.projects.models import Project
from steward.references import refuse_if_referenced
from steward.repositories.checkout import (
    CheckoutFailed,
    CheckoutNotContained,
    Reach,
    checkout,
    require_path,
)
from steward.repositories.models import Repository

AUDITED_FIELDS = (
    "name",
    "description",
    "kind",
    "format",
    "repository_id",
    "path",
    "metrics_endpoint",
)


def _fields(inventory: Inventory) -> dict[str, Any]:
    """What the audit trail keeps: the fields, and a fingerprint of the content, never its text
    (static inventories may hold host variables such as ``ansible_password``)."""
    values = audit.snapshot(inventory, AUDITED_FIELDS)
    if inventory.content:
        digest = hashlib.sha256(inventory.content.encode()).hexdigest()[:12]
        values["content"] = f"{len(inventory.content.splitlines())} lines, sha256 {digest}"
    return values


@dataclasses.dataclass(frozen=True)
class Source:
    """Where the hosts come from: the fields that must agree with ``kind``."""

    kind: InventoryKind
    format: InventoryFormat | None = None
    content: str = ""
    repository_id: int | None = None
    path: str = ""


def list_for_project(
    session: Session, project: Project, *, limit: int, offset: int
) -> tuple[list[Inventory], int]:
    return scoped.list_in_project(session, Inventory, project, limit=limit, offset=offset)


def create(
    session: Session,
    project: Project,
    body: InventoryCreate,
    *,
    actor: Actor,
    reach: Reach,
) -> Inventory:
    """``reach``: to check out the repository of a file or plugin inventory and find its path
    in it, and to check where its metrics endpoint points (``reach.guard``)."""
    scoped.check_name_free(session, Inventory, project, body.name, "inventory")
    _check_metrics_endpoint(body.metrics_endpoint, reach.guard)
    source = Source(
        kind=body.kind,
        format=body.format,
        content=body.content,
        repository_id=body.repository_id,
        path=body.path or "",
    )
    resolved = _check_source(session, project, source)
    _check_in_checkout(session, reach, source)
    inventory = Inventory(
        project_id=project.id,
        name=body.name,
        description=body.description,
        metrics_endpoint=body.metrics_endpoint,
        **dataclasses.asdict(source),
    )
    if resolved is not None:
        _keep_hosts(inventory, resolved)
    return audit.commit_created(session, actor, AuditAction.INVENTORY_CREATE, inventory, _fields)


def update(
    session: Session,
    project: Project,
    inventory: Inventory,
    body: InventoryUpdate,
    *,
    actor: Actor,
    reach: Reach,
) -> Inventory:
    """The path is looked for again in the repository only when the source changes."""
    before = _fields(inventory)
    changes = body.changes()
    if "metrics_endpoint" in changes:
        _check_metrics_endpoint(changes["metrics_endpoint"], reach.guard)
    scoped.check_rename(session, project, inventory, changes, "inventory")
    source = _merged_source(inventory, changes)
    resolved = _check_source(session, project, source)
    if (source.kind, source.repository_id, source.path) != (
        inventory.kind,
        inventory.repository_id,
        inventory.path,
    ):
        _check_in_checkout(session, reach, source)
    for field, value in {**changes, **dataclasses.asdict(source)}.items():
        setattr(inventory, field, value)
    if resolved is not None:
        _keep_hosts(inventory, resolved)
    return audit.commit_updated(
        session, actor, AuditAction.INVENTORY_UPDATE, inventory, before, _fields
    )


def delete(session: Session, inventory: Inventory, *, actor: Actor) -> None:
    refuse_if_referenced(session, inventory)
    audit.commit_deleted(session, actor, AuditAction.INVENTORY_DELETE, inventory, _fields)


def preview(body: InventoryPreview) -> ResolvedInventory:
    return _parse_static(body.format, body.content)


def hosts(
    session: Session, reach: Reach, inventory: Inventory, sandbox: Sandbox
) -> ResolvedInventory:
    """The hosts and groups of a saved inventory; file and plugin kinds check out the repository
    (a local one must be inside ``reach.roots``) and run ``ansible-inventory`` on it inside
    ``sandbox``, since a plugin or script is code from the repository. What is read is kept for
    the hosts view (``InventoryHost``)."""
    resolved = _read_hosts(session, reach, inventory, sandbox)
    _keep_hosts(inventory, resolved)
    session.commit()
    return resolved


def _read_hosts(
    session: Session, reach: Reach, inventory: Inventory, sandbox: Sandbox
) -> ResolvedInventory:
    if inventory.kind == InventoryKind.STATIC:
        return _parse_static(static_format(inventory), inventory.content)
    if sandbox.refusal:
        raise InvalidState(sandbox.refusal)
    repository = session.get_one(Repository, inventory.repository_id)
    with tempfile.TemporaryDirectory(prefix="steward-inventory-checkout-") as tmp:
        try:
            dest = Path(tmp) / "repository"
            tree = checkout(
                session, reach.cipher, repository, dest, roots=reach.roots, guard=reach.guard
            )
        except CheckoutNotContained as exc:  # its message names the repository and the cause
            raise InvalidState(exc.message) from exc
        except CheckoutFailed as exc:
            raise InvalidState(
                f"repository '{repository.name}' could not be checked out: {exc.message}"
            ) from exc
        source = inside(tree.path, inventory.path)
        if source is None or not source.exists():
            raise InvalidInput(
                "path",
                f"'{inventory.path}' is not in repository '{repository.name}'"
                f" at commit {tree.commit[:12]}",
            )
        try:
            return resolve(source, cwd=tree.path, plugins=plugins_for(inventory), sandbox=sandbox)
        except InventoryUnparsable as exc:
            raise InvalidInput("path", exc.reason) from exc


def _check_metrics_endpoint(value: str, guard: network.Guard) -> None:
    problem = endpoints.check_template(value, guard)
    if problem is not None:
        raise InvalidInput("metrics_endpoint", problem)


def _parse_static(fmt: InventoryFormat, content: str) -> ResolvedInventory:
    """Ansible's reading of static text; YAML bounded first (an alias bomb would make
    ansible-inventory print gigabytes before its timeout)."""
    if fmt == InventoryFormat.YAML:
        too_large = yaml_size_error(content, values_max=INVENTORY_VALUES_MAX)
        if too_large is not None:
            raise InvalidInput("content", too_large)
    try:
        return parse_content(fmt, content)
    except InventoryUnparsable as exc:
        raise InvalidInput("content", exc.reason) from exc


def _merged_source(inventory: Inventory, changes: dict[str, Any]) -> Source:
    """The source after ``changes``; a new kind starts from blank fields, not the old kind's."""
    kind = InventoryKind(changes.get("kind", inventory.kind))
    current = Source(
        kind=kind,
        format=InventoryFormat(inventory.format) if inventory.format else None,
        content=inventory.content,
        repository_id=inventory.repository_id,
        path=inventory.path,
    )
    if kind != inventory.kind:
        current = Source(kind=kind)
    given = {f.name: changes[f.name] for f in dataclasses.fields(Source) if f.name in changes}
    if given.get("path", "") is None:
        given["path"] = ""
    return dataclasses.replace(current, **given)


def _check_source(session: Session, project: Project, source: Source) -> ResolvedInventory | None:
    """A static source's hosts as Ansible reads them (refused when it cannot); None for a
    source in a repository, whose hosts are read from a checkout."""
    if source.kind == InventoryKind.STATIC:
        return _check_static(source)
    _check_from_repository(session, project, source)
    return None


def _keep_hosts(inventory: Inventory, resolved: ResolvedInventory) -> None:
    """Keep the hosts as resolved now for the hosts view (``InventoryHost``), each with every
    group it belongs to, directly or through a child group (``all`` left out)."""
    parents: dict[str, list[str]] = {}
    for group in resolved.groups:
        for child in group.children:
            parents.setdefault(child, []).append(group.name)

    def ancestry(groups: list[str]) -> list[str]:
        found: set[str] = set()
        todo = list(groups)
        while todo:
            name = todo.pop()
            if name not in found:
                found.add(name)
                todo += parents.get(name, [])
        return sorted(found - {"all"})

    connections = connection.of(resolved)
    inventory.host_rows = [
        InventoryHost(
            name=host.name,
            groups=ancestry(host.groups),
            vars=host.vars,
            connection=connections.get(host.name, {}),
        )
        for host in resolved.hosts
    ]
    inventory.hosts_read_at = utcnow()


def keep_unread_hosts(session: Session, project_id: int | None) -> None:
    """Read the hosts of the static inventories whose hosts were never read (saved before the
    hosts view kept them): once each, for the hosts view. ``project_id`` None: every project."""
    query = select(Inventory).where(
        Inventory.kind == InventoryKind.STATIC,
        Inventory.format.is_not(None),
        Inventory.hosts_read_at.is_(None),
    )
    if project_id is not None:
        query = query.where(Inventory.project_id == project_id)
    unread = list(session.scalars(query))
    for inventory in unread:
        try:
            _keep_hosts(inventory, _parse_static(static_format(inventory), inventory.content))
        except InvalidInput:  # no longer parses (an older Ansible took it): nothing to list
            inventory.host_rows = []
            inventory.hosts_read_at = utcnow()
    if unread:
        session.commit()


def _check_static(source: Source) -> ResolvedInventory:
    if source.format is None:
        raise InvalidInput("format", "a static inventory needs a format: ini or yaml")
    for field in ("repository_id", "path"):
        if getattr(source, field):
            raise InvalidInput(field, "only file and plugin inventories come from a repository")
    return _parse_static(source.format, source.content)


def _check_from_repository(session: Session, project: Project, source: Source) -> None:
    for field in ("format", "content"):
        if getattr(source, field):
            raise InvalidInput(field, "only static inventories have inline content")
    if source.repository_id is None:
        raise InvalidInput("repository_id", f"a {source.kind} inventory needs a repository")
    found = session.scalar(
        select(Repository.id).where(
            Repository.id == source.repository_id, Repository.project_id == project.id
        )
    )
    if found is None:
        raise InvalidInput(
            "repository_id", f"repository {source.repository_id} does not exist in this project"
        )
    if not source.path:
        raise InvalidInput("path", f"a {source.kind} inventory needs a path in the repository")


def _check_in_checkout(session: Session, reach: Reach, source: Source) -> None:
    """A file or plugin inventory's path must exist in a checkout of its repository that stays
    inside itself (a directory's files included: ``containment`` checks every symlink)."""
    if source.kind == InventoryKind.STATIC:
        return
    repository = session.get_one(Repository, source.repository_id)
    require_path(session, reach, repository, source.path, field="path", regular_file=False)


def health_counts(session: Session, inventory_ids: Sequence[int]) -> dict[int, InventoryHealth]:
    """Per inventory: its hosts unreachable now, checked, listed (each host's latest health
    check, ``steward.health``); one query."""
    if not inventory_ids:
        return {}
    failing = [status.value for status in FAILING]
    rows = session.execute(
        select(
            InventoryHost.inventory_id,
            func.count(),
            func.count(HostHealth.host),
            func.count(HostHealth.host).filter(HostHealth.status.in_(failing)),
        )
        .outerjoin(
            HostHealth,
            and_(
                HostHealth.inventory_id == InventoryHost.inventory_id,
                HostHealth.host == InventoryHost.name,
            ),
        )
        .where(InventoryHost.inventory_id.in_(list(inventory_ids)))
        .group_by(InventoryHost.inventory_id)
    )
    return {
        inventory: InventoryHealth(unreachable_now=bad, checked=checked, hosts=listed)
        for inventory, listed, checked, bad in rows
    }
