"""A host's metrics per run, below HTTP: each run that sampled the host is one point (CPU mean
and peak over user + system + iowait, memory peak, mean rates, time without samples), oldest
first, the newest ``limit`` of the runs the caller may see, within dates."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlalchemy.orm import Session
from support import services
from support.hosts import finished_run, metric_chunk

from steward.access.actor import Actor
from steward.auth.models import TokenScope, User
from steward.db import utcnow
from steward.errors import InvalidInput, NotFound
from steward.hosts import hostmetrics
from steward.hosts.schemas import HostMetricsQuery
from steward.metrics.models import MetricGap
from steward.metrics.series import LaneKind
from steward.runs.models import RunHost


def test_each_run_that_sampled_the_host_is_one_point_oldest_first(db_session: Session) -> None:
    project = services.project(db_session)
    old = finished_run(
        db_session, project, RunHost(host="db1"), created_at=utcnow() - dt.timedelta(days=9)
    )
    new = finished_run(db_session, project, RunHost(host="db1"), RunHost(host="db2"))
    quiet = finished_run(db_session, project, RunHost(host="db1"))  # no metrics of db1
    db_session.add_all(
        [
            metric_chunk(old, "db1", 1_000, [{"cpu.user": 10, "cpu.system": 5, "mem.used": 100}]),
            metric_chunk(
                new,
                "db1",
                50_000,
                [
                    {"cpu.user": 20, "cpu.system": 10, "mem.used": 300, "mem.total": 1000},
                    {"cpu.user": 40, "cpu.iowait": 20, "mem.used": 200, "net.rx_bytes": 8},
                ],
            ),
            # the second chunk of the run: folded into the same point
            metric_chunk(new, "db1", 60_000, [{"cpu.user": 0, "net.rx_bytes": 4}]),
            metric_chunk(new, "db2", 50_000, [{"cpu.user": 99, "mem.used": 9999}]),  # another host
            MetricGap(
                run_id=new,
                kind=LaneKind.HOST,
                host="db1",
                start_ms=52_000,
                end_ms=58_000,
                reason="unreachable",
            ),
        ]
    )
    db_session.flush()
    actor = services.admin(db_session)
    read = hostmetrics.host_metrics(db_session, actor, project, "db1", HostMetricsQuery())
    assert [p.run_id for p in read.runs] == [old, new]
    assert quiet not in [p.run_id for p in read.runs]
    assert read.more is False
    first, second = read.runs
    assert (first.cpu_avg, first.cpu_max, first.mem_used_max) == (15, 15, 100)
    assert first.mem_total is None
    assert first.net_rx_bytes_avg is None
    assert second.samples == 3
    assert (second.start, second.end) == (50_000, 60_000)
    assert second.cpu_avg == pytest.approx((30 + 60 + 0) / 3)
    assert second.cpu_max == 60
    assert (second.mem_used_max, second.mem_total) == (300, 1000)
    assert second.net_rx_bytes_avg == 6
    assert second.gap_seconds == 6

    newest = hostmetrics.host_metrics(db_session, actor, project, "db1", HostMetricsQuery(limit=1))
    assert [p.run_id for p in newest.runs] == [new]
    assert newest.more is True
    since = HostMetricsQuery(since=utcnow() - dt.timedelta(days=1))
    assert [
        p.run_id for p in hostmetrics.host_metrics(db_session, actor, project, "db1", since).runs
    ] == [new]

    # a caller who may see none of the project's runs gets no point, not an error
    stranger = User(username="stranger", password_hash="!")
    db_session.add(stranger)
    db_session.flush()
    unseen = Actor(user=stranger, scope=TokenScope.WRITE, via="session")
    assert (
        hostmetrics.host_metrics(db_session, unseen, project, "db1", HostMetricsQuery()).runs == []
    )


def test_an_unknown_host_is_404_and_dates_must_be_in_order(db_session: Session) -> None:
    project = services.project(db_session)
    finished_run(db_session, project, RunHost(host="db1"))
    actor = services.admin(db_session)
    with pytest.raises(NotFound):
        hostmetrics.host_metrics(db_session, actor, project, "nope", HostMetricsQuery())
    backwards = HostMetricsQuery(since=utcnow(), until=utcnow() - dt.timedelta(days=1))
    with pytest.raises(InvalidInput) as refused:
        hostmetrics.host_metrics(db_session, actor, project, "db1", backwards)
    assert refused.value.field == "until"
