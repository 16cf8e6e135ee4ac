"""A template's performance at a glance: how long its last runs took, how often they succeeded
(of its last runs and of the last 30 days), and how its slowest tasks evolved.

Indexed reads only: the last runs by ``ix_runs_template_id_id`` (newest first, ``LIMIT``), the
30 days' counts by ``ix_runs_template_id_status_created_at`` (a range of it per status, read
from the index alone), the tasks of the most recent runs by ``ix_run_events_run_id_counter``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from pydantic import BaseModel, Field
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from steward.db import utcnow
from steward.runs import compare
from steward.runs.models import Run
from steward.runs.status import JUDGED, SUCCESS_RATE, RunStatus, success_rate
from steward.templates.models import Template

TREND_RUNS_MAX = 50  # the slowest tasks are followed over at most this many recent runs
SLOWEST = 5
WINDOW = dt.timedelta(days=30)


class StatsRun(BaseModel):
    id: int
    status: RunStatus
    created_at: dt.datetime
    seconds: float | None = Field(description="start to end; null until it has ended")


class SuccessRate(BaseModel):
    finished: int = Field(description="runs that ended (queued and running ones do not count)")
    judged: int = Field(description="the ended runs the rate is of: finished but canceled")
    successful: int
    rate: float | None = Field(description=SUCCESS_RATE)
    by_status: dict[str, int]


class TaskTrend(BaseModel):
    play: str
    role: str
    task: str
    occurrence: int
    seconds: list[float | None] = Field(description="per run of trend_run_ids; null: not run")
    mean: float = Field(description="mean seconds over the runs that ran it")


class TemplateStats(BaseModel):
    last: int = Field(description="the number of last runs asked for")
    runs: list[StatsRun] = Field(description="the last runs, oldest first")
    success_last: SuccessRate = Field(description="of the last runs")
    success_30_days: SuccessRate
    trend_run_ids: list[int] = Field(
        description="the ended runs the task trend covers, oldest first"
    )
    slowest_tasks: list[TaskTrend] = Field(description="the 5 slowest on average, slowest first")


def _rate(counts: dict[str, int]) -> SuccessRate:
    return SuccessRate(
        finished=sum(n for status, n in counts.items() if RunStatus(status).is_finished),
        judged=sum(n for status, n in counts.items() if status in JUDGED),
        successful=counts.get(RunStatus.SUCCESSFUL, 0),
        rate=success_rate(counts),
        by_status=dict(sorted(counts.items())),
    )


def _seconds(run: Run) -> float | None:
    if run.started_at is None or run.finished_at is None:
        return None
    return round((run.finished_at - run.started_at).total_seconds(), 3)


def _trend(session: Session, runs: Sequence[Run]) -> list[TaskTrend]:
    found, _ = compare.task_cells(session, runs)
    per_task: dict[compare.Identity, dict[int, float]] = {}
    for run_id, tasks in found.items():
        for identity, cell in tasks:
            if identity[4] == "task" and cell.seconds is not None:
                per_task.setdefault(identity, {})[run_id] = cell.seconds
    means = {identity: sum(s.values()) / len(s) for identity, s in per_task.items()}
    slowest = sorted(means, key=lambda identity: (-means[identity], identity))[:SLOWEST]
    return [
        TaskTrend(
            play=identity[0],
            role=identity[1],
            task=identity[2],
            occurrence=identity[3],
            seconds=[per_task[identity].get(r.id) for r in runs],
            mean=round(means[identity], 3),
        )
        for identity in slowest
    ]


def stats(session: Session, template: Template, last: int) -> TemplateStats:
    newest = list(
        session.scalars(
            select(Run).where(Run.template_id == template.id).order_by(Run.id.desc()).limit(last)
        )
    )
    runs = newest[::-1]
    counts: dict[str, int] = {}
    for run in runs:
        counts[run.status] = counts.get(run.status, 0) + 1
    since = utcnow() - WINDOW
    # a count per status: each a range of the index (a GROUP BY would read or sort every run)
    window = {
        status: session.scalar(
            select(func.count()).where(
                Run.template_id == template.id, Run.status == status, Run.created_at >= since
            )
        )
        or 0
        for status in RunStatus
    }
    ended = [r for r in newest if RunStatus(r.status).is_finished][:TREND_RUNS_MAX][::-1]
    return TemplateStats(
        last=last,
        runs=[
            StatsRun(id=r.id, status=r.status, created_at=r.created_at, seconds=_seconds(r))
            for r in runs
        ],
        success_last=_rate(counts),
        success_30_days=_rate({status: n for status, n in window.items() if n}),
        trend_run_ids=[r.id for r in ended],
        slowest_tasks=_trend(session, ended),
    )
