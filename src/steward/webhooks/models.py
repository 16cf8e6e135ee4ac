"""Inbound webhooks of a template or a workflow, and every delivery they received."""

from __future__ import annotations

import datetime as dt
import enum
import secrets
from typing import Any

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow
from steward.projects.scoped import ProjectScoped
from steward.triggers.schemas import TargetKind


class WebhookAuth(enum.StrEnum):
    GITHUB = "github"  # X-Hub-Signature-256: sha256=HMAC(secret, body)
    GITLAB = "gitlab"  # X-Gitlab-Token: the secret
    HMAC = "hmac"  # X-Steward-Signature-256: sha256=HMAC(secret, body)
    BEARER = "bearer"  # Authorization: Bearer <secret>


def new_hook_id() -> str:
    return secrets.token_urlsafe(24)


class Webhook(ProjectScoped):
    __tablename__ = "webhooks"
    __table_args__ = (
        UniqueConstraint("project_id", "name"),
        # exactly one target; deleted with it (CASCADE)
        CheckConstraint("(template_id IS NULL) <> (workflow_id IS NULL)", name="one_target"),
    )

    template_id: Mapped[int | None] = mapped_column(
        ForeignKey("templates.id", ondelete="CASCADE"), index=True
    )
    # a workflow target launches a workflow run; no launch values come from the delivery
    workflow_id: Mapped[int | None] = mapped_column(
        ForeignKey("workflows.id", ondelete="CASCADE"), index=True
    )
    # who last saved it: deliveries launch with this user's rights (capped at run scope)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # the unguessable part of its URL: POST /api/v1/hooks/{hook_id}
    hook_id: Mapped[str] = mapped_column(String(64), unique=True, default=new_hook_id)
    auth: Mapped[WebhookAuth] = mapped_column(String(16))
    secret_key_id: Mapped[int] = mapped_column(ForeignKey("keys.id", ondelete="RESTRICT"))
    enabled: Mapped[bool] = mapped_column(default=True)
    # [{"source": "body"|"header", "path": "ref", "op": "equals", "value": "refs/heads/main"}]:
    # all must hold (webhooks.matching)
    matchers: Mapped[list[Any]] = mapped_column(default=list)
    # {"variable": "body path"}: body fields that become (unsafe) extra vars of the run
    extractors: Mapped[dict[str, Any]] = mapped_column(default=dict)
    ref_from: Mapped[str] = mapped_column(String(200), default="")  # body path of a ref/commit
    rate_limit_per_minute: Mapped[int] = mapped_column(default=30)
    disabled_reason: Mapped[str] = mapped_column(Text, default="")

    @property
    def target_kind(self) -> TargetKind:
        return TargetKind.TEMPLATE if self.workflow_id is None else TargetKind.WORKFLOW


class DeliveryOutcome(enum.StrEnum):
    LAUNCHED = "launched"
    MATCHED = "matched"  # a test delivery in dry run: it would have launched
    IGNORED = "ignored"  # authenticated, but a matcher did not hold
    REJECTED = "rejected"  # bad signature/secret, replay, unreadable body or refused values
    RATE_LIMITED = "rate_limited"
    FAILED = "failed"  # matched, but the launch was refused (rights, template, workflow)


class WebhookDelivery(Base):
    __tablename__ = "webhook_deliveries"
    __table_args__ = (
        Index("ix_webhook_deliveries_webhook_id_id", "webhook_id", "id"),
        # the rate limit counts a hook's deliveries of the last minute
        Index("ix_webhook_deliveries_webhook_id_received_at", "webhook_id", "received_at"),
        # replay protection: a sender's delivery id is accepted once per hook
        UniqueConstraint("webhook_id", "delivery_key"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    webhook_id: Mapped[int] = mapped_column(ForeignKey("webhooks.id", ondelete="CASCADE"))
    received_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    # X-GitHub-Delivery, …: kept only when the delivery launched a run or was ignored, so
    # neither a forged or refused request nor a failed launch uses up the id of a delivery
    delivery_key: Mapped[str | None] = mapped_column(String(200))
    event: Mapped[str] = mapped_column(String(100), default="")  # X-GitHub-Event, X-Gitlab-Event
    source_ip: Mapped[str] = mapped_column(String(64), default="")
    headers: Mapped[dict[str, Any]] = mapped_column(default=dict)  # secrets masked
    body: Mapped[str] = mapped_column(Text, default="")  # up to a limit, secrets masked
    body_truncated: Mapped[bool] = mapped_column(default=False)
    authenticated: Mapped[bool] = mapped_column(default=False)  # signature or secret verified
    outcome: Mapped[DeliveryOutcome] = mapped_column(String(16))
    reason: Mapped[str] = mapped_column(Text, default="")
    status_code: Mapped[int] = mapped_column(default=202)  # what the sender was answered
    # the launch values taken from the body (extra vars, survey answers, ref)
    launch: Mapped[dict[str, Any]] = mapped_column(default=dict)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    # a workflow target's launch
    workflow_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("workflow_runs.id", ondelete="SET NULL")
    )
    test: Mapped[bool] = mapped_column(default=False)  # sent from the console's "send test"
