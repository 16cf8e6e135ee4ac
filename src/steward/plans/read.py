"""The read of a plan: its summary line, the hosts that would change, its first results grouped by
task (unknowns first) with per-host diffs, its binding, approval and apply; and its task list in
pages (``task_page``: each task with its host count), a task's results with their diffs in pages
(``task_hosts``). The counts come from one aggregate query on ``run_changes`` (its index: run,
outcome, task path)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ColumnElement, and_, distinct, func, or_, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import ProjectAccess
from steward.auth.models import User
from steward.db import utcnow
from steward.errors import InvalidInput, NotFound
from steward.plans import approvers, binding, service
from steward.plans.schemas import (
    PlanApproval,
    PlanBinding,
    PlanHostItem,
    PlanHostPage,
    PlanRead,
    PlanTask,
    PlanTaskEntry,
    PlanTaskPage,
)
from steward.runs.models import Plan, Run, RunChange
from steward.runs.params import RunParams
from steward.runs.status import RunStatus
from steward.templates.models import Template

ITEMS_SHOWN = 5000  # host results a drift lists with their diffs; the counts are of all of them
READ_ITEMS = 100  # the plan read's first results with their diffs (the rest: ``task_page``)
UNKNOWN = "unknown"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(hosts: int, tasks: int, unknown: int) -> str:
    return (
        f"{_plural(hosts, 'host')} {'changes' if hosts == 1 else 'change'},"
        f" {_plural(tasks, 'task')}, {unknown} unknown"
    )


def counts(session: Session, run_id: int) -> tuple[int, int, int]:
    """Hosts that would change, tasks that would change, tasks whose outcome is unknown."""
    rows = dict(
        (outcome, (hosts, tasks))
        for outcome, hosts, tasks in session.execute(
            select(
                RunChange.outcome,
                func.count(distinct(RunChange.host)),
                func.count(distinct(RunChange.task_path)),
            )
            .where(RunChange.run_id == run_id)
            .group_by(RunChange.outcome)
        )
    )
    hosts, tasks = rows.get("change", (0, 0))
    return hosts, tasks, rows.get("unknown", (0, 0))[1]


def tasks(
    session: Session, run_id: int, *where: ColumnElement[bool], shown: int = ITEMS_SHOWN
) -> tuple[list[PlanTask], bool]:
    """The plan's results grouped by task, unknowns first (``where``: only some of them, e.g.
    one host's); whether more than ``shown`` were left out."""
    query = (
        select(RunChange)
        .where(RunChange.run_id == run_id, *where)
        .order_by(RunChange.outcome.desc(), RunChange.counter)  # unknown before change
        .limit(shown + 1)
    )
    found = list(session.scalars(query))
    grouped: dict[tuple[str, str], PlanTask] = {}
    for row in found[:shown]:
        key = (row.outcome, row.task_path)
        task = grouped.get(key)
        if task is None:
            task = grouped[key] = PlanTask(
                task=row.task,
                task_path=row.task_path,
                action=row.action,
                outcome="unknown" if row.outcome == "unknown" else "change",
                hosts=[],
            )
        task.hosts.append(PlanHostItem.model_validate(row))
    return list(grouped.values()), len(found) > shown


def _result(session: Session, run_id: int, counter: int, field: str) -> RunChange:
    row = session.scalar(
        select(RunChange).where(RunChange.run_id == run_id, RunChange.counter == counter)
    )
    if row is None:
        raise InvalidInput(field, f"no result of plan {run_id} is event {counter}")
    return row


def task_page(session: Session, run: Run, after: int | None, limit: int) -> PlanTaskPage:
    """A page of the plan's tasks, grouped by task as ``tasks`` groups them (unknowns first,
    then in the order they ran), each with its host and result counts; ``after``: the key (the
    first result's counter) of the previous page's last task (422 naming it when it is none)."""
    service.plan_of(session, run)
    first = func.min(RunChange.counter)
    query = (
        select(
            RunChange.outcome,
            RunChange.task_path,
            first,
            func.min(RunChange.task),
            func.min(RunChange.action),
            func.count(distinct(RunChange.host)),
            func.count(),
        )
        .where(RunChange.run_id == run.id)
        .group_by(RunChange.outcome, RunChange.task_path)
        .order_by(RunChange.outcome.desc(), first)  # unknown before change, as ``tasks``
        .limit(limit + 1)
    )
    if after is not None:
        last = _result(session, run.id, after, "after")
        later = and_(RunChange.outcome == last.outcome, first > after)
        query = query.having(or_(later, RunChange.outcome < last.outcome))
    rows = session.execute(query).all()
    items = [
        PlanTaskEntry(
            key=key,
            task=task,
            task_path=path,
            action=action,
            outcome="unknown" if outcome == UNKNOWN else "change",
            host_count=hosts,
            result_count=results,
        )
        for outcome, path, key, task, action, hosts, results in rows[:limit]
    ]
    return PlanTaskPage(items=items, next_after=items[-1].key if len(rows) > limit else None)


