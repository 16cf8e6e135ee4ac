"""Schedules in tests: made through the API, and made due by moving ``next_fire_at`` in the
database (the one thing no API does: an occurrence that has come, without waiting for it).
The firing itself is always done by a real server's scheduler loop. The rules of a schedule
are checked below HTTP (``create_below`` and the previews, on ``db_session``)."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import httpx2
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from steward.access.policy import access
from steward.config import Settings
from steward.db import make_engine, utcnow
from steward.projects.models import Project
from steward.schedules import service as schedules
from steward.schedules.models import Schedule
from steward.schedules.schemas import DraftPreview, PreviewParams, ScheduleCreate, SchedulePreview
from steward.templates.models import Template
from support import services
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


# --- below HTTP, on ``db_session`` (support.services) -----------------------------------------

# the default of the setting (the tests' app keeps it)
MIN_INTERVAL = dt.timedelta(seconds=Settings.model_fields["schedule_min_interval_seconds"].default)


def create_below(session: Session, template: Template, body: dict[str, Any]) -> Schedule:
    """``body`` validated as the route validates its JSON, then saved by the admin through
    ``schedules.service.create`` as ``POST .../templates/{id}/schedules`` saves it."""
    admin = services.admin(session)
    project = session.get_one(Project, template.project_id)
    saver = schedules.Saver(access(session, admin, project), admin, services.cipher(), MIN_INTERVAL)
    return schedules.create(
        session, saver, template, ScheduleCreate.model_validate_json(json.dumps(body))
    )


def preview_draft_below(draft: dict[str, Any]) -> SchedulePreview:
    """``POST .../schedules/preview`` below HTTP."""
    parsed = DraftPreview.model_validate_json(json.dumps(draft))
    return schedules.preview_draft(parsed, min_interval=MIN_INTERVAL)


def preview_below(schedule: Schedule, params: dict[str, Any]) -> SchedulePreview:
    """``GET .../schedules/{id}/preview`` below HTTP (its query parameters)."""
    return schedules.preview(schedule, PreviewParams.model_validate(params))


def count_below(session: Session) -> int:
    """The schedules saved (every project: the session's database holds only the test's)."""
    return session.scalar(select(func.count()).select_from(Schedule)) or 0
