"""The home dashboard: what happened in the caller's last days, what fails, what runs and waits.

Every query is an aggregate in SQL over the runs the caller may see (``policy.visible_runs``,
the runs list's own clause), bounded by the window's start on ``created_at`` (its index): the
cost follows the runs of the window, not of the whole table.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import case, func, select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import visible_runs
from steward.auth.models import User
from steward.config import Settings
from steward.dashboard.days import Window, window
from steward.dashboard.schemas import (
    ACTIVE_MAX,
    FAILING_MAX,
    ActiveRun,
    Dashboard,
    DashboardParams,
    DayCounts,
    FailingTemplate,
    Totals,
)
from steward.db import utcnow
from steward.projects.models import Project
from steward.runs import waiting
from steward.runs.models import Run
from steward.runs.status import JUDGED as JUDGED_STATUSES
from steward.runs.status import RunStatus, success_rate
from steward.templates.models import Template

FAILURES = (RunStatus.FAILED, RunStatus.ERROR, RunStatus.TIMED_OUT)
# what a template's health is judged on: a canceled run says nothing about it
JUDGED = tuple(sorted(JUDGED_STATUSES))


def dashboard(
    session: Session, actor: Actor, settings: Settings, params: DashboardParams
) -> Dashboard:
    win = window(params.days, params.tz, utcnow())
    per_day = runs_per_day(session, actor, win)
    failing = _failing_templates(session, actor, win)
    running = _active(session, actor, RunStatus.RUNNING)
    queued = _active(session, actor, RunStatus.QUEUED)
    return Dashboard(
        days=params.days,
        tz=params.tz,
        since=win.start,
        per_day=per_day,
        failing_templates=failing[:FAILING_MAX],
        running=[item for _, item in running],
        queued=_with_reasons(session, queued, settings),
        totals=_totals(session, actor, per_day, len(failing)),
    )


def runs_per_day(session: Session, actor: Actor, win: Window) -> list[DayCounts]:
    window_runs = (
        select(win.day_of_run().label("n"), Run.status.label("status"))
        .where(visible_runs(actor), Run.created_at >= win.start, Run.created_at < win.bounds[-1])
        .subquery()
    )
    rows = session.execute(
        select(window_runs.c.n, window_runs.c.status, func.count()).group_by(
            window_runs.c.n, window_runs.c.status
        )
    ).all()
    counts = [dict.fromkeys(RunStatus, 0) for _ in win.dates]
    for n, status, count in rows:
        counts[n][RunStatus(status)] = count
    return [
        DayCounts(day=date, counts=by_status, total=sum(by_status.values()))
        for date, by_status in zip(win.dates, counts, strict=True)
    ]


def _failing_templates(session: Session, actor: Actor, win: Window) -> list[FailingTemplate]:
    """Templates whose latest judged run of the window failed: such a template has a failure
    in the window, so its latest judged run is in the window too (one grouped scan of it; runs
    of deleted templates drop out at the join)."""
    failure, judged = Run.status.in_(FAILURES), Run.status.in_(JUDGED)
    # the statuses are looked at in the aggregates, not the WHERE: the scan stays on the
    # window's range of ix_runs_created_at (a status index would visit every judged run)
    stats = (
        select(
            Run.template_id.label("template_id"),
            func.sum(case((failure, 1), else_=0)).label("failures"),
            func.sum(case((judged, 1), else_=0)).label("finished"),
            func.max(case((judged, Run.id))).label("last_id"),
            func.max(case((failure, Run.id))).label("last_failed_id"),
        )
        .where(visible_runs(actor), Run.created_at >= win.start)
        .group_by(Run.template_id)
        .subquery()
    )
    last = Run.__table__.alias("last_failed")
    rows = session.execute(
        select(
            stats.c.template_id,
            stats.c.failures,
            stats.c.finished,
            stats.c.last_failed_id,
            Template.name,
            Project.id,
            Project.name,
            last.c.status,
            func.coalesce(last.c.finished_at, last.c.created_at),
        )
        .join(Template, Template.id == stats.c.template_id)
        .join(Project, Project.id == Template.project_id)
        .join(last, last.c.id == stats.c.last_failed_id)
        .where(stats.c.last_failed_id == stats.c.last_id)
        .order_by(stats.c.last_failed_id.desc())
    ).all()
    return [
        FailingTemplate(
            project_id=project_id,
            project_name=project_name,
            template_id=template_id,
            template_name=template_name,
            failures=failures,
            finished=finished,
            failure_rate=failures / finished,
            last_failure_at=_utc(failed_at),
            last_failed_run_id=last_failed_id,
            last_status=RunStatus(status),
        )
        for (
            template_id,
            failures,
            finished,
            last_failed_id,
            template_name,
            project_id,
            project_name,
            status,
            failed_at,
        ) in rows
    ]


def _utc(value: dt.datetime | str) -> dt.datetime:
    """A column read outside the ORM's types (an aliased table's coalesce): UTC-aware."""
    at = value if isinstance(value, dt.datetime) else dt.datetime.fromisoformat(value)
    return at.replace(tzinfo=dt.UTC) if at.tzinfo is None else at.astimezone(dt.UTC)


def _active(session: Session, actor: Actor, status: RunStatus) -> list[tuple[Run, ActiveRun]]:
    """The caller's runs in ``status``, oldest first (the longest running, the next claimed)."""
    rows = session.execute(
        select(Run, Template.name, User.username, Project.name)
        .join(Project, Project.id == Run.project_id)
        .outerjoin(Template, Template.id == Run.template_id)
        .outerjoin(User, User.id == Run.launched_by_id)
        .where(visible_runs(actor), Run.status == status)
        .order_by(Run.id)
        .limit(ACTIVE_MAX)
    ).all()
    return [
        (
            run,
            ActiveRun.model_validate(run).model_copy(
                update={
                    "template_name": template or str(run.template_snapshot.get("name", "")),
                    "launched_by": user or "",
                    "project_name": project,
                }
            ),
        )
        for run, template, user, project in rows
    ]


def _with_reasons(
    session: Session, queued: list[tuple[Run, ActiveRun]], settings: Settings
) -> list[ActiveRun]:
    why = waiting.reasons(session, [run for run, _ in queued], settings)
    return [item.model_copy(update={"waiting_reason": why.get(run.id)}) for run, item in queued]


def _totals(session: Session, actor: Actor, per_day: list[DayCounts], failing: int) -> Totals:
    by_status = dict.fromkeys(RunStatus, 0)
    for day in per_day:
        for status, n in day.counts.items():
            by_status[status] += n
    now = dict(
        session.execute(
            select(Run.status, func.count())
            .where(visible_runs(actor), Run.status.in_((RunStatus.RUNNING, RunStatus.QUEUED)))
            .group_by(Run.status)
        ).all()
    )
    return Totals(
        runs=sum(by_status.values()),
        by_status=by_status,
        success_rate=success_rate(by_status),
        running=now.get(RunStatus.RUNNING, 0),
        queued=now.get(RunStatus.QUEUED, 0),
        failing_templates=failing,
    )
