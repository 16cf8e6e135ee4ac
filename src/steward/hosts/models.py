from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import ForeignKey, Index, LargeBinary, String
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


class HostFacts(Base):
    """A host's current facts in a project: every fact its runs gathered, merged as Ansible's
    fact cache merges them (a result's top-level keys replace the stored ones), masked and
    bounded (``hosts.facts``); zlib-compressed JSON. One row per host, replaced as runs gather."""

    __tablename__ = "host_facts"

    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), primary_key=True
    )
    name: Mapped[str] = mapped_column(String(255), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(default=0)  # bytes of the JSON before compression
    dropped: Mapped[list[Any]] = mapped_column(default=list)  # keys cut to stay in the bound
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    updated_at: Mapped[dt.datetime]


class HostFactPoint(Base):
    """A point of a host's facts history: the facts (less the values that move by themselves:
    time, free memory and disk) as a run left them, kept only when they changed. A keyframe
    holds them whole; the points after it only the top-level keys set or removed since the
    point before (``chain``: how many deltas since the keyframe)."""

    __tablename__ = "host_fact_points"
    __table_args__ = (
        Index("ix_host_fact_points_host", "project_id", "name", "id"),
        Index("ix_host_fact_points_gathered_at", "gathered_at"),  # retention: the old ones
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(255))
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    gathered_at: Mapped[dt.datetime]
    digest: Mapped[str] = mapped_column(String(64))  # sha256 of the facts' canonical JSON
    chain: Mapped[int] = mapped_column(default=0)  # 0: a keyframe
    data: Mapped[bytes] = mapped_column(LargeBinary)
