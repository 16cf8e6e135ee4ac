"""Drift read back: the project's drifted templates and hosts, a template's drift with its
tasks and diffs (its plan's ``run_changes``), a host's; each with "apply to fix": the drift's
plan and whether the caller may apply it now (``plans.read.refusal``, and run:launch on the
template). Only templates whose runs the caller may see (run:view) are shown."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Literal

from sqlalchemy import ColumnElement, Row, select, true
from sqlalchemy.orm import Session

from steward.access.policy import Action, ProjectAccess
from steward.drift.models import TemplateDrift
from steward.drift.schemas import (
    ApplyToFix,
    DriftedHost,
    DriftedTemplate,
    DriftSummary,
    HostDrift,
    HostTemplateDrift,
    ProjectDrift,
    TemplateDriftRead,
)
from steward.plans import read as plans
from steward.plans.schemas import PlanTask
from steward.runs.models import Plan, Run, RunChange
from steward.templates.models import Template

CHANGE = "change"
HOSTS_SHOWN = 100  # hosts named per template in the project's list
TEMPLATES_MAX = 500  # drifted templates listed at once


def _drifted(
    session: Session, rights: ProjectAccess, *where: ColumnElement[bool]
) -> Sequence[Row[TemplateDrift, str]]:
    """The project's drifted templates the caller may see the runs of, by name."""
    return session.execute(
        select(TemplateDrift, Template.name)
        .join(Template, Template.id == TemplateDrift.template_id)
        .where(
            TemplateDrift.project_id == rights.project.id,
            TemplateDrift.drifted.is_(True),
            _seen(rights),
            *where,
        )
        .order_by(Template.name)
        .limit(TEMPLATES_MAX)
    ).all()


def _seen(rights: ProjectAccess) -> ColumnElement[bool]:
    """The drift rows of templates whose runs the caller may see."""
    allowed = rights.templates_allowing(Action.RUN_VIEW)
    return true() if allowed is None else TemplateDrift.template_id.in_(sorted(allowed))


def apply_to_fix(
    session: Session, rights: ProjectAccess, plan_run_id: int | None, now: dt.datetime
) -> ApplyToFix:
    run = session.get(Run, plan_run_id) if plan_run_id is not None else None
    plan = session.get(Plan, plan_run_id) if plan_run_id is not None else None
    if run is None or plan is None:
        said = "the plan that found the drift is gone: plan again"
        return ApplyToFix(plan_run_id=None, can_apply=False, apply_refusal=said)
    if Action.RUN_LAUNCH not in rights.template_actions(run.template_id):
        said = f"permission '{Action.RUN_LAUNCH}' is required on template {run.template_id}"
    else:
        said = plans.refusal(session, run, plan, now)
    return ApplyToFix(plan_run_id=run.id, can_apply=not said, apply_refusal=said)


def _hosts(session: Session, plan_ids: list[int]) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    rows = session.execute(
        select(RunChange.run_id, RunChange.host)
        .where(RunChange.run_id.in_(plan_ids), RunChange.outcome == CHANGE)
        .distinct()
        .order_by(RunChange.run_id, RunChange.host)
    )
    for run_id, host in rows:
        found.setdefault(run_id, []).append(host)
    return found


def project_drift(session: Session, rights: ProjectAccess, now: dt.datetime) -> ProjectDrift:
    rows = _drifted(session, rights)
    hosts = _hosts(session, [d.plan_run_id for d, _ in rows if d.plan_run_id is not None])
    templates: list[DriftSummary] = []
    by_host: dict[str, list[DriftedTemplate]] = {}
    for drift, name in rows:
        changed = hosts.get(drift.plan_run_id or 0, [])
        for host in changed:
            by_host.setdefault(host, []).append(
                DriftedTemplate(template_id=drift.template_id, template_name=name)
            )
        templates.append(
            DriftSummary(
                **_fix(session, rights, drift, now),
                template_id=drift.template_id,
                template_name=name,
                host_count=drift.host_count,
                task_count=drift.task_count,
                hosts=changed[:HOSTS_SHOWN],
                detected_at=drift.detected_at,
                checked_at=drift.checked_at,
            )
        )
    listed = [DriftedHost(host=h, templates=t) for h, t in sorted(by_host.items())]
    return ProjectDrift(templates=templates, hosts=listed)


def _fix(
    session: Session, rights: ProjectAccess, drift: TemplateDrift, now: dt.datetime
) -> dict[str, Any]:
    return apply_to_fix(session, rights, drift.plan_run_id, now).model_dump()


# a template's drift as kept, and as read before any plan of it spoke ('unchecked')
KEPT: dict[str, Any] = {
    "host_count": 0, "task_count": 0, "baseline_run_id": None, "detected_at": None,
    "checked_at": None, "cleared_at": None, "cleared_by_run_id": None, "cleared_reason": "",
}  # fmt: skip


def template_drift(
    session: Session, rights: ProjectAccess, template: Template, now: dt.datetime
) -> TemplateDriftRead:
    """Its drift ('unchecked' before a plan of the whole template spoke for it)."""
    drift = session.get(TemplateDrift, template.id)
    items: list[PlanTask] = []
    truncated = False
    hosts: list[str] = []
    said = "no plan of the template found drift" if drift is None else "no drift"
    fix = ApplyToFix(plan_run_id=None, can_apply=False, apply_refusal=said)
    if drift is not None:
        fix.plan_run_id = drift.plan_run_id
    if drift is not None and drift.drifted and drift.plan_run_id is not None:
        items, truncated = plans.tasks(session, drift.plan_run_id, RunChange.outcome == CHANGE)
        fix = apply_to_fix(session, rights, drift.plan_run_id, now)
        hosts = _hosts(session, [drift.plan_run_id]).get(drift.plan_run_id, [])
    kept = KEPT if drift is None else {name: getattr(drift, name) for name in KEPT}
    state: Literal["drift", "clean", "unchecked"] = (
        "unchecked" if drift is None else "drift" if drift.drifted else "clean"
    )
    return TemplateDriftRead(
        **fix.model_dump(),
        **kept,
        template_id=template.id,
        template_name=template.name,
        state=state,
        hosts=hosts,
        tasks=items,
        tasks_truncated=truncated,
    )


def host_drift(session: Session, rights: ProjectAccess, host: str, now: dt.datetime) -> HostDrift:
    """The drifted templates that would change ``host``, with what they would change there."""
    on_host = (
        select(RunChange.id)
        .where(
            RunChange.run_id == TemplateDrift.plan_run_id,
            RunChange.outcome == CHANGE,
            RunChange.host == host,
        )
        .exists()
    )
    rows = _drifted(session, rights, on_host)
    templates = []
    for drift, name in rows:
        assert drift.plan_run_id is not None  # noqa: S101 - the EXISTS joined on it
        items, _truncated = plans.tasks(
            session, drift.plan_run_id, RunChange.outcome == CHANGE, RunChange.host == host
        )
        templates.append(
            HostTemplateDrift(
                **_fix(session, rights, drift, now),
                template_id=drift.template_id,
                template_name=name,
                detected_at=drift.detected_at,
                tasks=items,
            )
        )
    return HostDrift(host=host, templates=templates)