def task_hosts(
    session: Session, run: Run, task: int, after: int | None, limit: int
) -> PlanHostPage:
    """A page of one task's results with their diffs, in the order they came; ``task``: a
    result's counter (its ``PlanTaskEntry.key``; 404 when the plan has none), ``after``: the
    previous page's last counter."""
    service.plan_of(session, run)
    row = session.scalar(
        select(RunChange).where(RunChange.run_id == run.id, RunChange.counter == task)
    )
    if row is None:
        raise NotFound(f"plan {run.id} has no task {task}")
    query = (
        select(RunChange)
        .where(
            RunChange.run_id == run.id,
            RunChange.outcome == row.outcome,
            RunChange.task_path == row.task_path,
        )
        .order_by(RunChange.counter)
        .limit(limit + 1)
    )
    if after is not None:
        query = query.where(RunChange.counter > after)
    found = list(session.scalars(query))
    items = [PlanHostItem.model_validate(r) for r in found[:limit]]
    return PlanHostPage(items=items, next_after=items[-1].counter if len(found) > limit else None)


def _hosts(session: Session, run_id: int) -> list[str]:
    return list(
        session.scalars(
            select(RunChange.host)
            .where(RunChange.run_id == run_id, RunChange.outcome == "change")
            .distinct()
            .order_by(RunChange.host)
        )
    )


def _changed(session: Session, run: Run, plan: Plan) -> list[str]:
    template = session.get(Template, run.template_id) if run.template_id else None
    if template is None:
        return ["the template"]
    params = RunParams.of(run.params, run.id)
    return binding.changed(plan.binding, binding.binding(session, template, params))


def read(
    session: Session, rights: ProjectAccess, actor: Actor, run: Run, now: dt.datetime | None = None
) -> PlanRead:
    plan = service.plan_of(session, run)
    moment = now or utcnow()
    hosts, task_count, unknown = counts(session, run.id)
    items, truncated = tasks(session, run.id, shown=READ_ITEMS)
    decider = session.get(User, plan.approved_by_id) if plan.approved_by_id else None
    refused = approvers.refusal(rights, actor, run, approve=True)
    state = plan.approval or "waiting" if plan.needs_approval else plan.approval or "not_needed"
    applied = session.get(Run, plan.apply_run_id) if plan.apply_run_id else None
    changed = _changed(session, run, plan)
    refused_apply = refusal(session, run, plan, moment, changed)
    return PlanRead(
        run_id=run.id,
        status=RunStatus(run.status),
        summary=summary(hosts, task_count, unknown),
        hosts_changing=_hosts(session, run.id),
        host_count=hosts,
        task_count=task_count,
        unknown_count=unknown,
        tasks=items,
        tasks_truncated=truncated,
        expires_at=plan.expires_at,
        expired=service.expired(plan, moment),
        binding=PlanBinding(
            commit=run.commit_hash,
            inventory_hosts=plan.inventory_host_count,
            inventory_recorded=bool(plan.inventory_hash),
            changed=changed,
        ),
        approval=PlanApproval(
            required=plan.needs_approval,
            state=state,  # type: ignore[arg-type]
            decided_by_id=plan.approved_by_id,
            decided_by=decider.username if decider else "",
            comment=plan.approval_comment,
            decided_at=plan.decided_at,
            who=approvers.who(run),
            can_approve=plan.needs_approval and not plan.approval and not refused,
            approve_reason=refused,
        ),
        apply_run_id=plan.apply_run_id,
        apply_status=RunStatus(applied.status) if applied else None,
        apply_refusal=refused_apply,
    )


def refusal(
    session: Session, run: Run, plan: Plan, now: dt.datetime, changed: list[str] | None = None
) -> str:
    """Why plan ``run`` cannot be applied now ('' when it can; the branch head is asked only
    when applying): the plan read's, and drift's "apply to fix"."""
    said = service.standing_refusal(run, plan, now)
    moved = _changed(session, run, plan) if changed is None and not said else changed or []
    if not said and moved:
        said = f"{', '.join(moved)} changed since the plan: {service.PLAN_AGAIN}"
    return said
