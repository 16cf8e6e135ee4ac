"""0.2.0's schema since the 0.1.0 baseline (0001), in one revision.

Written as twelve revisions while 0.2.0 was unreleased (numbered 0002 to 0013, squashed before
the release: one upgrade step from 0.1.0); a database one of those migrated is refused as
unknown (``steward migrate --check``), never taken for this one. What each part adds:

- 0002: notifications: host_quiet (the quiet host of a message, its own threshold)
- 0003: audit stream: outbox rows per sink and the sinks' state
- 0004: hosts view: the hosts inventories list (inventory_hosts) and runs reached
  (project_hosts), filled from the runs recorded so far (their outcomes were not kept: '').
- 0005: plans and bound applies
- 0006: drift: schedules of plans (schedules.plan), and each template's drift (template_drift)
- 0007: host facts and their history, template use_fact_cache
- 0008: host health: checks on the port Ansible uses (history, latest, the periodic pass's
  claim), a run's pre-flight hosts, where Ansible connects to each inventory host, a template's
  preflight. Static inventories are marked unread so their hosts are read again (once, on the
  next hosts read): that fills ``inventory_hosts.connection``; others fill it when next read.
- 0009: template grants: host scope
- 0010: workflow apply nodes name their plan node
- 0011: freeze windows
- 0012: host metrics lane index, fact points by age
- 0013: template labels, freeze windows by label

Revision ID: 0014
Revises: 0001
Create Date: 2026-11-29 06:00:00.000000
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0014"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # 0002: notifications: host_quiet (the quiet host of a message, its own threshold)
    with op.batch_alter_table("notification_messages", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("host", sa.String(length=255), nullable=False, server_default="")
        )
        batch_op.drop_constraint(
            batch_op.f("uq_notification_messages_destination_id"), type_="unique"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_notification_messages_destination_id"),
            ["destination_id", "run_id", "event", "host"],
        )

    with op.batch_alter_table("notification_subscriptions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("host_quiet_minutes", sa.Double(), nullable=True))

    # 0003: audit stream: outbox rows per sink and the sinks' state
    op.create_table(
        "audit_stream_sinks",
        sa.Column("sink", sa.String(length=16), nullable=False),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_success_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("sent", sa.Integer(), nullable=False),
        sa.Column("last_error_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("sink", name=op.f("pk_audit_stream_sinks")),
    )
    op.create_table(
        "audit_stream_outbox",
        sa.Column("sink", sa.String(length=16), nullable=False),
        sa.Column("event_id", sa.Integer(), nullable=False),
        sa.Column("created_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("claimed_until", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["event_id"],
            ["audit_records.id"],
            name=op.f("fk_audit_stream_outbox_event_id_audit_records"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("sink", "event_id", name=op.f("pk_audit_stream_outbox")),
    )
    with op.batch_alter_table("audit_stream_outbox", schema=None) as batch_op:
        batch_op.create_index("ix_audit_stream_outbox_event_id", ["event_id"], unique=False)

    # 0004: hosts view: inventory_hosts, project_hosts (filled from the runs so far)
    op.create_table(
        "inventory_hosts",
        sa.Column("inventory_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("groups", sa.JSON(), nullable=False),
        sa.Column("vars", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["inventory_id"],
            ["inventories.id"],
            name=op.f("fk_inventory_hosts_inventory_id_inventories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("inventory_id", "name", name=op.f("pk_inventory_hosts")),
    )
    with op.batch_alter_table("inventory_hosts", schema=None) as batch_op:
        batch_op.create_index("ix_inventory_hosts_name", ["name"], unique=False)

    op.create_table(
        "project_hosts",
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("first_seen_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_seen_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("last_run_id", sa.Integer(), nullable=True),
        sa.Column("last_outcome", sa.String(length=16), nullable=False),
        sa.Column("runs", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["last_run_id"],
            ["runs.id"],
            name=op.f("fk_project_hosts_last_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_project_hosts_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("project_id", "name", name=op.f("pk_project_hosts")),
    )
    with op.batch_alter_table("inventories", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("hosts_read_at", steward.db.UTCDateTime(timezone=True), nullable=True)
        )

    op.execute(
        "INSERT INTO project_hosts"
        " (project_id, name, first_seen_at, last_seen_at, last_run_id, last_outcome, runs)"
        " SELECT r.project_id, h.host, MIN(r.created_at), MAX(r.created_at), MAX(r.id), '',"
        " COUNT(*) FROM run_hosts h JOIN runs r ON r.id = h.run_id GROUP BY r.project_id, h.host"
    )

    # 0005: plans and bound applies
    op.create_table(
        "plans",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("binding", sa.JSON(), nullable=False),
        sa.Column("inventory_hash", sa.String(length=64), nullable=False),
        sa.Column("inventory_hosts_hash", sa.String(length=64), nullable=False),
        sa.Column("inventory_host_count", sa.Integer(), nullable=False),
        sa.Column("needs_approval", sa.Boolean(), nullable=False),
        sa.Column("approval", sa.String(length=16), nullable=False),
        sa.Column("approved_by_id", sa.Integer(), nullable=True),
        sa.Column("approval_comment", sa.Text(), nullable=False),
        sa.Column("decided_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("apply_run_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["apply_run_id"],
            ["runs.id"],
            name=op.f("fk_plans_apply_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["approved_by_id"],
            ["users.id"],
            name=op.f("fk_plans_approved_by_id_users"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_plans_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("run_id", name=op.f("pk_plans")),
    )
    op.create_table(
        "run_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("counter", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("task", sa.String(length=500), nullable=False),
        sa.Column("task_path", sa.String(length=1000), nullable=False),
        sa.Column("occurrence", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=200), nullable=False),
        sa.Column("outcome", sa.String(length=8), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("diff", sa.Text(), nullable=False),
        sa.Column("unplanned", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_run_changes_run_id_runs"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_run_changes")),
    )
    with op.batch_alter_table("run_changes", schema=None) as batch_op:
        batch_op.create_index(
            "ix_run_changes_run_id_outcome", ["run_id", "outcome", "task_path"], unique=False
        )

    # no batch for runs: SQLite would copy the table and lose its AUTOINCREMENT (run ids are
    # never reused); SQLite adds a column with its foreign key inline
    op.add_column(
        "runs", sa.Column("kind", sa.String(length=8), server_default="run", nullable=False)
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "ALTER TABLE runs ADD COLUMN plan_id INTEGER CONSTRAINT fk_runs_plan_id_runs"
            " REFERENCES runs (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("runs", sa.Column("plan_id", sa.Integer(), nullable=True))
        op.create_foreign_key(
            "fk_runs_plan_id_runs", "runs", "runs", ["plan_id"], ["id"], ondelete="SET NULL"
        )
    op.create_index("ix_runs_plan_id", "runs", ["plan_id"], unique=False)

    # no batch either: a copy of templates would drop the table its runs, schedules and
    # webhooks reference (refused with foreign keys on)
    op.add_column(
        "templates",
        sa.Column("plans_allowed", sa.Boolean(), server_default=sa.false(), nullable=False),
    )
    op.add_column(
        "templates",
        sa.Column("plan_approval", sa.Boolean(), server_default=sa.false(), nullable=False),
    )

    # 0006: drift: schedules of plans (schedules.plan), and each template's drift (template_drift)
    op.create_table(
        "template_drift",
        sa.Column("template_id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("drifted", sa.Boolean(), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("host_count", sa.Integer(), nullable=False),
        sa.Column("task_count", sa.Integer(), nullable=False),
        sa.Column("plan_run_id", sa.Integer(), nullable=True),
        sa.Column("baseline_run_id", sa.Integer(), nullable=True),
        sa.Column("detected_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("checked_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("checked_run_id", sa.Integer(), nullable=False),
        sa.Column("cleared_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("cleared_by_run_id", sa.Integer(), nullable=True),
        sa.Column("cleared_reason", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["baseline_run_id"],
            ["runs.id"],
            name=op.f("fk_template_drift_baseline_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["cleared_by_run_id"],
            ["runs.id"],
            name=op.f("fk_template_drift_cleared_by_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["plan_run_id"],
            ["runs.id"],
            name=op.f("fk_template_drift_plan_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_template_drift_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["template_id"],
            ["templates.id"],
            name=op.f("fk_template_drift_template_id_templates"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("template_id", name=op.f("pk_template_drift")),
    )
    with op.batch_alter_table("template_drift", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_template_drift_project_id"), ["project_id"], unique=False
        )

    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("plan", sa.Boolean(), server_default=sa.false(), nullable=False)
        )

    # 0007: host facts and their history, template use_fact_cache
    op.create_table(
        "host_fact_points",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("gathered_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("chain", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_host_fact_points_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_host_fact_points_run_id_runs"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_host_fact_points")),
    )
    with op.batch_alter_table("host_fact_points", schema=None) as batch_op:
        batch_op.create_index(
            "ix_host_fact_points_host", ["project_id", "name", "id"], unique=False
        )

    op.create_table(
        "host_facts",
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=255), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("dropped", sa.JSON(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=True),
        sa.Column("updated_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_host_facts_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["run_id"], ["runs.id"], name=op.f("fk_host_facts_run_id_runs"), ondelete="SET NULL"
        ),
        sa.PrimaryKeyConstraint("project_id", "name", name=op.f("pk_host_facts")),
    )
    op.add_column(
        "templates",
        sa.Column("use_fact_cache", sa.Boolean(), server_default=sa.false(), nullable=False),
    )

    # 0008: host health: checks, sweeps, pre-flight hosts, where Ansible connects
    op.create_table(
        "health_sweeps",
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("next_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("started_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("finished_at", steward.db.UTCDateTime(timezone=True), nullable=True),
        sa.Column("hosts", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_health_sweeps")),
    )
    op.create_table(
        "host_checks",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=False),
        sa.Column("inventory_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("checked_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("tcp_ms", sa.Double(), nullable=True),
        sa.Column("banner_ms", sa.Double(), nullable=True),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.Column("trigger", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["inventory_id"],
            ["inventories.id"],
            name=op.f("fk_host_checks_inventory_id_inventories"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_host_checks_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_host_checks")),
    )
    with op.batch_alter_table("host_checks", schema=None) as batch_op:
        batch_op.create_index("ix_host_checks_checked_at", ["checked_at"], unique=False)
        batch_op.create_index(
            "ix_host_checks_host", ["project_id", "host", "checked_at"], unique=False
        )

    op.create_table(
        "host_health",
        sa.Column("inventory_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("checked_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("tcp_ms", sa.Double(), nullable=True),
        sa.Column("banner_ms", sa.Double(), nullable=True),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.ForeignKeyConstraint(
            ["inventory_id"],
            ["inventories.id"],
            name=op.f("fk_host_health_inventory_id_inventories"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("inventory_id", "host", name=op.f("pk_host_health")),
    )
    op.create_table(
        "run_preflight_hosts",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=255), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.String(length=300), nullable=False),
        sa.Column("skipped", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_run_preflight_hosts_run_id_runs"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("run_id", "host", name=op.f("pk_run_preflight_hosts")),
    )
    with op.batch_alter_table("inventory_hosts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("connection", sa.JSON(), server_default="{}", nullable=False))

    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("preflight", sa.String(length=24), server_default="off", nullable=False)
        )

    op.execute("UPDATE inventories SET hosts_read_at = NULL WHERE kind = 'static'")

    # 0009: template grants: host scope
    with op.batch_alter_table("template_grants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hosts", sa.JSON(), server_default="[]", nullable=False))

    # 0010: workflow apply nodes name their plan node
    with op.batch_alter_table("workflow_node_runs", schema=None) as batch_op:
        batch_op.add_column(sa.Column("plan_node", sa.String(length=64), nullable=True))

    # 0011: freeze windows
    op.create_table(
        "freeze_windows",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("project_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("starts_local", sa.DateTime(), nullable=False),
        sa.Column("ends_local", sa.DateTime(), nullable=False),
        sa.Column("timezone", sa.String(length=64), nullable=False),
        sa.Column("rrule", sa.Text(), nullable=False),
        sa.Column("created_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("updated_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["project_id"],
            ["projects.id"],
            name=op.f("fk_freeze_windows_project_id_projects"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_freeze_windows")),
    )
    with op.batch_alter_table("freeze_windows", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_freeze_windows_project_id"), ["project_id"], unique=False
        )

    op.create_table(
        "freeze_overrides",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("window_id", sa.Integer(), nullable=True),
        sa.Column("window_name", sa.String(length=100), nullable=False),
        sa.Column("window_ends_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", steward.db.UTCDateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["run_id"],
            ["runs.id"],
            name=op.f("fk_freeze_overrides_run_id_runs"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["window_id"],
            ["freeze_windows.id"],
            name=op.f("fk_freeze_overrides_window_id_freeze_windows"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_freeze_overrides")),
    )
    with op.batch_alter_table("freeze_overrides", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_freeze_overrides_run_id"), ["run_id"], unique=False)

    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("last_skipped_at", steward.db.UTCDateTime(timezone=True), nullable=True)
        )
        batch_op.add_column(
            sa.Column("last_skipped_reason", sa.Text(), server_default="", nullable=False)
        )

    # 0012: host metrics lane index, fact points by age
    with op.batch_alter_table("host_fact_points", schema=None) as batch_op:
        batch_op.create_index("ix_host_fact_points_gathered_at", ["gathered_at"], unique=False)

    with op.batch_alter_table("run_metric_chunks", schema=None) as batch_op:
        batch_op.create_index("ix_run_metric_chunks_lane", ["kind", "host", "run_id"], unique=False)

    # 0013: template labels, freeze windows by label
    with op.batch_alter_table("freeze_windows", schema=None) as batch_op:
        batch_op.add_column(sa.Column("labels", sa.JSON(), server_default="[]", nullable=False))

    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.add_column(sa.Column("labels", sa.JSON(), server_default="[]", nullable=False))


def downgrade() -> None:
    # 0013: template labels, freeze windows by label
    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.drop_column("labels")

    with op.batch_alter_table("freeze_windows", schema=None) as batch_op:
        batch_op.drop_column("labels")

    # 0012: host metrics lane index, fact points by age
    with op.batch_alter_table("run_metric_chunks", schema=None) as batch_op:
        batch_op.drop_index("ix_run_metric_chunks_lane")

    with op.batch_alter_table("host_fact_points", schema=None) as batch_op:
        batch_op.drop_index("ix_host_fact_points_gathered_at")

    # 0011: freeze windows
    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.drop_column("last_skipped_reason")
        batch_op.drop_column("last_skipped_at")

    with op.batch_alter_table("freeze_overrides", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_freeze_overrides_run_id"))

    op.drop_table("freeze_overrides")
    with op.batch_alter_table("freeze_windows", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_freeze_windows_project_id"))

    op.drop_table("freeze_windows")

    # 0010: workflow apply nodes name their plan node
    with op.batch_alter_table("workflow_node_runs", schema=None) as batch_op:
        batch_op.drop_column("plan_node")

    # 0009: template grants: host scope
    with op.batch_alter_table("template_grants", schema=None) as batch_op:
        batch_op.drop_column("hosts")

    # 0008: host health: checks, sweeps, pre-flight hosts, where Ansible connects
    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.drop_column("preflight")

    with op.batch_alter_table("inventory_hosts", schema=None) as batch_op:
        batch_op.drop_column("connection")

    op.drop_table("run_preflight_hosts")
    op.drop_table("host_health")
    with op.batch_alter_table("host_checks", schema=None) as batch_op:
        batch_op.drop_index("ix_host_checks_host")
        batch_op.drop_index("ix_host_checks_checked_at")

    op.drop_table("host_checks")
    op.drop_table("health_sweeps")

    # 0007: host facts and their history, template use_fact_cache
    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.drop_column("use_fact_cache")

    op.drop_table("host_facts")
    with op.batch_alter_table("host_fact_points", schema=None) as batch_op:
        batch_op.drop_index("ix_host_fact_points_host")

    op.drop_table("host_fact_points")

    # 0006: drift: schedules of plans (schedules.plan), and each template's drift (template_drift)
    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.drop_column("plan")

    with op.batch_alter_table("template_drift", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_template_drift_project_id"))

    op.drop_table("template_drift")

    # 0005: plans and bound applies
    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.drop_column("plan_approval")
        batch_op.drop_column("plans_allowed")

    op.drop_index("ix_runs_plan_id", table_name="runs")
    with op.batch_alter_table("runs", schema=None) as batch_op:
        batch_op.drop_column("plan_id")
        batch_op.drop_column("kind")

    with op.batch_alter_table("run_changes", schema=None) as batch_op:
        batch_op.drop_index("ix_run_changes_run_id_outcome")

    op.drop_table("run_changes")
    op.drop_table("plans")

    # 0004: hosts view: inventory_hosts, project_hosts (filled from the runs so far)
    with op.batch_alter_table("inventories", schema=None) as batch_op:
        batch_op.drop_column("hosts_read_at")

    op.drop_table("project_hosts")
    with op.batch_alter_table("inventory_hosts", schema=None) as batch_op:
        batch_op.drop_index("ix_inventory_hosts_name")

    op.drop_table("inventory_hosts")

    # 0003: audit stream: outbox rows per sink and the sinks' state
    with op.batch_alter_table("audit_stream_outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_stream_outbox_event_id")

    op.drop_table("audit_stream_outbox")
    op.drop_table("audit_stream_sinks")

    # 0002: notifications: host_quiet (the quiet host of a message, its own threshold)
    with op.batch_alter_table("notification_subscriptions", schema=None) as batch_op:
        batch_op.drop_column("host_quiet_minutes")

    with op.batch_alter_table("notification_messages", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("uq_notification_messages_destination_id"), type_="unique"
        )
        batch_op.create_unique_constraint(
            batch_op.f("uq_notification_messages_destination_id"),
            ["destination_id", "run_id", "event"],
        )
        batch_op.drop_column("host")
