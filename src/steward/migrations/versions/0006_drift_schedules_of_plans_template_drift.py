"""drift: schedules of plans (schedules.plan), and each template's drift (template_drift)

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    with op.batch_alter_table("schedules", schema=None) as batch_op:
        batch_op.drop_column("plan")

    with op.batch_alter_table("template_drift", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_template_drift_project_id"))

    op.drop_table("template_drift")
