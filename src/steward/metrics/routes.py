"""A run's host metrics, seen by whoever may see the run's output (RUN_VIEW on its template)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from steward.api.deps import RuntimeDep, SessionDep, ViewedRun
from steward.api.downloads import attachment
from steward.metrics import export, service
from steward.metrics.schemas import ExportFormat, MetricsExport, MetricsQuery, MetricsRead

router = APIRouter(prefix="/projects/{project_id}/runs/{run_id}/metrics", tags=["metrics"])


@router.get("")
def read_metrics(
    run: ViewedRun, session: SessionDep, query: Annotated[MetricsQuery, Query()]
) -> MetricsRead:
    """CPU, memory, disk and network of the controller and of each target host while the run
    executed, one lane each; at most ``points`` per series (longer stretches averaged).

    Times are epoch milliseconds, on the clock of the run's events (the controller's); a
    stretch without samples is a gap with its reason (host unreachable, no answer in time, PCP
    absent), never zeros."""
    return service.read(session, run.id, query)


MEDIA = {ExportFormat.CSV: "text/csv; charset=utf-8", ExportFormat.JSON: "application/json"}


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/csv": {}, "application/json": {}}}},
)
def export_metrics(
    run: ViewedRun, rt: RuntimeDep, query: Annotated[MetricsExport, Query()]
) -> StreamingResponse:
    """Every sample, as CSV (a row per sample and lane; gap rows carry ``gap_until`` and
    ``gap_reason``) or JSON (lanes, each with its gaps and samples)."""
    win = service.window(query)
    if query.format is ExportFormat.CSV:
        text = export.csv_text(rt.sessions, run.id, query, win)
    else:
        text = export.json_text(rt.sessions, run.id, query, win)
    return attachment(text, MEDIA[query.format], f"run-{run.id}-metrics.{query.format.value}")
