"""The inventory a plan ran with, and an apply's check of it (``plans``).

A plan records a hash of its resolved inventory (``ansible-inventory --list --export`` in the
run's sandbox, with its environment: a dynamic inventory is asked like the playbook would ask
it) and of its host names, read beside its ansible-playbook (the executor); its apply computes
both again before ansible-playbook starts and fails, with the reason, when they differ."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any

from sqlalchemy import update
from sqlalchemy.orm import Session

from steward.errors import InvalidState
from steward.execution.ansible.playbook import RunnerSpec, inventory_listing
from steward.runs.models import Plan, Run


@dataclasses.dataclass(frozen=True)
class InventoryPrint:
    digest: str  # the whole listing: hosts, groups, variables
    hosts_digest: str  # the host names only
    host_count: int


def _sha(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def fingerprint_of(listing: dict[str, Any]) -> InventoryPrint:
    """The hashes of an ``ansible-inventory --list --export`` answer."""
    hosts: set[str] = set((listing.get("_meta") or {}).get("hostvars") or {})
    for name, group in listing.items():
        if name != "_meta" and isinstance(group, dict):
            hosts.update(str(h) for h in group.get("hosts") or [])
    return InventoryPrint(_sha(listing), _sha(sorted(hosts)), len(hosts))


def fingerprint(spec: RunnerSpec) -> InventoryPrint:
    try:
        listing = json.loads(inventory_listing(spec))
    except ValueError as exc:
        raise InvalidState("ansible-inventory did not answer with JSON") from exc
    return fingerprint_of(listing if isinstance(listing, dict) else {})


def refusal(planned: Plan, now: InventoryPrint) -> str:
    """Why an apply may not run with the inventory as it is ``now``; '' when it may."""
    if planned.inventory_hosts_hash and planned.inventory_hosts_hash != now.hosts_digest:
        change = now.host_count - planned.inventory_host_count
        said = (
            f"{change} host{'s were' if change > 1 else ' was'} added"
            if change > 0
            else f"{-change} host{'s were' if change < -1 else ' was'} removed"
            if change < 0
            else "its hosts were renamed"
        )
        return f"the inventory changed since the plan ({said}): plan again"
    if planned.inventory_hash and planned.inventory_hash != now.digest:
        return "the inventory's groups or variables changed since the plan: plan again"
    if not planned.inventory_hash:
        return "the plan did not record its inventory: plan again"
    return ""


def record(session: Session, run_id: int, now: InventoryPrint) -> None:
    """A plan's inventory: kept on its plan row (its apply compares with it). Commits."""
    session.execute(
        update(Plan)
        .where(Plan.run_id == run_id)
        .values(
            inventory_hash=now.digest,
            inventory_hosts_hash=now.hosts_digest,
            inventory_host_count=now.host_count,
        )
    )
    session.commit()


def check(session: Session, run: Run, spec: RunnerSpec) -> str:
    """An apply: '' when its inventory is its plan's, else why not (the run fails with it
    before ansible-playbook starts)."""
    planned = session.get(Plan, run.plan_id) if run.plan_id is not None else None
    if planned is None:
        return "its plan no longer exists: plan again"
    return refusal(planned, fingerprint(spec))
