"""Monitoring: Prometheus metrics for admins, and a readiness probe for load balancers.

prometheus_client (1 MiB) is imported by the first scrape, not with the server; the content type
it answers with is written here for the OpenAPI document (tests/monitoring/test_prometheus.py
compares it with the installed prometheus_client's).
"""

from __future__ import annotations

import datetime as dt

from fastapi import APIRouter, Response
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from steward.access.policy import require_admin
from steward.api.deps import ActorDep, RuntimeDep, SessionDep
from steward.bounds import MIB
from steward.errors import Unavailable

router = APIRouter(tags=["monitoring"])
CONTENT_TYPE = "text/plain; version=1.0.0; charset=utf-8"  # prometheus_client.CONTENT_TYPE_LATEST


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus text"}},
)
def prometheus_metrics(actor: ActorDep, session: SessionDep, runtime: RuntimeDep) -> Response:
    """Prometheus metrics of the whole installation (every server answers the same, from the
    database): runs by project and status, the oldest queued and running run per runner group,
    worker slots online, schedules, notification messages, webhook deliveries of the last hour,
    the database's size (and its free bytes on SQLite, and the warning threshold when set).
    Global admins only; a read-scoped token is enough (scrape with ``bearer_token``)."""
    from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
    from prometheus_client.registry import CollectorRegistry

    from steward.monitoring.collector import DatabaseCollector

    require_admin(actor, write=False)
    registry = CollectorRegistry(auto_describe=False)
    lease = dt.timedelta(seconds=runtime.settings.lease_seconds)
    warning = runtime.settings.database_size_warning_mb * MIB
    registry.register(DatabaseCollector(session, lease, warning))
    return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)


@router.get("/health/ready")
def ready(session: SessionDep) -> dict[str, str]:
    """Readiness: 200 when this server reaches its database, else 503. No authentication."""
    try:
        session.execute(text("SELECT 1"))
    except SQLAlchemyError as exc:
        raise Unavailable("the database does not answer") from exc
    return {"status": "ready"}
