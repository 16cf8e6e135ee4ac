from __future__ import annotations

import datetime as dt
import enum
import uuid
from typing import Any, ClassVar

from sqlalchemy import ForeignKey, Index, LargeBinary, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from steward.bounds import RUN_LABEL_MAX, SEARCHED_VALUE_MAX, VARIABLE_NAME_MAX
from steward.db import Base, utcnow
from steward.runs.status import RunStatus


class RunKind(enum.StrEnum):
    """What a run is for: a run, a plan (check + diff mode, whose apply is bound to it), the
    apply of a plan (``plans``), or an ad-hoc command (one module on an inventory's hosts, no
    template: ``runs.adhoc``)."""

    RUN = "run"
    PLAN = "plan"
    APPLY = "apply"
    ADHOC = "adhoc"


class LaunchType(enum.StrEnum):
    API = "api"
    UI = "ui"
    CLI = "cli"
    RELAUNCH = "relaunch"
    SCHEDULE = "schedule"
    WEBHOOK = "webhook"
    WORKFLOW = "workflow"


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        Index("ix_runs_project_id_id", "project_id", "id"),
        Index("ix_runs_template_id_id", "template_id", "id"),
        Index("ix_runs_status", "status"),
        Index("ix_runs_project_id_created_at", "project_id", "created_at"),
        # a template's runs of the last days, counted per status (its stats) from the index alone
        Index("ix_runs_template_id_status_created_at", "template_id", "status", "created_at"),
        # the dashboard's window of days across projects: its aggregates read this index alone
        Index("ix_runs_created_at", "created_at", "status", "project_id", "template_id"),
        # a run's id is in links, messages and the audit trail: SQLite must never give the id
        # of a removed run (retention, a deleted project) to a new one
        {"sqlite_autoincrement": True},
    )
    # set by the launch and never changed (a relaunch copies them to a new run): a run's tag
    # (``runs.read``) is made of the other columns
    WRITTEN_ONCE: ClassVar[frozenset[str]] = frozenset(
        {"uuid", "params", "template_snapshot", "secret_params"}
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uuid: Mapped[str] = mapped_column(String(36), default=lambda: str(uuid.uuid4()), unique=True)
    project_id: Mapped[int] = mapped_column(ForeignKey("projects.id", ondelete="CASCADE"))
    template_id: Mapped[int | None] = mapped_column(ForeignKey("templates.id", ondelete="SET NULL"))
    status: Mapped[RunStatus] = mapped_column(String(16), default=RunStatus.QUEUED)
    status_reason: Mapped[str] = mapped_column(Text, default="")
    rc: Mapped[int | None]

    launched_by_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), index=True
    )
    launch_type: Mapped[LaunchType] = mapped_column(String(16))
    source_ip: Mapped[str] = mapped_column(String(64), default="")
    user_agent: Mapped[str] = mapped_column(String(400), default="")
    relaunch_of_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))
    # what launched it besides a person: "via schedule N" / "via webhook N"
    schedule_id: Mapped[int | None] = mapped_column(
        ForeignKey("schedules.id", ondelete="SET NULL"), index=True
    )
    webhook_id: Mapped[int | None] = mapped_column(
        ForeignKey("webhooks.id", ondelete="SET NULL"), index=True
    )
    # a node of this workflow run (workflows.progress); its status changes mark it for a pass
    workflow_run_id: Mapped[int | None] = mapped_column(
        ForeignKey("workflow_runs.id", ondelete="SET NULL"), index=True
    )

    kind: Mapped[RunKind] = mapped_column(String(8), default=RunKind.RUN, server_default="run")
    # an apply: the plan it applies (``plans``)
    plan_id: Mapped[int | None] = mapped_column(
        ForeignKey("runs.id", ondelete="SET NULL"), index=True
    )

    # effective parameters with secrets redacted, and the template as it was at launch
    params: Mapped[dict[str, Any]] = mapped_column(default=dict)
    template_snapshot: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # encrypted JSON of secret launch values (survey password answers); never returned
    secret_params: Mapped[bytes | None] = mapped_column(LargeBinary)

    commit_hash: Mapped[str] = mapped_column(String(64), default="")
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    started_at: Mapped[dt.datetime | None]
    finished_at: Mapped[dt.datetime | None]
    cancel_requested_at: Mapped[dt.datetime | None]

    # the runner group (Celery queue) whose workers may execute it, fixed at launch
    runner_group: Mapped[str] = mapped_column(String(63), default="default")
    # who executes it: "<host>:<pid>:<boot>", and the lease renewed while it runs
    worker_id: Mapped[str] = mapped_column(String(200), default="")
    heartbeat_at: Mapped[dt.datetime | None]

    line_count: Mapped[int] = mapped_column(default=0)
    event_count: Mapped[int] = mapped_column(default=0)

    # what the people comparing runs call it ("baseline", "TDE on"); set by who may launch it
    label: Mapped[str] = mapped_column(String(RUN_LABEL_MAX), default="")
    note: Mapped[str] = mapped_column(Text, default="")

    @property
    def name(self) -> str:
        """How the audit trail names the run: its template as it was at launch."""
        return str(self.template_snapshot.get("name", "")) or f"run {self.id}"


