from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import Index, String, Text
from sqlalchemy.orm import Mapped, mapped_column

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
