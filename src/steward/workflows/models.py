"""Workflows: a project's DAG of template runs and approvals, stored as one document, and
its runs.

A workflow's ``nodes`` and ``edges`` are its document (JSON, checked on save by
``workflows.graph``); ``WorkflowTemplate`` rows list the templates it references, so a template
in use cannot be deleted. A launch copies the document into a ``WorkflowRun`` and one
``WorkflowNodeRun`` row per node: the rows are the truth of its progress.

Progress is an outbox: a node run's status change (``runs.lifecycle``) sets ``needs_pass`` on
its workflow run in the same transaction; a server's ``workflows`` ticker claims the workflow run
(a conditional UPDATE) and advances it. Every node change is itself a conditional UPDATE, so a
pass repeated, or made by two servers at once, launches nothing twice.
"""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Mapping
from typing import Any

from sqlalchemy import ForeignKey, Index, LargeBinary, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from steward.db import Base, utcnow
from steward.projects.scoped import ProjectScoped


class NodeKind(enum.StrEnum):
    TEMPLATE = "template"
    APPROVAL = "approval"
    PLAN = "plan"  # its template launched as a plan (check + diff mode)
    APPLY = "apply"  # the bound apply of an earlier plan node's plan (``plan_node``)

    @property
    def launches(self) -> bool:
        """Whether the node names a template it launches (``template_id``, ``launch``)."""
        return self in (NodeKind.TEMPLATE, NodeKind.PLAN)


