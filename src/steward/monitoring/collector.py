"""Prometheus metrics of the installation, read from the database at scrape time.

The database is the truth every server shares, so any server answers for the whole cluster and
two servers scraped at once agree. Labels are bounded sets (statuses, runner groups, project
names): never a run id or a host.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from steward import __version__
from steward.audit import stream
from steward.db import utcnow
from steward.dispatch import presence
from steward.notifications.models import Message, MessageStatus
from steward.projects.models import Project
from steward.retention import storage
from steward.runs.models import Run
from steward.runs.status import RunStatus
from steward.schedules.models import Schedule
from steward.webhooks.models import WebhookDelivery

ACTIVE = (RunStatus.QUEUED, RunStatus.RUNNING)


class DatabaseCollector(Collector):
    """One scrape: a handful of grouped counts over indexed columns, and the database's size
    (read at most every ``storage.SIZE_CACHE_SECONDS``)."""

    def __init__(self, session: Session, lease: dt.timedelta, warning_bytes: int = 0) -> None:
        self._session = session
        self._lease = lease
        self._warning_bytes = warning_bytes

    def collect(self) -> Iterator[Metric]:
        yield InfoMetricFamily("steward_build", "Steward's version", value={"version": __version__})
        yield from self._runs()
        yield from self._queue()
        yield from self._capacity()
        yield from self._triggers()
        yield from self._storage()
        yield from self._audit_stream()

    def _runs(self) -> Iterator[Metric]:
        runs = GaugeMetricFamily(
            "steward_runs", "Runs stored, by project and status", labels=["project", "status"]
        )
        rows = self._session.execute(
            select(Project.name, Run.status, func.count())
            .join(Project, Project.id == Run.project_id)
            .group_by(Project.name, Run.status)
        ).all()
        for project, status, count in rows:
            runs.add_metric([project, str(status)], count)
        yield runs

    def _queue(self) -> Iterator[Metric]:
        """How long the oldest queued run has waited, and the running ones' age: an alert on
        "a run queued for 10 minutes" needs no query of its own."""
        now = utcnow()
        oldest = GaugeMetricFamily(
            "steward_oldest_run_age_seconds",
            "Age of the oldest queued run (since launch) and running run (since start)",
            labels=["status", "runner_group"],
        )
        since = {RunStatus.QUEUED: Run.created_at, RunStatus.RUNNING: Run.started_at}
        for status, column in since.items():
            rows = self._session.execute(
                select(Run.runner_group, func.min(column))
                .where(Run.status == status)
                .group_by(Run.runner_group)
            ).all()
            for group, first in rows:
                if first is not None:
                    first = first if first.tzinfo else first.replace(tzinfo=dt.UTC)
                    age = (now - first).total_seconds()
                    oldest.add_metric([str(status), group], max(age, 0.0))
        yield oldest

    def _capacity(self) -> Iterator[Metric]:
        slots = GaugeMetricFamily(
            "steward_worker_slots_online",
            "Run slots of the workers seen within the lease, by queue ('*': embedded dispatcher)",
            labels=["queue"],
        )
        for queue, count in sorted(presence.online_capacity(self._session, self._lease).items()):
            slots.add_metric([queue], count)
        yield slots

    def _triggers(self) -> Iterator[Metric]:
        schedules = GaugeMetricFamily(
            "steward_schedules", "Schedules, by whether they are enabled", labels=["enabled"]
        )
        for enabled, count in self._session.execute(
            select(Schedule.enabled, func.count()).group_by(Schedule.enabled)
        ).all():
            schedules.add_metric([str(bool(enabled)).lower()], count)
        yield schedules
        messages = GaugeMetricFamily(
            "steward_notification_messages",
            "Notification messages kept, by status (pending ones are still to be delivered)",
            labels=["status"],
        )
        for status, count in self._session.execute(
            select(Message.status, func.count()).group_by(Message.status)
        ).all():
            messages.add_metric([str(MessageStatus(status))], count)
        yield messages
        deliveries = GaugeMetricFamily(
            "steward_webhook_deliveries_last_hour",
            "Webhook deliveries received in the last hour, by outcome",
            labels=["outcome"],
        )
        hour_ago = utcnow() - dt.timedelta(hours=1)
        for outcome, count in self._session.execute(
            select(WebhookDelivery.outcome, func.count())
            .where(WebhookDelivery.received_at >= hour_ago)
            .group_by(WebhookDelivery.outcome)
        ).all():
            deliveries.add_metric([str(outcome)], count)
        yield deliveries

    def _storage(self) -> Iterator[Metric]:
        size = storage.cached_size(self._session)
        yield GaugeMetricFamily(
            "steward_database_size_bytes",
            "Size of the database (SQLite: pages in the file; PostgreSQL: pg_database_size)",
            value=size.total,
        )
        if size.free is not None:
            yield GaugeMetricFamily(
                "steward_database_free_bytes",
                "Bytes of the SQLite file holding no data (a 0.1.0 file keeps what pruning"
                " freed until `steward prune --compact`)",
                value=size.free,
            )
        if self._warning_bytes:
            yield GaugeMetricFamily(
                "steward_database_size_warning_bytes",
                "STEWARD_DATABASE_SIZE_WARNING_MB in bytes: alert when the size is above it",
                value=self._warning_bytes,
            )

    def _audit_stream(self) -> Iterator[Metric]:
        """The audit stream's backlog per sink (``audit.stream``): an alert on a SIEM that has
        stopped taking records needs no query of its own."""
        backlog = GaugeMetricFamily(
            "steward_audit_stream_backlog",
            "Audit records waiting to be sent, by sink",
            labels=["sink"],
        )
        oldest = GaugeMetricFamily(
            "steward_audit_stream_oldest_seconds",
            "Age of the oldest audit record waiting to be sent, by sink",
            labels=["sink"],
        )
        now = utcnow()
        for sink, waiting in sorted(stream.backlog(self._session).items()):
            backlog.add_metric([sink], waiting.pending)
            if waiting.oldest_at is not None:
                oldest.add_metric([sink], max((now - waiting.oldest_at).total_seconds(), 0.0))
        yield backlog
        yield oldest
