"""A host's metrics over its runs: one point per run that sampled it (the run's host lane of
``metrics``, summed up: CPU mean and peak, memory peak, disk and network mean rates, time
without samples), for the runs the caller may see, newest ``limit`` of them, oldest first.

Read from the stored chunks when asked: the answer is bounded by ``limit`` runs
(``bounds.HOST_METRICS_RUNS_MAX``), and the runs are found through the lane index
(``ix_run_metric_chunks_lane``: kind, host, run id) rather than by scanning the host's runs.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.access.policy import visible_runs
from steward.errors import InvalidInput
from steward.hosts.schemas import HostMetrics, HostMetricsQuery, HostRunMetrics
from steward.hosts.service import require_known
from steward.metrics import packing
from steward.metrics.models import MetricChunk, MetricGap
from steward.metrics.series import LaneKind, names_of
from steward.projects.models import Project
from steward.runs.models import Run
from steward.templates.models import Template

CPU = ("cpu.user", "cpu.system", "cpu.iowait")
MEANS = {
    "disk_read_bytes_avg": "disk.read_bytes",
    "disk_write_bytes_avg": "disk.write_bytes",
    "net_rx_bytes_avg": "net.rx_bytes",
    "net_tx_bytes_avg": "net.tx_bytes",
}


@dataclasses.dataclass
class _Sums:
    """One run's samples of the host, folded as its chunks are read."""

    start: int | None = None
    end: int | None = None
    samples: int = 0
    cpu_sum: float = 0.0
    cpu_count: int = 0
    cpu_max: float | None = None
    mem_used_max: float | None = None
    mem_total: float | None = None
    sums: dict[str, float] = dataclasses.field(default_factory=lambda: dict.fromkeys(MEANS, 0.0))
    counts: dict[str, int] = dataclasses.field(default_factory=lambda: dict.fromkeys(MEANS, 0))

    def add(self, chunk: MetricChunk) -> None:
        names = names_of(chunk.series)
        times, columns = packing.unpack(chunk.data, chunk.start_ms, chunk.count, len(names))
        by_name = dict(zip(names, columns, strict=True))
        self.start = times[0] if self.start is None else min(self.start, times[0])
        self.end = times[-1] if self.end is None else max(self.end, times[-1])
        self.samples += len(times)
        cpu = [by_name.get(name) for name in CPU]
        for i in range(len(times)):
            parts = [v for c in cpu if c is not None and (v := c[i]) is not None]
            if parts:
                total = sum(parts)
                self.cpu_sum += total
                self.cpu_count += 1
                self.cpu_max = total if self.cpu_max is None else max(self.cpu_max, total)
        used = [v for v in by_name.get("mem.used", []) if v is not None]
        if used:
            peak = max(used)
            self.mem_used_max = peak if self.mem_used_max is None else max(self.mem_used_max, peak)
        totals = [v for v in by_name.get("mem.total", []) if v is not None]
        if totals:
            self.mem_total = totals[-1]
        for field, name in MEANS.items():
            values = [v for v in by_name.get(name, []) if v is not None]
            self.sums[field] += sum(values)
            self.counts[field] += len(values)

    def mean(self, field: str) -> float | None:
        return self.sums[field] / self.counts[field] if self.counts[field] else None


def host_metrics(
    session: Session, actor: Actor, project: Project, name: str, query: HostMetricsQuery
) -> HostMetrics:
    """The host's metrics per run (404 for a host the project does not know)."""
    require_known(session, project, name)
    if query.since and query.until and query.until < query.since:
        raise InvalidInput("until", "must not be before 'since'")
    sampled = select(MetricChunk.run_id).where(
        MetricChunk.kind == LaneKind.HOST, MetricChunk.host == name
    )
    conditions = [Run.project_id == project.id, visible_runs(actor), Run.id.in_(sampled)]
    if query.since is not None:
        conditions.append(Run.created_at >= query.since)
    if query.until is not None:
        conditions.append(Run.created_at < query.until)
    runs = session.execute(
        select(Run.id, Run.created_at, Template.name, Run.template_snapshot)
        .outerjoin(Template, Template.id == Run.template_id)
        .where(*conditions)
        .order_by(Run.id.desc())
        .limit(query.limit + 1)
    ).all()
    more = len(runs) > query.limit
    runs = runs[: query.limit]
    ids = [run.id for run in runs]
    folded: dict[int, _Sums] = defaultdict(_Sums)
    for chunk in session.scalars(
        select(MetricChunk)
        .where(
            MetricChunk.run_id.in_(ids),
            MetricChunk.kind == LaneKind.HOST,
            MetricChunk.host == name,
        )
        .order_by(MetricChunk.run_id, MetricChunk.start_ms)
    ):
        folded[chunk.run_id].add(chunk)
    gap_ms: dict[int, int] = defaultdict(int)
    for run_id, start, end in session.execute(
        select(MetricGap.run_id, MetricGap.start_ms, MetricGap.end_ms).where(
            MetricGap.run_id.in_(ids), MetricGap.kind == LaneKind.HOST, MetricGap.host == name
        )
    ):
        gap_ms[run_id] += max(0, end - start)
    points: list[HostRunMetrics] = []
    for run in reversed(runs):  # oldest first: the chart's order
        sums = folded.get(run.id)
        if sums is None or sums.start is None or sums.end is None:
            continue
        points.append(
            HostRunMetrics(
                run_id=run.id,
                template=run.name or str(run.template_snapshot.get("name", "")),
                created_at=run.created_at,
                start=sums.start,
                end=sums.end,
                samples=sums.samples,
                gap_seconds=gap_ms[run.id] / 1000,
                cpu_avg=sums.cpu_sum / sums.cpu_count if sums.cpu_count else None,
                cpu_max=sums.cpu_max,
                mem_used_max=sums.mem_used_max,
                mem_total=sums.mem_total,
                disk_read_bytes_avg=sums.mean("disk_read_bytes_avg"),
                disk_write_bytes_avg=sums.mean("disk_write_bytes_avg"),
                net_rx_bytes_avg=sums.mean("net_rx_bytes_avg"),
                net_tx_bytes_avg=sums.mean("net_tx_bytes_avg"),
            )
        )
    return HostMetrics(host=name, runs=points, more=more)