class EdgeOn(enum.StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    ALWAYS = "always"


class WorkflowRunStatus(enum.StrEnum):
    RUNNING = "running"
    SUCCESSFUL = "successful"
    FAILED = "failed"
    CANCELED = "canceled"

    @property
    def is_finished(self) -> bool:
        return self is not WorkflowRunStatus.RUNNING


class NodeStatus(enum.StrEnum):
    PENDING = "pending"  # its parents have not all finished
    RUNNING = "running"  # its run is launched (queued or running)
    WAITING = "waiting"  # an approval waiting for a decision; an apply for its plan's approval
    SUCCESSFUL = "successful"  # its run succeeded, or approved
    FAILED = "failed"  # its run failed (error, timed out, canceled outside the workflow), denied
    SKIPPED = "skipped"  # never reached: no edge into it fired
    CANCELED = "canceled"  # the workflow run was canceled before or while it ran

    @property
    def is_finished(self) -> bool:
        return self in NODE_FINISHED


NODE_FINISHED = frozenset(
    {NodeStatus.SUCCESSFUL, NodeStatus.FAILED, NodeStatus.SKIPPED, NodeStatus.CANCELED}
)


def approver_must_differ(node: Mapping[str, Any]) -> bool:
    """A stored approval node's option: on unless its document says ``false`` (an approval node
    saved before the option existed has no such key: on, the safe reading)."""
    return node.get("approver_must_differ") is not False


class WorkflowLaunchType(enum.StrEnum):
    """How a workflow run was launched: by a person, a schedule or a webhook."""

    MANUAL = "manual"
    SCHEDULE = "schedule"
    WEBHOOK = "webhook"


class Workflow(ProjectScoped):
    __tablename__ = "workflows"

    # the document, as checked by workflows.graph: nodes (key, kind, template_id, launch, name,
    # timeout_seconds, approver_must_differ, plan_node) and edges (from, to, on): an approval
    # node saved before approver_must_differ existed reads as on (``approver_must_differ``);
    # secret survey answers of node launch values are ******** in ``nodes`` and sealed
    # together, by node key, in ``secret_launch``
    nodes: Mapped[list[Any]] = mapped_column(default=list)
    edges: Mapped[list[Any]] = mapped_column(default=list)
    secret_launch: Mapped[bytes | None] = mapped_column(LargeBinary)


class WorkflowTemplate(Base):
    """A template one of the workflow's nodes runs: a template in use is not deleted (its key
    refuses it, ``steward.references``). NO ACTION rather than RESTRICT: the database checks it
    at the end of the statement, so a project's delete takes its workflows and templates at once
    (SQLite checks RESTRICT at each row, in the order it cascades)."""

    __tablename__ = "workflow_templates"

    workflow_id: Mapped[int] = mapped_column(
        ForeignKey("workflows.id", ondelete="CASCADE"), primary_key=True
    )
    template_id: Mapped[int] = mapped_column(
        ForeignKey("templates.id", ondelete="NO ACTION"), primary_key=True, index=True
    )


class WorkflowRun(Base):
    __tablename__ = "workflow_runs"
    __table_args__ = (
        Index("ix_workflow_runs_project_id_id", "project_id", "id"),
        Index("ix_workflow_runs_workflow_id_id", "workflow_id", "id"),
        Index("ix_workflow_runs_needs_pass", "needs_pass"),
        Index("ix_workflow_runs_wake_at", "wake_at"),
        {"sqlite_autoincrement": True},  # as runs: an id is never given to another run
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    workflow_id: Mapped[int | None] = mapped_column(ForeignKey("workflows.id", ondelete="SET NULL"))
    workflow_name: Mapped[str] = mapped_column(String(100))
    status: Mapped[WorkflowRunStatus] = mapped_column(String(16), default=WorkflowRunStatus.RUNNING)
    status_reason: Mapped[str] = mapped_column(Text, default="")
    launched_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    launch_type: Mapped[WorkflowLaunchType] = mapped_column(
        String(16), default=WorkflowLaunchType.MANUAL
    )
    # what launched it besides a person: "via schedule N" / "via webhook N"
    schedule_id: Mapped[int | None] = mapped_column(
        ForeignKey("schedules.id", ondelete="SET NULL"), index=True
    )
    webhook_id: Mapped[int | None] = mapped_column(
        ForeignKey("webhooks.id", ondelete="SET NULL"), index=True
    )
    # the document as launched (edits of the workflow do not change a run under way)
    edges: Mapped[list[Any]] = mapped_column(default=list)
    secret_launch: Mapped[bytes | None] = mapped_column(LargeBinary)

    # the outbox: set by a node run's end, a decision, a cancel; cleared by the pass's claim
    needs_pass: Mapped[bool] = mapped_column(default=True)
    # the earliest approval deadline of a waiting node: the ticker passes then
    wake_at: Mapped[dt.datetime | None]

    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[dt.datetime | None]
    cancel_requested_at: Mapped[dt.datetime | None]


class WorkflowNodeRun(Base):
    """One node of one workflow run."""

    __tablename__ = "workflow_node_runs"
    __table_args__ = (UniqueConstraint("workflow_run_id", "key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    workflow_run_id: Mapped[int] = mapped_column(
        ForeignKey("workflow_runs.id", ondelete="CASCADE"), index=True
    )
    key: Mapped[str] = mapped_column(String(64))
    position: Mapped[int] = mapped_column(default=0)  # its place in the document
    kind: Mapped[NodeKind] = mapped_column(String(16))
    name: Mapped[str] = mapped_column(String(100), default="")  # an approval's name
    template_id: Mapped[int | None]  # as launched; its run keeps the template's snapshot
    launch: Mapped[dict[str, Any]] = mapped_column(default=dict)  # secrets as ********
    timeout_seconds: Mapped[int | None]  # an approval's; None: waits forever
    # an approval's: the launcher of the workflow run may not approve it (workflows.approvers)
    approver_must_differ: Mapped[bool] = mapped_column(default=True)
    # an apply node's: the key of the plan node (same workflow run) whose plan it applies
    plan_node: Mapped[str | None] = mapped_column(String(64))
    status: Mapped[NodeStatus] = mapped_column(String(16), default=NodeStatus.PENDING)
    # no foreign key: a run pruned by retention leaves an id the API answers 404 for
    run_id: Mapped[int | None] = mapped_column(index=True)
    deadline_at: Mapped[dt.datetime | None]  # a waiting approval times out then
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decided_by: Mapped[str] = mapped_column(String(150), default="")  # the username, kept
    decided_at: Mapped[dt.datetime | None]
    reason: Mapped[str] = mapped_column(Text, default="")
    started_at: Mapped[dt.datetime | None]
    finished_at: Mapped[dt.datetime | None]
