"""A run's pre-flight (the template's ``preflight``): before ansible-playbook starts, its target
hosts checked on the port Ansible uses (``steward.health``), with the inventory read as the run
reads it (its checkout, its sandbox) and the run's limit applied as Ansible reads it
(``metrics.limit.selected``; a limit that reading does not understand: every host).

- ``check``: the failing hosts are recorded on the run (``RunPreflightHost``), nothing else.
- ``skip_unreachable``: they are also left out of the run: the run's limit becomes its elements
  (as Ansible splits them) followed by ``!host`` for each, a value built here from the
  inventory's own host names, never from a launch value. A name that could mean more than the
  one host to Ansible (a glob or range character, a colon, a group's name) is not excluded: the
  run fails and says which, rather than run with a limit that could leave out others. The
  composed limit passes the limit rule every launch passes (``templates.patterns``) and must
  select exactly the hosts meant; when every target host fails, the run fails with their
  reasons.

Checks are kept in the hosts' health history (trigger ``preflight``).
"""

from __future__ import annotations

import dataclasses
import logging
import re

from steward.execution.ansible.playbook import RunnerSpec
from steward.health import checks, targets
from steward.health.models import FAILING, RunPreflightHost, Trigger
from steward.health.probe import Result
from steward.inventories import connection
from steward.inventories.models import Inventory
from steward.inventories.resolve import InventoryUnparsable, ResolvedInventory, as_run_reads
from steward.metrics import limit as limits
from steward.runs.models import Run
from steward.runtime import Runtime
from steward.templates.models import Preflight
from steward.templates.patterns import host_pattern_elements, limit_refusal

log = logging.getLogger(__name__)

# a host name that, after "!", means that host and nothing else to Ansible
EXCLUDABLE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,254}")
COMPOSED_MAX = 128 * 1024  # characters of a composed --limit (an argument of its own)
REASONS_SHOWN = 5


@dataclasses.dataclass(frozen=True)
class Outcome:
    spec: RunnerSpec  # the spec to run (its limit composed when hosts were left out)
    refusal: str = ""  # why the run may not go on ('' when it may)


def _mode(run: Run) -> Preflight:
    try:
        return Preflight(str((run.template_snapshot or {}).get("preflight", Preflight.OFF)))
    except ValueError:
        return Preflight.OFF


def compose(resolved: ResolvedInventory, limit: str, excluded: list[str]) -> tuple[str, str]:
    """The run's limit with ``excluded`` left out, or why it cannot be composed safely:
    (limit, '') or ('', refusal)."""
    groups = {group.name for group in resolved.groups}
    unsafe = [n for n in excluded if not EXCLUDABLE.fullmatch(n) or n in groups]
    if unsafe:
        shown = ", ".join(f"'{n[:60]}'" for n in unsafe[:REASONS_SHOWN])
        return "", (
            f"pre-flight: {shown} failed, and a name like that cannot be left out of the run"
            " safely (a pattern character, or a group's name): fix the host, or set the"
            " template's preflight to check"
        )
    composed = ",".join(
        (host_pattern_elements(limit) or ["all"]) + [f"!{name}" for name in excluded]
    )
    wanted = limits.selected(resolved, limit)
    problem = limit_refusal(composed)
    if problem is None and len(composed) > COMPOSED_MAX:
        problem = f"{len(excluded)} hosts are too many to leave out by name"
    if (
        problem is None
        and wanted is not None
        and limits.selected(resolved, composed) != wanted - set(excluded)
    ):
        problem = "the composed limit does not select the hosts meant"
    if problem is not None:
        return "", f"pre-flight: the run's limit could not leave out the failing hosts: {problem}"
    return composed, ""


def _reasons(failing: list[Result]) -> str:
    shown = "; ".join(f"{r.key[1]}: {r.reason or r.status.value}" for r in failing[:REASONS_SHOWN])
    more = len(failing) - REASONS_SHOWN
    return shown + (f"; and {more} more" if more > 0 else "")


def run(runtime: Runtime, run_id: int, spec: RunnerSpec) -> Outcome:
    """The pre-flight of run ``run_id``, when its template asks for one."""
    with runtime.sessions() as session:
        row = session.get_one(Run, run_id)
        mode = _mode(row)
        if mode is Preflight.OFF:
            return Outcome(spec)
        inventory_id = (row.template_snapshot or {}).get("inventory_id")
        inventory = session.get(Inventory, inventory_id) if inventory_id else None
        if inventory is None or inventory.project_id != row.project_id:
            return Outcome(spec, "pre-flight: the run's inventory no longer exists")
        project_id = row.project_id
        try:
            resolved = as_run_reads(inventory, spec.inventory, spec.project_dir, runtime.sandbox)
        except InventoryUnparsable as exc:
            if mode is Preflight.CHECK:
                log.warning("run %s: pre-flight could not read the inventory", run_id)
                return Outcome(spec)
            return Outcome(spec, f"pre-flight: the inventory could not be read: {exc.reason}"[:500])
        chosen = limits.selected(resolved, spec.limit)
        found = connection.of(resolved)
        names = sorted(found if chosen is None else chosen & set(found))
        probes = [targets.of(inventory.id, name, found[name]) for name in names]
        results = checks.run_checks(probes, runtime.settings)
        failing = [r for r in results if r.status in FAILING]
        outcome = _decide(mode, spec, resolved, results, failing)
        skipped = outcome.spec is not spec
        checks.record(session, results, {inventory.id: project_id}, Trigger.PREFLIGHT)
        session.add_all(
            RunPreflightHost(
                run_id=run_id, host=r.key[1], status=r.status, reason=r.reason, skipped=skipped
            )
            for r in failing
        )
        session.commit()
    return outcome


def _decide(
    mode: Preflight,
    spec: RunnerSpec,
    resolved: ResolvedInventory,
    results: list[Result],
    failing: list[Result],
) -> Outcome:
    if mode is not Preflight.SKIP_UNREACHABLE or not failing:
        return Outcome(spec)
    if len(failing) == len(results):
        return Outcome(spec, f"pre-flight: no target host is reachable: {_reasons(failing)}"[:1000])
    composed, refusal = compose(resolved, spec.limit, [r.key[1] for r in failing])
    if refusal:
        return Outcome(spec, refusal)
    return Outcome(dataclasses.replace(spec, limit=composed))
