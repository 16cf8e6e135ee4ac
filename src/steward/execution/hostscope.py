"""A scoped run's last check before ansible-playbook: the run was launched by someone whose
grants limit them to some hosts (``RunParams.host_scope``), and its limit is already the
intersection with them (``templates.patterns.scoped_limit``). Here, with the inventory as the
run reads it *now* (its checkout, its sandbox), Ansible itself (``ansible-inventory --limit``)
lists the hosts the run's limit selects that none of the scope's entries selects; any such host
fails the run, named. A host added to a scoped group since the grant is in the scope; one taken
out of it is not. Unscoped runs skip this (no ansible-inventory start).
"""

from __future__ import annotations

from pathlib import Path

from steward.execution.ansible.playbook import RunnerSpec
from steward.execution.ansible.sandbox import Sandbox
from steward.inventories.models import Inventory, InventoryKind
from steward.inventories.resolve import InventoryUnparsable, plugins_for, resolve
from steward.runs.models import Run
from steward.runs.params import RunParams
from steward.runtime import Runtime
from steward.templates.patterns import host_pattern_elements, limit_refusal

SHOWN = 10


def run(runtime: Runtime, run_id: int, spec: RunnerSpec) -> str:
    """Why run ``run_id`` may not start ('' when it may, or when it has no host scope)."""
    with runtime.sessions() as session:
        row = session.get_one(Run, run_id)
        params = RunParams.of(row.params, run_id)
        if params.host_scope is None:
            return ""
        inventory = session.get(Inventory, params.inventory_id)
        if inventory is None or inventory.project_id != row.project_id:
            return "host scope: the run's inventory no longer exists"
        session.expunge(inventory)
    static = inventory.kind == InventoryKind.STATIC
    cwd = spec.inventory.parent if static else spec.project_dir
    return refusal(inventory, spec.inventory, cwd, spec.limit, params.host_scope, runtime.sandbox)


def outside_pattern(limit: str, scope: list[str]) -> str:
    """The hosts ``limit`` selects that no entry of ``scope`` selects, as one host pattern."""
    return ",".join([*host_pattern_elements(limit), *(f"!{entry}" for entry in scope)])


def refusal(
    inventory: Inventory,
    path: Path,
    cwd: Path,
    limit: str,
    scope: list[str],
    sandbox: Sandbox | None,
) -> str:
    """Why ``limit`` reaches a host of the inventory (its source at ``path``, read in ``cwd``)
    outside ``scope``, or ''."""
    pattern = outside_pattern(limit, scope)
    if not scope or limit_refusal(pattern):
        return "host scope: the run's limit and its host scope are not host patterns"
    try:
        found = resolve(
            path, cwd=cwd, plugins=plugins_for(inventory), sandbox=sandbox, limit=pattern
        )
    except InventoryUnparsable as exc:
        return f"host scope: the inventory could not be read: {exc.reason}"[:1000]
    names = sorted(host.name for host in found.hosts)
    if not names:
        return ""
    shown = ", ".join(names[:SHOWN]) + (
        f" and {len(names) - SHOWN} more" if len(names) > SHOWN else ""
    )
    return (
        f"host scope: the run would reach {shown}, outside the hosts its launcher may run on"
        f" ({', '.join(scope)})"
    )[:1000]
