"""Drift kept as runs end: ``runs.lifecycle`` calls ``on_success`` in the transaction of a run's
successful final status (a plan's changes are recorded before it, ``execution/changes``).

The rules, decided here once:

- **Found** by a scheduled plan (``Run.schedule_id``: a schedule of plans) that would change
  something on a template whose last run or apply (not a plan, not in check mode) finished
  cleanly: successful, no host failed or unreachable. A person's plan with changes is a change
  being reviewed, not drift: it leaves the state as it is.
- **The same drift** is the same fingerprint (each host, task path, occurrence and diff hash):
  a plan that finds it again moves ``plan_run_id`` to itself (a fresh plan for "apply to fix")
  and queues no message; a different fingerprint, or drift after a clean state, queues one
  ``drift_detected`` per destination and is audited (``drift:detect``).
- **Cleared** by any plan that finds no change (scheduled or not) and by a successful run or
  apply (which converged the hosts), audited (``drift:clear``) with the run and the reason.
- Only a run of the whole template speaks for its hosts: one launched with a limit, tags or
  skip tags other than the template's changes nothing; neither does an older run that ends
  after a newer one (``checked_run_id``).
"""

from __future__ import annotations

import hashlib
from typing import Any

from sqlalchemy import ScalarSelect, func, select, update
from sqlalchemy.orm import Session

from steward.audit import service as audit
from steward.audit.actions import AuditAction
from steward.db import insert_of, utcnow
from steward.drift.models import TemplateDrift
from steward.notifications import outbox
from steward.runs.models import Run, RunChange, RunHost, RunKind
from steward.runs.status import RunStatus
from steward.templates.models import Template

CHANGE = "change"
BASELINE_LOOKBACK = 20  # runs of the template read to find its last one that was not in check mode
FINISHED = (RunStatus.SUCCESSFUL, RunStatus.FAILED, RunStatus.ERROR, RunStatus.TIMED_OUT)
SCOPE = ("limit", "tags", "skip_tags")


def drifted_now() -> ScalarSelect[bool]:
    """On ``Run`` (in the RETURNING of its status change): whether its template is in drift."""
    return (
        select(TemplateDrift.drifted)
        .where(TemplateDrift.template_id == Run.template_id)
        .scalar_subquery()
    )


def on_success(session: Session, run_id: int) -> None:
    """Keep the drift of the template of run ``run_id``, which just succeeded (rules above)."""
    row = session.execute(
        select(Run, TemplateDrift.drifted)
        .outerjoin(TemplateDrift, TemplateDrift.template_id == Run.template_id)
        .where(Run.id == run_id)
    ).one_or_none()
    if row is None or row.Run.template_id is None:
        return
    run, drifted = row.Run, bool(row.drifted)
    kind = RunKind(run.kind)
    if kind is not RunKind.PLAN:
        if drifted and not run.params.get("check_mode") and _whole(session, run):
            what = "apply" if kind is RunKind.APPLY else "run"
            _clear(session, run, f"{what} {run.id} succeeded: it converged the hosts")
        return
    if not _whole(session, run):
        return
    found = _changes(session, run.id)
    if not found:
        _clear(session, run, f"plan {run.id} found no change", drifted=drifted)
        return
    if run.schedule_id is None:
        return  # a person's plan: a change being reviewed
    baseline = _clean_baseline(session, run)
    if baseline is None:
        if drifted:
            reason = f"plan {run.id}: the template's last run did not finish cleanly"
            _clear(session, run, reason)
        return
    _found(session, run, baseline, found)


def fingerprint(changes: list[tuple[str, str, int, str]]) -> str:
    """The drift's identity: each (host, task path, occurrence, diff) that would change."""
    digest = hashlib.sha256()
    for host, path, occurrence, diff in sorted(changes):
        diff_hash = hashlib.sha256(diff.encode()).hexdigest()
        digest.update(f"{host}\0{path}\0{occurrence}\0{diff_hash}\n".encode())
    return digest.hexdigest()


def _whole(session: Session, run: Run) -> bool:
    """Whether the run ran the template's whole scope (no other limit, tags or skip tags)."""
    template = session.get(Template, run.template_id)
    if template is None:
        return False
    return all((run.params.get(name) or "") == (getattr(template, name) or "") for name in SCOPE)


def _changes(session: Session, run_id: int) -> list[tuple[str, str, int, str]]:
    return [
        (host, path, occurrence, diff)
        for host, path, occurrence, diff in session.execute(
            select(RunChange.host, RunChange.task_path, RunChange.occurrence, RunChange.diff).where(
                RunChange.run_id == run_id, RunChange.outcome == CHANGE
            )
        )
    ]


