"""What a plan predicts and what its apply changed, per host and task (``plans``): the
``run_changes`` rows, from the run's stored (masked) events once the playbook ended.

A task is known across a plan and its apply (one commit) by its path (``file:line``), the host
and its occurrence there (the nth result of that path on that host: a task of an included file
or a role may run more than once).

A plan's row is a result that would change (with its unified diff, cut at
``PLAN_DIFF_RESULT_MAX`` a result by the callback and at ``PLAN_DIFF_RUN_MAX`` a plan here) or
one whose outcome is **unknown**: skipped because its module cannot run in check mode (Ansible
says "does not support check mode"; command and shell "would have run"), or a later task on the
host whose conditions, loop or arguments name a variable an unknown task registered. An apply's
row is a result that changed; one its plan neither predicted nor marked unknown is
**unplanned**."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Set
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.orm import Session

from steward.bounds import KIB, PLAN_DIFF_RUN_MAX
from steward.runs.models import Run, RunChange, RunEvent, RunKind

RESULT_EVENTS = ("runner_on_ok", "runner_on_failed", "runner_on_skipped")
TASK_START = "playbook_on_task_start"
CHANGE, UNKNOWN = "change", "unknown"
CHECK_MODE_SKIP = "check mode"  # in every skip message of a module that cannot be predicted
RUN_CUT = f"[diff cut: the plan's diffs reached {PLAN_DIFF_RUN_MAX // KIB} KiB]\n"

Key = tuple[str, str, int]  # task path, host, occurrence


@dataclasses.dataclass(frozen=True)
class Event:
    counter: int
    event: str
    host: str
    task: str
    action: str
    changed: bool
    data: dict[str, Any]


def _unknown_reason(event: Event, refs: Set[str], unknown: dict[str, str]) -> str:
    message = str(event.data.get("skip_msg") or "")
    if event.event == "runner_on_skipped" and CHECK_MODE_SKIP in message.lower():
        return f"skipped in check mode: {message}"
    named = sorted(refs & unknown.keys())
    if named:
        return (
            f"depends on '{named[0]}', registered by task '{unknown[named[0]]}'"
            " whose result could not be predicted"
        )
    return ""


def rows(
    run_id: int,
    events: Iterable[Event],
    *,
    plan: bool,
    planned: Set[Key] = frozenset(),
    project_dir: str = "",
) -> list[dict[str, Any]]:
    """The ``run_changes`` rows of a run's events, in order. ``plan``: a plan's (changes and
    unknowns, with diffs); else an apply's (changes, ``planned``: the keys its plan predicted or
    marked unknown). ``project_dir``: the checkout's path with a final "/", cut from task paths
    (each run has its own; the path in the repository stays)."""
    tasks: dict[str, tuple[list[str], frozenset[str]]] = {}  # task uuid -> (registers, refs)
    unknown_vars: dict[str, dict[str, str]] = {}  # host -> {registered variable: task}
    seen: dict[tuple[str, str], int] = {}
    budget = PLAN_DIFF_RUN_MAX
    out: list[dict[str, Any]] = []
    for event in events:
        if event.event == TASK_START:
            refs, registers = event.data.get("refs"), event.data.get("register")
            tasks[str(event.data.get("task_uuid", ""))] = (
                [str(r) for r in registers] if isinstance(registers, list) else [],
                frozenset(str(r) for r in refs) if isinstance(refs, list) else frozenset(),
            )
            continue
        path = str(event.data.get("task_path") or event.task).removeprefix(project_dir)[:1000]
        occurrence = seen[(path, event.host)] = seen.get((path, event.host), 0) + 1
        row = {
            "run_id": run_id,
            "counter": event.counter,
            "host": event.host,
            "task": event.task[:500],
            "task_path": path,
            "occurrence": occurrence,
            "action": event.action[:200],
            "reason": "",
            "diff": "",
            "unplanned": False,
        }
        if not plan:
            if event.changed:
                unplanned = (path, event.host, occurrence) not in planned
                out.append({**row, "outcome": CHANGE, "unplanned": unplanned})
            continue
        registers, refs = tasks.get(str(event.data.get("task_uuid", "")), ([], frozenset()))
        host_unknown = unknown_vars.setdefault(event.host, {})
        reason = _unknown_reason(event, refs, host_unknown)
        if reason:
            for register in registers:
                host_unknown[register] = event.task
            out.append({**row, "outcome": UNKNOWN, "reason": reason[:2000]})
        elif event.changed:
            diff = str(event.data.get("plan_diff") or "")
            if len(diff) > budget:
                diff = diff[: max(budget, 0)] + ("\n" if budget > 0 else "") + RUN_CUT
                budget = 0
            else:
                budget -= len(diff)
            out.append({**row, "outcome": CHANGE, "diff": diff})
    return out


def _events(session: Session, run_id: int) -> Iterable[Event]:
    query = (
        select(
            RunEvent.counter,
            RunEvent.event,
            RunEvent.host,
            RunEvent.task,
            RunEvent.task_action,
            RunEvent.changed,
            RunEvent.data,
        )
        .where(RunEvent.run_id == run_id, RunEvent.event.in_((*RESULT_EVENTS, TASK_START)))
        .order_by(RunEvent.counter)
        .execution_options(yield_per=2000)
    )
    for row in session.execute(query):
        yield Event(*row)


def record(session: Session, run: Run, project_dir: str) -> int:
    """Store the ``run_changes`` of a plan or an apply that ran; how many. Commits."""
    kind = RunKind(run.kind)
    if kind is RunKind.RUN:
        return 0
    planned: set[Key] = set()
    if kind is RunKind.APPLY and run.plan_id is not None:
        planned = {
            (path, host, n)
            for path, host, n in session.execute(
                select(RunChange.task_path, RunChange.host, RunChange.occurrence).where(
                    RunChange.run_id == run.plan_id
                )
            )
        }
    found = rows(
        run.id,
        _events(session, run.id),
        plan=kind is RunKind.PLAN,
        planned=planned,
        project_dir=project_dir.rstrip("/") + "/",
    )
    if found:
        session.execute(insert(RunChange), found)
    session.commit()
    return len(found)
