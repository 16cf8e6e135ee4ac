from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base, utcnow


class AuditRecord(Base):
    """One state-changing action: who, what, on which object, when, from where, what changed.

    Append-only: no route updates or deletes these; only the retention command removes old ones.
    Actor and object are denormalized (ids and names) so a record survives their deletion.
    """

    __tablename__ = "audit_records"
    __table_args__ = (
        Index("ix_audit_records_created_at", "created_at"),
        Index("ix_audit_records_project_id_id", "project_id", "id"),
        Index("ix_audit_records_action", "action"),
        Index("ix_audit_records_object", "object_type", "object_id"),
        Index("ix_audit_records_actor_user_id", "actor_user_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    # user | token | schedule | webhook | system | anonymous
    actor_type: Mapped[str] = mapped_column(String(10))
    actor_user_id: Mapped[int | None]
    actor: Mapped[str] = mapped_column(String(200), default="")  # "alice", "alice (token ci)"
    action: Mapped[str] = mapped_column(String(64))  # "run:launch", "key:update", …
    object_type: Mapped[str] = mapped_column(String(32), default="")
    object_id: Mapped[int | None]
    object_name: Mapped[str] = mapped_column(String(200), default="")
    project_id: Mapped[int | None]
    source_ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(400), default="")
    changes: Mapped[dict[str, Any]] = mapped_column(default=dict)  # {field: [before, after]}
    detail: Mapped[str] = mapped_column(Text, default="")


class StreamRow(Base):
    """An audit record still to be sent to a sink of the audit stream (``audit.stream``): one row
    per configured sink, inserted with the record (the same transaction, so a record exists
    exactly when its rows do), deleted once the sink acknowledged it.

    No cursor on record ids: on PostgreSQL ids are taken in one order and committed in another,
    so a reader past id N may yet see N-1 appear; a row per record misses nothing."""

    __tablename__ = "audit_stream_outbox"
    # the primary key (sink, event_id) is the claim's order; this one the pruning's cascade
    __table_args__ = (Index("ix_audit_stream_outbox_event_id", "event_id"),)

    sink: Mapped[str] = mapped_column(String(16), primary_key=True)  # "syslog", "http"
    event_id: Mapped[int] = mapped_column(
        ForeignKey("audit_records.id", ondelete="CASCADE"), primary_key=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    attempts: Mapped[int] = mapped_column(default=0)
    # a row the sink refused by itself (an Elastic item error) waits; a sink that failed as a
    # whole waits in ``StreamSink.next_attempt_at``
    next_attempt_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    # claimed by a streamer until then (a lease): a streamer that died frees it by expiring
    claimed_until: Mapped[dt.datetime | None]
    last_error: Mapped[str] = mapped_column(Text, default="")

    event: Mapped[AuditRecord] = relationship(lazy="raise")


class StreamSink(Base):
    """How a sink of the audit stream fares, shared by every server: the consecutive failures
    and when it is tried again (doubling, capped), its last success and last error."""

    __tablename__ = "audit_stream_sinks"

    sink: Mapped[str] = mapped_column(String(16), primary_key=True)
    failures: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[dt.datetime | None]
    last_success_at: Mapped[dt.datetime | None]
    sent: Mapped[int] = mapped_column(default=0)  # events acknowledged since the table's row
    last_error_at: Mapped[dt.datetime | None]
    last_error: Mapped[str] = mapped_column(Text, default="")