def _clean_baseline(session: Session, plan: Run) -> int | None:
    """The template's last finished run or apply before the plan (check-mode runs skipped),
    when it finished cleanly; else None."""
    rows = session.execute(
        select(Run.id, Run.status, Run.params)
        .where(
            Run.template_id == plan.template_id,
            Run.id < plan.id,
            Run.kind.in_([RunKind.RUN, RunKind.APPLY]),
            Run.status.in_(FINISHED),
        )
        .order_by(Run.id.desc())
        .limit(BASELINE_LOOKBACK)
    )
    for run_id, status, params in rows:
        if (params or {}).get("check_mode"):
            continue
        if status != RunStatus.SUCCESSFUL:
            return None
        broken = session.scalar(
            select(func.count()).where(
                RunHost.run_id == run_id, RunHost.failed + RunHost.unreachable > 0
            )
        )
        return None if broken else int(run_id)
    return None


def _ensure_row(session: Session, run: Run) -> None:
    insert = insert_of(session)
    session.execute(
        insert(TemplateDrift)
        .values(template_id=run.template_id, project_id=run.project_id)
        .on_conflict_do_nothing(index_elements=[TemplateDrift.template_id])
    )


def _newer(run: Run) -> Any:
    return (TemplateDrift.template_id == run.template_id, TemplateDrift.checked_run_id < run.id)


def _found(
    session: Session, run: Run, baseline: int, changes: list[tuple[str, str, int, str]]
) -> None:
    now = utcnow()
    mark = fingerprint(changes)
    hosts = len({host for host, *_ in changes})
    tasks = len({path for _, path, *_ in changes})
    _ensure_row(session, run)
    seen = {
        "plan_run_id": run.id,
        "baseline_run_id": baseline,
        "checked_at": now,
        "checked_run_id": run.id,
        "host_count": hosts,
        "task_count": tasks,
    }
    is_new = ~(TemplateDrift.drifted.is_(True) & (TemplateDrift.fingerprint == mark))
    new = session.execute(
        update(TemplateDrift)
        .where(*_newer(run), is_new)
        .values(
            **seen,
            drifted=True,
            fingerprint=mark,
            detected_at=now,
            cleared_at=None,
            cleared_by_run_id=None,
            cleared_reason="",
        )
        .execution_options(synchronize_session=False)
    )
    if new.rowcount != 1:  # type: ignore[attr-defined]
        # the same drift seen again (or an older plan ending late: nothing)
        session.execute(
            update(TemplateDrift)
            .where(*_newer(run), TemplateDrift.fingerprint == mark)
            .values(**seen)
            .execution_options(synchronize_session=False)
        )
        return
    name = _name(session, run)
    said = f"{hosts} host{'' if hosts == 1 else 's'}, {tasks} task{'' if tasks == 1 else 's'}"
    _record(
        session,
        run,
        AuditAction.DRIFT_DETECT,
        {"drifted": [False, True], "plan_run_id": [None, run.id]},
        f"plan {run.id} of {name} found drift since run {baseline}: {said}",
    )
    outbox.on_drift(session, run.id)


def _clear(session: Session, run: Run, reason: str, *, drifted: bool = True) -> None:
    """Clear the template's drift (recorded with the run and the reason); a clean plan on a
    template without drift only notes that it checked."""
    now = utcnow()
    if not drifted:
        if RunKind(run.kind) is RunKind.PLAN:
            _ensure_row(session, run)
            session.execute(
                update(TemplateDrift)
                .where(*_newer(run), TemplateDrift.drifted.is_(False))
                .values(plan_run_id=run.id, checked_at=now, checked_run_id=run.id)
                .execution_options(synchronize_session=False)
            )
        return
    cleared = session.execute(
        update(TemplateDrift)
        .where(*_newer(run), TemplateDrift.drifted.is_(True))
        .values(
            drifted=False,
            fingerprint="",
            host_count=0,
            task_count=0,
            checked_at=now,
            checked_run_id=run.id,
            cleared_at=now,
            cleared_by_run_id=run.id,
            cleared_reason=reason,
            **({"plan_run_id": run.id} if RunKind(run.kind) is RunKind.PLAN else {}),
        )
        .execution_options(synchronize_session=False)
    )
    if cleared.rowcount != 1:  # type: ignore[attr-defined]
        return
    _record(
        session,
        run,
        AuditAction.DRIFT_CLEAR,
        {"drifted": [True, False], "cleared_by_run_id": [None, run.id]},
        f"drift of {_name(session, run)} cleared: {reason}",
    )


def _record(
    session: Session, run: Run, action: AuditAction, changes: dict[str, list[Any]], detail: str
) -> None:
    """Steward's own change of the template's drift, in the audit trail."""
    audit.record(
        session,
        None,
        action,
        object_type="template",
        object_id=run.template_id,
        object_name=_name(session, run),
        project_id=run.project_id,
        changes=changes,
        detail=detail,
    )


def _name(session: Session, run: Run) -> str:
    return session.scalar(select(Template.name).where(Template.id == run.template_id)) or ""
