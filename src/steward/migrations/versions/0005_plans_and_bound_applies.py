"""plans and bound applies

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28 00:13:02.831082
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
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
