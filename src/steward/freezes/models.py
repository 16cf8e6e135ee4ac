"""Freeze windows: times when no run may start (a change freeze), and the launches that
overrode one.

A window is a wall-clock span in an IANA zone (``starts_local`` up to ``ends_local``, end
exclusive), repeated by an optional RFC 5545 RRULE whose first occurrence is that span. It
covers the whole instance (``project_id`` None, kept by admins) or one project (kept by who may
edit the project); with ``labels``, only the launches of templates carrying at least one of
them (an ad-hoc command has none). ``freezes.windows`` computes where a moment stands; the
launch gate (``runs.service.launch``) asks ``freezes.service.check_launch``.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Collection
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow


class FreezeScope(enum.StrEnum):
    INSTANCE = "instance"
    PROJECT = "project"


class FreezeWindow(Base):
    __tablename__ = "freeze_windows"

    id: Mapped[int] = mapped_column(primary_key=True)
    # None: the instance's (every project)
    project_id: Mapped[int | None] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text, default="")
    # naive wall-clock times in ``timezone`` (no zone in the column: not UTC instants)
    starts_local: Mapped[dt.datetime] = mapped_column(DateTime(timezone=False))
    ends_local: Mapped[dt.datetime] = mapped_column(DateTime(timezone=False))  # exclusive
    timezone: Mapped[str] = mapped_column(String(64))
    rrule: Mapped[str] = mapped_column(Text, default="")  # "" : once
    # template labels, sorted: [] freezes every launch of its scope, else only templates
    # carrying at least one of them
    labels: Mapped[list[Any]] = mapped_column(JSON, default=list, server_default="[]")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, onupdate=utcnow)

    @property
    def scope(self) -> FreezeScope:
        return FreezeScope.INSTANCE if self.project_id is None else FreezeScope.PROJECT

    def covers(self, labels: Collection[str]) -> bool:
        """Whether it freezes a launch of a template carrying ``labels`` (an ad-hoc
        command's: none) in its scope: always without labels of its own, else when one is
        shared."""
        return not self.labels or not set(self.labels).isdisjoint(labels)


class FreezeOverride(Base):
    """A run launched during a freeze by someone allowed to (``freeze:override``), and why."""

    __tablename__ = "freeze_overrides"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), index=True)
    window_id: Mapped[int | None] = mapped_column(
        ForeignKey("freeze_windows.id", ondelete="SET NULL")
    )
    window_name: Mapped[str] = mapped_column(String(100))
    window_ends_at: Mapped[dt.datetime]  # UTC: the end of the occurrence overridden
    reason: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