class RunValue(Base):
    """A launch value of a run kept searchable (``runs.values``): a non-secret survey answer
    or extra var given at launch (kind ``answer``), or a launch setting (kind ``launch``:
    limit, tags, check mode, …). Written with the run, never changed; secret answers never."""

    __tablename__ = "run_values"
    __table_args__ = (
        # "the runs where db_name is ORCL": from the index, newest first
        Index("ix_run_values_lookup", "kind", "name", "value", "run_id"),
    )

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(VARIABLE_NAME_MAX), primary_key=True)
    value: Mapped[str] = mapped_column(String(SEARCHED_VALUE_MAX))


class RunEvent(Base):
    """One callback event of ansible-playbook, in order; its stdout lives in ``run_output``."""

    __tablename__ = "run_events"
    __table_args__ = (
        Index("ix_run_events_run_id_counter", "run_id", "counter", unique=True),
        Index("ix_run_events_run_id_host", "run_id", "host"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    counter: Mapped[int]
    event: Mapped[str] = mapped_column(String(64))
    uuid: Mapped[str] = mapped_column(String(36), default="")
    parent_uuid: Mapped[str] = mapped_column(String(36), default="")
    host: Mapped[str] = mapped_column(String(255), default="")
    play: Mapped[str] = mapped_column(String(500), default="")
    task: Mapped[str] = mapped_column(String(500), default="")
    task_action: Mapped[str] = mapped_column(String(200), default="")
    role: Mapped[str] = mapped_column(String(200), default="")
    changed: Mapped[bool] = mapped_column(default=False)
    failed: Mapped[bool] = mapped_column(default=False)
    start_line: Mapped[int] = mapped_column(default=0)  # first line number (0-based) of its stdout
    end_line: Mapped[int] = mapped_column(default=0)  # one past the last line
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    started_at: Mapped[dt.datetime | None]
    ended_at: Mapped[dt.datetime | None]
    duration: Mapped[float | None]
    data: Mapped[dict[str, Any]] = mapped_column(default=dict)  # masked event_data (res, …)


class RunOutput(Base):
    """A run's output, masked, ANSI kept, in chunks: consecutive lines of one event.

    Lines are numbered from 0 per run; a chunk holds whole lines, about ``CHUNK_CHARS``
    characters of them joined by "\\n". One row per chunk rather than per line: a task printing
    200,000 short lines is a few hundred rows, which is what makes storing huge outputs cheap.
    Keyed by its last line, so the chunk holding any line ``n`` is the first one with
    ``last_line >= n``.
    """

    __tablename__ = "run_output"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    last_line: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    first_line: Mapped[int]
    counter: Mapped[int]  # the event the lines belong to
    text: Mapped[str] = mapped_column(Text)


class RunHost(Base):
    """Per-host recap of a run (from the playbook_on_stats event)."""

    __tablename__ = "run_hosts"
    __table_args__ = (Index("ix_run_hosts_host", "host"),)

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    host: Mapped[str] = mapped_column(String(255), primary_key=True)
    ok: Mapped[int] = mapped_column(default=0)
    changed: Mapped[int] = mapped_column(default=0)
    failed: Mapped[int] = mapped_column(default=0)
    unreachable: Mapped[int] = mapped_column(default=0)
    skipped: Mapped[int] = mapped_column(default=0)
    rescued: Mapped[int] = mapped_column(default=0)
    ignored: Mapped[int] = mapped_column(default=0)


class Plan(Base):
    """What binds a plan run (``Run.kind`` plan) to its apply (``plans``): hashes of what it ran
    with, its expiry, its approval, and the apply that consumed it. Written at launch; the
    inventory's hashes while it executes."""

    __tablename__ = "plans"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True)
    expires_at: Mapped[dt.datetime]
    # hashes of the template, environment, keys and launch values as launched: {name: sha256}
    binding: Mapped[dict[str, Any]] = mapped_column(default=dict)
    # the resolved inventory (ansible-inventory --list --export) and its host names, hashed
    inventory_hash: Mapped[str] = mapped_column(String(64), default="")
    inventory_hosts_hash: Mapped[str] = mapped_column(String(64), default="")
    inventory_host_count: Mapped[int] = mapped_column(default=0)
    needs_approval: Mapped[bool] = mapped_column(default=False)
    approval: Mapped[str] = mapped_column(String(16), default="")  # "", approved, rejected
    approved_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    approval_comment: Mapped[str] = mapped_column(Text, default="")
    decided_at: Mapped[dt.datetime | None]
    # the apply that consumed it: set once, by a conditional update (``plans.service.apply``)
    apply_run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id", ondelete="SET NULL"))


class RunChange(Base):
    """A task result of a plan or an apply that changed (or, in a plan, would change, or cannot
    be predicted: ``unknown``), per host; a task is known across runs of one commit by its
    ``task_path`` (file:line), host and ``occurrence`` (the nth result of that path there)."""

    __tablename__ = "run_changes"
    __table_args__ = (Index("ix_run_changes_run_id_outcome", "run_id", "outcome", "task_path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    counter: Mapped[int]  # the event
    host: Mapped[str] = mapped_column(String(255))
    task: Mapped[str] = mapped_column(String(500), default="")
    task_path: Mapped[str] = mapped_column(String(1000), default="")
    occurrence: Mapped[int] = mapped_column(default=1)
    action: Mapped[str] = mapped_column(String(200), default="")
    outcome: Mapped[str] = mapped_column(String(8))  # change, unknown
    reason: Mapped[str] = mapped_column(Text, default="")  # why unknown
    diff: Mapped[str] = mapped_column(Text, default="")  # unified, masked, bounded
    unplanned: Mapped[bool] = mapped_column(default=False)  # an apply's change no plan predicted
