"""Where a project's run events go (destinations), who wants which (subscriptions), and each
message with its delivery attempts (the outbox the notifier drains)."""

from __future__ import annotations

import datetime as dt
import enum
from typing import Any

from sqlalchemy import ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from steward.db import Base, utcnow
from steward.keys.models import Key
from steward.projects.scoped import ProjectScoped


class DestinationKind(enum.StrEnum):
    EMAIL = "email"
    SLACK = "slack"
    TEAMS = "teams"
    WEBHOOK = "webhook"  # generic JSON POST with an HMAC signature header


class RunEventKind(enum.StrEnum):
    STARTED = "started"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    ERROR = "error"
    CANCELED = "canceled"
    TIMED_OUT = "timed_out"
    FIXED = "fixed"  # first success after a failure
    CHANGED = "changed"  # a successful run that changed something
    LONG_RUNNING = "long_running"  # still running after N minutes
    # a host of a running run gave no sign of life for N minutes (runs.quiet): once per host
    HOST_QUIET = "host_quiet"
    # a workflow's approval node waits: project-wide subscriptions, a template's when a node
    # of the workflow run runs it, the schedule's that launched it (outbox.on_approval_waiting)
    APPROVAL_NEEDED = "approval_needed"
    # a scheduled plan found drift on a template that last applied cleanly: once per change of
    # the drift (``drift.state``), with the plan's summary
    DRIFT_DETECTED = "drift_detected"
    # a run launched during a freeze window by who may override it, with the reason
    # (``freezes.service``, in the launch's transaction)
    FREEZE_OVERRIDE = "freeze_override"


class Destination(ProjectScoped):
    __tablename__ = "notification_destinations"

    kind: Mapped[DestinationKind] = mapped_column(String(16))
    # kind-specific, no secret in it (notifications.schemas): email {host, port, security,
    # username, from_address, to[], verify_tls}; webhook {url, headers}; slack/teams {} (their URL
    # carries the credential, so it lives in the key store)
    config: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the key store entry holding the secret: SMTP password, the incoming-webhook URL, HMAC secret
    secret_key_id: Mapped[int | None] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    enabled: Mapped[bool] = mapped_column(default=True)

    secret_key: Mapped[Key | None] = relationship(lazy="selectin")

    @property
    def secret_key_name(self) -> str | None:
        return self.secret_key.name if self.secret_key is not None else None


class Subscription(Base):
    """Events of a project's runs, or of one template's, or of one schedule's, to a destination."""

    __tablename__ = "notification_subscriptions"

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(
        ForeignKey("projects.id", ondelete="CASCADE"), index=True
    )
    destination_id: Mapped[int] = mapped_column(
        ForeignKey("notification_destinations.id", ondelete="CASCADE")
    )
    template_id: Mapped[int | None] = mapped_column(ForeignKey("templates.id", ondelete="CASCADE"))
    schedule_id: Mapped[int | None] = mapped_column(ForeignKey("schedules.id", ondelete="CASCADE"))
    events: Mapped[list[Any]] = mapped_column(default=list)  # RunEventKind values
    # for LONG_RUNNING: a fraction allowed (0.05 = 3 s), so tests need not wait minutes
    long_running_minutes: Mapped[float | None]
    # for HOST_QUIET: None = the instance's ``host_quiet_minutes`` (what the run page flags)
    host_quiet_minutes: Mapped[float | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class MessageStatus(enum.StrEnum):
    PENDING = "pending"  # waiting for its next attempt
    SENDING = "sending"  # claimed by a notifier
    SENT = "sent"
    FAILED = "failed"  # attempts exhausted


class Message(Base):
    """One event of one run for one destination: created in the transaction of the run's status
    change (so none is lost), delivered later by the notifier with retries."""

    __tablename__ = "notification_messages"
    __table_args__ = (
        Index("ix_notification_messages_due", "status", "next_attempt_at"),
        Index("ix_notification_messages_destination_id_id", "destination_id", "id"),
        # an event of a run is told to a destination once (long_running included), host_quiet
        # once per host
        UniqueConstraint("destination_id", "run_id", "event", "host"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    destination_id: Mapped[int] = mapped_column(
        ForeignKey("notification_destinations.id", ondelete="CASCADE")
    )
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    # approval_needed: the workflow run and its waiting node (no run_id); a plan's: its run
    workflow_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("workflow_runs.id", ondelete="CASCADE"), index=True
    )
    node_key: Mapped[str] = mapped_column(String(64), default="")
    # host_quiet: the quiet host ("" for every other event)
    host: Mapped[str] = mapped_column(String(255), default="")
    event: Mapped[str] = mapped_column(String(32))  # RunEventKind, or "test"
    status: Mapped[MessageStatus] = mapped_column(String(16), default=MessageStatus.PENDING)
    attempts: Mapped[int] = mapped_column(default=0)
    next_attempt_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    claimed_at: Mapped[dt.datetime | None]
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    sent_at: Mapped[dt.datetime | None]
    last_error: Mapped[str] = mapped_column(Text, default="")
    # what is sent (notifications.messages), built from the run at the first attempt and kept,
    # so every retry sends the same thing and the console shows it; {} until then
    content: Mapped[dict[str, Any]] = mapped_column(default=dict)


class Attempt(Base):
    """One try to deliver a message: when, the outcome (HTTP status / SMTP reply) and the error."""

    __tablename__ = "notification_attempts"
    __table_args__ = (Index("ix_notification_attempts_message_id", "message_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    message_id: Mapped[int] = mapped_column(
        ForeignKey("notification_messages.id", ondelete="CASCADE")
    )
    at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    ok: Mapped[bool] = mapped_column(default=False)
    status: Mapped[str] = mapped_column(String(100), default="")  # "HTTP 200", "SMTP 250"
    error: Mapped[str] = mapped_column(Text, default="")
    duration_ms: Mapped[int] = mapped_column(default=0)
