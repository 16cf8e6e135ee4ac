"""Freeze windows below HTTP: a window around now, and a launch that may carry an override."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy.orm import Session

from steward.access.actor import Actor
from steward.db import utcnow
from steward.freezes import service as freezes
from steward.freezes.models import FreezeWindow
from steward.freezes.schemas import FreezeWindowCreate
from steward.projects.models import Project
from steward.runs import service as runs
from steward.runs.models import LaunchType, Run
from steward.templates.launch import LaunchOverrides
from steward.templates.models import Template
from support import runs as support_runs
from support import services
from support.runs import NoQueue


def window(
    session: Session,
    project: Project | None,
    name: str = "Year-end freeze",
    *,
    starts_in: dt.timedelta = dt.timedelta(hours=-1),
    lasts: dt.timedelta = dt.timedelta(hours=2),
    **body: Any,
) -> FreezeWindow:
    """A window of the instance (``project`` None) or of ``project``, saved by the admin,
    starting ``starts_in`` from now (UTC wall clock unless ``body`` says otherwise)."""
    start = (utcnow() + starts_in).replace(tzinfo=None, second=0, microsecond=0)
    made = FreezeWindowCreate.model_validate(
        {"name": name, "starts_local": start, "ends_local": start + lasts, **body}
    )
    return freezes.create(session, services.admin(session), project, made, utcnow())


def launch(
    session: Session,
    project: Project,
    template: Template,
    actor: Actor | None = None,
    reason: str | None = None,
) -> Run:
    """A run of ``template`` launched by ``actor`` (the admin), overriding a freeze with
    ``reason`` when given; committed as a request commits it."""
    who = actor or services.admin(session)
    request = runs.Launch(
        support_runs.rights(session, who, project),
        who,
        template.id,
        LaunchOverrides(),
        runs.Trigger(LaunchType.API),
        freeze_override_reason=reason,
    )
    return runs.launch_now(session, request, cipher=services.cipher(), queue=NoQueue())
