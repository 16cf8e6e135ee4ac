"""Checking hosts and keeping what was found: the health guard, targets from the inventories'
hosts as last read, many checks at once (``probe``), history and latest written together.
Used by the health service (periodic, on demand) and by a run's pre-flight
(``execution.preflight``)."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.config import Settings
from steward.db import insert_of, upsert, utcnow
from steward.health import probe, targets
from steward.health.models import HostCheck, HostHealth, Trigger
from steward.inventories.models import Inventory, InventoryHost
from steward.outbound import network

SETTING = "STEWARD_HEALTH_ALLOWED_NETWORKS"
WRITE_BATCH = 500  # results written per statement
# what a newer check replaces in a host's latest (``HostHealth``)
LATEST = ("checked_at", "status", "tcp_ms", "banner_ms", "reason")


def guard(settings: Settings) -> network.Guard:
    """Where health checks may connect: the outbound rules, and the health allow-list."""
    return network.Guard.of(settings).allowing(settings.health_allowed_networks, SETTING)


@dataclasses.dataclass(frozen=True)
class Limits:
    timeout: float
    concurrency: int

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        return cls(settings.health_timeout_seconds, settings.health_concurrency)


def run_checks(
    found: Sequence[probe.Target], settings: Settings, limits: Limits | None = None
) -> list[probe.Result]:
    limits = limits or Limits.of(settings)
    return probe.check_all(
        found, guard(settings), timeout=limits.timeout, concurrency=limits.concurrency
    )


def listed_targets(
    session: Session,
    *,
    project_id: int | None = None,
    inventory_id: int | None = None,
    host: str | None = None,
) -> tuple[list[probe.Target], dict[int, int]]:
    """The targets of the inventories' hosts as last read (of one project, inventory or host;
    none given: every inventory), and each inventory's project."""
    query = select(
        Inventory.project_id,
        InventoryHost.inventory_id,
        InventoryHost.name,
        InventoryHost.connection,
    ).join(Inventory, Inventory.id == InventoryHost.inventory_id)
    if project_id is not None:
        query = query.where(Inventory.project_id == project_id)
    if inventory_id is not None:
        query = query.where(InventoryHost.inventory_id == inventory_id)
    if host is not None:
        query = query.where(InventoryHost.name == host)
    found: list[probe.Target] = []
    projects: dict[int, int] = {}
    for project, inventory, name, connection in session.execute(query):
        projects[inventory] = project
        found.append(targets.of(inventory, name, dict(connection or {})))
    return found, projects


def record(
    session: Session,
    results: Iterable[probe.Result],
    projects: dict[int, int],
    trigger: Trigger,
    *,
    at: dt.datetime | None = None,
) -> None:
    """Keep ``results`` as history and as each host's latest (an upsert per dialect); the
    caller commits."""
    at = at or utcnow()
    rows: list[dict[str, Any]] = [
        {
            "inventory_id": r.key[0],
            "host": r.key[1],
            "checked_at": at,
            "status": r.status.value,
            "tcp_ms": r.tcp_ms,
            "banner_ms": r.banner_ms,
            "reason": r.reason[: probe.REASON_MAX],
        }
        for r in results
        if r.key[0] in projects
    ]
    if not rows:
        return
    insert = insert_of(session)
    for first in range(0, len(rows), WRITE_BATCH):
        batch = rows[first : first + WRITE_BATCH]
        session.execute(
            insert(HostCheck),
            [{**row, "project_id": projects[row["inventory_id"]], "trigger": trigger.value}
             for row in batch],
        )  # fmt: skip
        upsert(
            session,
            HostHealth,
            batch,
            [HostHealth.inventory_id, HostHealth.host],
            lambda new: {name: getattr(new, name) for name in LATEST},
        )
