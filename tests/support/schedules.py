"""Schedules in tests: made through the API, and made due by moving ``next_fire_at`` in the
database (the one thing no API does: an occurrence that has come, without waiting for it).
The firing itself is always done by a real server's scheduler loop."""

from __future__ import annotations

import datetime as dt
from typing import Any

import httpx2
from sqlalchemy import update

from steward.db import make_engine, utcnow
from steward.schedules.models import Schedule
from support.builders import post
from support.waits import api_path

YEARLY = "0 0 1 1 *"  # next occurrence far away: it fires only when made due


def make_schedule(
    api: httpx2.Client, project_id: int, template_id: int, **body: Any
) -> dict[str, Any]:
    """A schedule of the template (default: cron, once a year); returns the read body."""
    body = {"name": "nightly", "kind": "cron", "expression": YEARLY, **body}
    url = api_path(api, f"/projects/{project_id}/templates/{template_id}/schedules")
    return post(api, url, body)


def make_due(database_url: str, *schedule_ids: int, at: dt.datetime | None = None) -> None:
    """Their next occurrence becomes ``at`` (default: now), as if it had come."""
    engine = make_engine(database_url)
    try:
        with engine.begin() as conn:
            conn.execute(
                update(Schedule)
                .where(Schedule.id.in_(schedule_ids))
                .values(next_fire_at=at or utcnow())
            )
    finally:
        engine.dispose()
