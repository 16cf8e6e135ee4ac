"""Schedules: when a template (or a workflow) launches by itself, with which launch values.

The row is the truth for firing: ``next_fire_at`` (UTC) is the occurrence it waits for, and the
scheduler claims it with a conditional UPDATE on that value, so an occurrence is launched once
however many server processes tick.
"""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import (
    CheckConstraint,
    ForeignKey,
    Index,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.auth.models import User
from steward.projects.scoped import ProjectScoped
from steward.templates.models import Template
from steward.triggers.schemas import TargetKind
from steward.workflows.models import Workflow


class ScheduleKind(enum.StrEnum):
    CRON = "cron"  # five-field cron expression (croniter)
    RRULE = "rrule"  # RFC 5545 recurrence rule (dateutil.rrule)


class MissedPolicy(enum.StrEnum):
    RUN_ONCE = "run_once"  # after downtime, launch the most recent missed occurrence once
    SKIP = "skip"  # after downtime, wait for the next occurrence


class Schedule(ProjectScoped):
    __tablename__ = "schedules"
    __table_args__ = (
        UniqueConstraint("project_id", "name"),
        Index("ix_schedules_due", "enabled", "next_fire_at"),
        # one target; none once it was deleted (``target_kind`` then says which it was)
        CheckConstraint("template_id IS NULL OR workflow_id IS NULL", name="one_target"),
    )

    # SET NULL, not CASCADE: a schedule whose template (or workflow) was deleted is disabled
    # with the reason
    target_kind: Mapped[TargetKind] = mapped_column(String(16), default=TargetKind.TEMPLATE)
    template_id: Mapped[int | None] = mapped_column(
        ForeignKey("templates.id", ondelete="SET NULL"), index=True
    )
    workflow_id: Mapped[int | None] = mapped_column(
        ForeignKey("workflows.id", ondelete="SET NULL"), index=True
    )
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    kind: Mapped[ScheduleKind] = mapped_column(String(8))
    expression: Mapped[str] = mapped_column(Text)  # cron line, or RRULE (optionally with DTSTART)
    timezone: Mapped[str] = mapped_column(String(64), default="UTC")  # IANA name
    start_at: Mapped[dt.datetime | None]  # UTC; no occurrence before it
    end_at: Mapped[dt.datetime | None]  # UTC; no occurrence after it
    enabled: Mapped[bool] = mapped_column(default=True)
    missed_policy: Mapped[MissedPolicy] = mapped_column(String(16), default=MissedPolicy.RUN_ONCE)
    # launch values (of a template target only: a workflow's nodes carry their own): a
    # LaunchOverrides body, validated like a manual launch; secret survey answers are sealed in
    # ``secret_launch`` and shown as ******** in ``launch``
    launch: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # a template target's runs are plans (check + diff mode, ``plans``): drift found by itself
    plan: Mapped[bool] = mapped_column(default=False, server_default=false())
    secret_launch: Mapped[bytes | None] = mapped_column(LargeBinary)

    next_fire_at: Mapped[dt.datetime | None]  # UTC; None when no occurrence is left
    last_fired_at: Mapped[dt.datetime | None]
    # no foreign key: runs point at their schedule, and a cycle of keys cannot be created in
    # one CREATE TABLE each; a pruned run leaves an id the API answers 404 for
    last_run_id: Mapped[int | None]
    last_workflow_run_id: Mapped[int | None]  # a workflow target's; no foreign key either
    disabled_reason: Mapped[str] = mapped_column(Text, default="")
    # the last occurrence not launched because a freeze window held (``freezes``), and why
    last_skipped_at: Mapped[dt.datetime | None]
    last_skipped_reason: Mapped[str] = mapped_column(Text, default="", server_default="")

    # for their names in reads (schedules.service loads them with joins)
    template: Mapped[Template | None] = relationship()
    workflow: Mapped[Workflow | None] = relationship()
    owner: Mapped[User | None] = relationship()
