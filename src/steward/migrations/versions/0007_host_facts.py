"""host facts and their history, template use_fact_cache

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    with op.batch_alter_table("templates", schema=None) as batch_op:
        batch_op.drop_column("use_fact_cache")

    op.drop_table("host_facts")
    with op.batch_alter_table("host_fact_points", schema=None) as batch_op:
        batch_op.drop_index("ix_host_fact_points_host")

    op.drop_table("host_fact_points")
