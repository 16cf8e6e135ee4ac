"""Drift: a template whose hosts moved away from what its last clean run left, as a plan found
it (``drift.state``). One row per template, kept as runs end; the hosts and the diffs are the
``run_changes`` of its plan (``plan_run_id``)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base


class TemplateDrift(Base):
    __tablename__ = "template_drift"

    template_id: Mapped[int] = mapped_column(
        ForeignKey("templates.id", ondelete="CASCADE"), primary_key=True
    )
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    drifted: Mapped[bool] = mapped_column(default=False)
    # sha256 of the drift (each host, task path, occurrence and diff that would change): a
    # drift_detected message goes out when it changes, not at every plan that sees it again
    fingerprint: Mapped[str] = mapped_column(String(64), default="")
    host_count: Mapped[int] = mapped_column(default=0)
    task_count: Mapped[int] = mapped_column(default=0)
    # the latest plan that found it (or found none); its changes are the drift's hosts and diffs
    plan_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    # the clean run or apply the hosts moved away from
    baseline_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    detected_at: Mapped[dt.datetime | None]  # when this drift (fingerprint) was first found
    checked_at: Mapped[dt.datetime | None]  # when a run last spoke for it
    # the newest run that changed the row: an older run finishing later changes nothing
    checked_run_id: Mapped[int] = mapped_column(default=0)
    cleared_at: Mapped[dt.datetime | None]
    cleared_by_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("runs.id", ondelete="SET NULL")
    )
    cleared_reason: Mapped[str] = mapped_column(Text, default="")
