from __future__ import annotations

import datetime as dt
import enum

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base


class Outcome(enum.StrEnum):
    """How a run went on one host, from its recap: the worst that happened to it."""

    FAILED = "failed"
    UNREACHABLE = "unreachable"
    CHANGED = "changed"
    OK = "ok"
    UNKNOWN = ""  # seen before outcomes were kept (rows from revision 0004's backfill)


class ProjectHost(Base):
    """A host as the project's runs saw it: when first and last, the last run and how it went
    there, how many runs. Kept by the recorder when a run's recap arrives (``hosts.seen``), so
    the hosts view never aggregates ``run_hosts`` per request."""

    __tablename__ = "project_hosts"

    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    first_seen_at: Mapped[dt.datetime]
    last_seen_at: Mapped[dt.datetime]
    last_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    last_outcome: Mapped[Outcome] = mapped_column(String(16), default=Outcome.UNKNOWN)
    runs: Mapped[int] = mapped_column(default=0)
