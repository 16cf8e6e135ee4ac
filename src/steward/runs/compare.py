"""2 to 4 runs side by side: their parameters, per-host recaps and per-task durations, aligned.

A task is identified across runs by its play, role, name and occurrence (the second "restart"
of a play is not the first one), so repeated task names line up; a task one run did not reach
is ``None`` in that run's column. Durations come from one grouped query over the runs' results
(each task's first start and last end over its hosts), never from the events' data.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Collection, Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field
from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from steward.bounds import COMPARE_RUNS_MAX, ID_MAX
from steward.errors import InvalidInput, NotFound
from steward.execution.recorder import REQUIREMENTS_EVENT
from steward.projects.models import Project
from steward.runs import output, refs, service
from steward.runs.models import Run, RunEvent, RunHost
from steward.runs.params import RunParams
from steward.runs.schemas import HostRecap, RunRead, RunRefs

COMPARE_RUNS_MIN = 2
TASKS_MAX = 5000  # aligned task rows in one answer (a run of more is cut, and says so)
HOSTS_MAX = 5000  # hosts in the recap side by side
VALUE_MAX = 500  # characters of one shown parameter value
MASKED = "********"  # a secret survey answer, shown as the run page shows it
IDS_TEXT_MAX = 100  # "1,2,3,4" as typed: four ids of ten digits and their commas fit easily
HOST_KEYS = [column.key for column in output.HOST_COLUMNS]


class ParamRow(BaseModel):
    name: str = Field(description="what the row shows: 'Inventory', 'vars.nap', …")
    values: list[str] = Field(description="as shown, one per run in the asked order")
    differs: bool


class HostRow(BaseModel):
    host: str
    recaps: list[HostRecap | None] = Field(description="per run; null: the host was not in it")
    differs: bool


class TaskCell(BaseModel):
    seconds: float | None = Field(description="from the first host's start to the last's end")
    start: float | None = Field(description="seconds from the run's start")
    end: float | None
    hosts: int = Field(description="results (one per host)")
    failed: int = Field(description="failed or unreachable results")
    status: Literal["failed", "unreachable", "changed", "ok", "skipped"]


class TaskRow(BaseModel):
    play: str
    role: str
    task: str
    occurrence: int = Field(description="1 for the first task of this play, role and name")
    kind: Literal["task", "requirements"]
    cells: list[TaskCell | None] = Field(description="per run; null: the run has no such task")
    delta_seconds: list[float | None] = Field(description="vs the first run (the baseline)")
    delta_percent: list[float | None]


class RunsCompared(BaseModel):
    runs: list[RunRead]
    same_template: bool = Field(description="false: runs of different templates are compared")
    durations: list[float | None] = Field(description="seconds each run took (start to end)")
    parameters: list[ParamRow]
    hosts: list[HostRow]
    hosts_truncated: bool
    tasks: list[TaskRow] = Field(description="in playbook order (merged over the runs)")
    tasks_truncated: bool


def run_ids(text: str) -> list[int]:
    """``"12,15,18"`` -> [12, 15, 18]: 2 to 4 distinct run ids, else a 422 on ``ids``."""
    parts = [p.strip() for p in text.split(",")]
    if any(not p.isascii() or not p.isdigit() for p in parts):
        raise InvalidInput("ids", "must be run ids separated by commas, e.g. 12,15")
    ids = [int(p) for p in parts]
    if any(i < 1 or i > ID_MAX for i in ids):
        raise InvalidInput("ids", f"a run id is between 1 and {ID_MAX}")
    if len(set(ids)) != len(ids):
        raise InvalidInput("ids", "names a run twice")
    if not COMPARE_RUNS_MIN <= len(ids) <= COMPARE_RUNS_MAX:
        raise InvalidInput(
            "ids", f"compare {COMPARE_RUNS_MIN} to {COMPARE_RUNS_MAX} runs, not {len(ids)}"
        )
    return ids


def compare(
    session: Session,
    project: Project,
    ids: Sequence[int],
    *,
    templates: Collection[int] | None,
    sees_keys: bool,
) -> RunsCompared:
    """``templates``: the ids whose runs the caller may see (None: all). One run that is not
    found or not visible is a 404 for the whole request, worded as for a missing run."""
    found = {
        r.id: r
        for r in session.scalars(select(Run).where(Run.project_id == project.id, Run.id.in_(ids)))
    }
    runs = []
    for run_id in ids:
        run = found.get(run_id)
        if run is None or (templates is not None and run.template_id not in templates):
            raise NotFound(f"run {run_id} not found in project '{project.name}'")
        runs.append(run)
    reads = [_read(session, run, sees_keys) for run in runs]
    hosts, hosts_truncated = _hosts(session, runs)
    tasks, tasks_truncated = _tasks(session, runs)
    return RunsCompared(
        runs=reads,
        same_template=len({r.template_id for r in runs}) == 1,
        durations=[_seconds(r.started_at, r.finished_at) for r in runs],
        parameters=_parameters(reads),
        hosts=hosts,
        hosts_truncated=hosts_truncated,
        tasks=tasks,
        tasks_truncated=tasks_truncated,
    )


def _read(session: Session, run: Run, sees_keys: bool) -> RunRead:
    template, user = service.names(session, run)
    params = RunParams.of(run.params, run.id)
    named = refs.refs(session, run.project_id, run.id, params, sees_keys=sees_keys)
    return RunRead.model_validate(run).model_copy(
        update={"template_name": template, "launched_by": user, "refs": named}
    )


def _seconds(start: dt.datetime | None, end: dt.datetime | None) -> float | None:
    if start is None or end is None:
        return None
    return round((end - start).total_seconds(), 3)


# --- parameters ----------------------------------------------------------------------------------


def _shown(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= VALUE_MAX else text[: VALUE_MAX - 1] + "…"


def _how(run: RunRead) -> str:
    """As the runs list says it: "schedule 3 (alice)" (a schedule fires as its owner)."""
    if run.workflow_run_id:
        return f"workflow run {run.workflow_run_id}"
    if run.schedule_id:
        return f"schedule {run.schedule_id}" + (f" ({run.launched_by})" if run.launched_by else "")
    if run.webhook_id:
        return f"webhook {run.webhook_id}"
    if run.relaunch_of_id:
        return f"relaunch of #{run.relaunch_of_id}"
    return str(run.launch_type)


def _named(name: str | None, object_id: int | None) -> str:
    """A name; ``None`` with an id: a key name not shown to this caller (as on the run page)."""
    if object_id is None:
        return "—"
    if name is None:
        return f"#{object_id}"
    return name or f"#{object_id} (deleted)"


def _rows_of(run: RunRead) -> dict[str, str]:
    p = run.params
    named = run.refs or RunRefs(repository="", inventory="")
    commit = f" @ {run.commit_hash[:12]}" if run.commit_hash else ""
    ref = f" (ref {p.ref})" if p.ref else ""
    vault = [_named(n, i) for n, i in zip(named.vault_keys, p.vault_key_ids, strict=False)]
    mode = [m for m in ("check" if p.check_mode else "", "diff" if p.diff_mode else "") if m]
    if p.verbosity:
        mode.append("-" + "v" * p.verbosity)
    rows = {
        "Label": run.label or "—",
        "Template": run.template_name or f"#{run.template_id}",
        "Playbook": p.playbook,
        "Repository": f"{_named(named.repository, p.repository_id)}{ref}{commit}",
        "Inventory": _named(named.inventory, p.inventory_id),
        "Environment": _named(named.environment, p.environment_id),
        "SSH key": _named(named.ssh_key, p.ssh_key_id),
        "Become key": _named(named.become_key, p.become_key_id),
        "Vault keys": ", ".join(vault) or "—",
        "Limit": p.limit or "all hosts",
        "Tags": p.tags or "—",
        "Skip tags": p.skip_tags or "—",
        "Mode": ", ".join(mode) or "normal",
        "Forks": str(p.forks) if p.forks else "default",
        "Timeout": f"{p.timeout_seconds} s" if p.timeout_seconds else "none",
        "Requirements": "installed" if p.install_requirements else "not installed",
        "Ansible": p.ansible_venv or "the server's own",
        "Runner group": run.runner_group,
        "Launched by": run.launched_by or "—",
        "How launched": _how(run),
        "From": run.source_ip or "—",
    }
    # the template's vars, overridden by those given at launch; secret answers stay masked
    variables: dict[str, str] = {k: _shown(v) for k, v in p.extra_vars.items()}
    variables |= {k: _shown(v) for k, v in p.launch_vars.items()}
    variables |= dict.fromkeys(p.secret_extra_vars, MASKED)
    rows |= {f"vars.{k}": v for k, v in sorted(variables.items())}
    return rows


def _parameters(runs: Sequence[RunRead]) -> list[ParamRow]:
    per_run = [_rows_of(r) for r in runs]
    names = list(dict.fromkeys(name for rows in per_run for name in rows))
    result = []
    for name in names:
        values = [rows.get(name, "(not set)") for rows in per_run]
        result.append(ParamRow(name=name, values=values, differs=len(set(values)) > 1))
    return result


# --- hosts ---------------------------------------------------------------------------------------


def _hosts(session: Session, runs: Sequence[Run]) -> tuple[list[HostRow], bool]:
    ids = [r.id for r in runs]
    query = (
        select(RunHost.run_id, *output.HOST_COLUMNS)
        .where(RunHost.run_id.in_(ids))
        .order_by(RunHost.host)
        .limit(HOSTS_MAX * len(ids) + 1)
    )
    by_host: dict[str, dict[int, HostRecap]] = {}
    rows = session.execute(query).all()
    for row in rows[: HOSTS_MAX * len(ids)]:
        run_id, *columns = row
        recap = HostRecap.model_validate(dict(zip(HOST_KEYS, columns, strict=True)))
        by_host.setdefault(recap.host, {})[run_id] = recap
    truncated = len(rows) > HOSTS_MAX * len(ids) or len(by_host) > HOSTS_MAX

    def failures(recaps: dict[int, HostRecap]) -> int:
        return sum(r.failed + r.unreachable for r in recaps.values())

    ordered = sorted(by_host.items(), key=lambda item: (-failures(item[1]), item[0]))[:HOSTS_MAX]
    result = []
    for host, recaps in ordered:
        cells = [recaps.get(i) for i in ids]
        counts = {None if c is None else c.model_dump_json(exclude={"host"}) for c in cells}
        result.append(HostRow(host=host, recaps=cells, differs=len(counts) > 1))
    return result, truncated


# --- tasks ---------------------------------------------------------------------------------------

Identity = tuple[str, str, str, int, str]  # play, role, task, occurrence, kind


def _task_groups(session: Session, ids: Sequence[int]) -> list[Any]:
    """Per run and task (its results' parent): names, first start, last end, counts; in order."""
    event = RunEvent.event
    ok = event == "runner_on_ok"
    query = (
        select(
            RunEvent.run_id,
            RunEvent.parent_uuid,
            RunEvent.play,
            RunEvent.role,
            RunEvent.task,
            func.min(RunEvent.counter).label("first"),
            func.min(RunEvent.started_at).label("start"),
            func.max(RunEvent.ended_at).label("end"),
            func.count().label("results"),
            func.sum(case((event == "runner_on_failed", 1), else_=0)).label("failed"),
            func.sum(case((event == "runner_on_unreachable", 1), else_=0)).label("unreachable"),
            func.sum(case((ok & RunEvent.changed.is_(True), 1), else_=0)).label("changed"),
            func.sum(case((ok, 1), else_=0)).label("ok"),
            func.max(case((event == REQUIREMENTS_EVENT, 1), else_=0)).label("requirements"),
        )
        .where(
            RunEvent.run_id.in_(ids),
            event.in_([*output.RESULT_STATUS, REQUIREMENTS_EVENT]),
        )
        .group_by(
            RunEvent.run_id, RunEvent.parent_uuid, RunEvent.play, RunEvent.role, RunEvent.task
        )
        .order_by(RunEvent.run_id, "first")
    )
    return list(session.execute(query).all())


def _cell(row: Any, run: Run) -> TaskCell:
    failed = int(row.failed or 0) + int(row.unreachable or 0)
    status: Literal["failed", "unreachable", "changed", "ok", "skipped"]
    if row.requirements:
        status = "failed" if row.failed else "ok"
    elif row.failed:
        status = "failed"
    elif row.unreachable:
        status = "unreachable"
    elif row.changed:
        status = "changed"
    elif row.ok:
        status = "ok"
    else:
        status = "skipped"
    return TaskCell(
        seconds=_seconds(row.start, row.end),
        start=_seconds(run.started_at, row.start),
        end=_seconds(run.started_at, row.end),
        hosts=int(row.results),
        failed=failed,
        status=status,
    )


def _merged(orders: Sequence[list[Identity]]) -> list[Identity]:
    """Every identity once, in playbook order: the first run's, and what a later run has that
    the earlier ones do not, right after the task it followed there."""
    merged: list[Identity] = []
    where: dict[Identity, int] = {}
    for order in orders:
        position = 0
        for identity in order:
            if identity in where:
                position = where[identity] + 1
                continue
            merged.insert(position, identity)
            if position == len(merged) - 1:
                where[identity] = position
            else:  # shifted what followed: renumber (rare: a task only a later run has)
                where = {known: i for i, known in enumerate(merged)}
            position += 1
    return merged


def task_cells(
    session: Session, runs: Sequence[Run], limit: int = TASKS_MAX
) -> tuple[dict[int, list[tuple[Identity, TaskCell]]], bool]:
    """Each run's tasks in order, identified across runs, with their cell; at most ``limit``
    distinct tasks over all the runs (True: some were left out)."""
    by_id = {r.id: r for r in runs}
    found: dict[int, list[tuple[Identity, TaskCell]]] = {r.id: [] for r in runs}
    seen: dict[int, dict[tuple[str, str, str], int]] = {r.id: {} for r in runs}
    known: set[Identity] = set()
    truncated = False
    for row in _task_groups(session, list(by_id)):
        kind = "requirements" if row.requirements else "task"
        name = (row.play, row.role, row.task if kind == "task" else "install requirements")
        occurrence = seen[row.run_id].get(name, 0) + 1
        seen[row.run_id][name] = occurrence
        identity: Identity = (*name, occurrence, kind)
        if identity not in known and len(known) >= limit:
            truncated = True
            continue
        known.add(identity)
        found[row.run_id].append((identity, _cell(row, by_id[row.run_id])))
    return found, truncated


def _tasks(session: Session, runs: Sequence[Run]) -> tuple[list[TaskRow], bool]:
    ids = [r.id for r in runs]
    found, truncated = task_cells(session, runs)
    cells: dict[Identity, dict[int, TaskCell]] = {}
    for run_id, tasks in found.items():
        for identity, cell in tasks:
            cells.setdefault(identity, {})[run_id] = cell
    orders = [[identity for identity, _ in found[i]] for i in ids]
    rows = []
    for identity in _merged(orders):
        play, role, task, occurrence, kind = identity
        row_cells = [cells[identity].get(i) for i in ids]
        base = row_cells[0].seconds if row_cells[0] else None
        deltas: list[float | None] = []
        percents: list[float | None] = []
        for other in row_cells:
            if base is None or other is None or other.seconds is None:
                deltas.append(None)
                percents.append(None)
                continue
            deltas.append(round(other.seconds - base, 3))
            percents.append(round((other.seconds - base) / base * 100, 1) if base > 0 else None)
        rows.append(
            TaskRow(
                play=play,
                role=role,
                task=task,
                occurrence=occurrence,
                kind="requirements" if kind == "requirements" else "task",
                cells=row_cells,
                delta_seconds=deltas,
                delta_percent=percents,
            )
        )
    return rows, truncated
