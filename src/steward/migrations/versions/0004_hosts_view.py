"""hosts view: the hosts inventories list (inventory_hosts) and runs reached (project_hosts)

project_hosts is filled from the runs recorded so far; their outcomes were not kept ('').

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28 00:18:12.738101
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    with op.batch_alter_table("inventories", schema=None) as batch_op:
        batch_op.drop_column("hosts_read_at")

    op.drop_table("project_hosts")
    with op.batch_alter_table("inventory_hosts", schema=None) as batch_op:
        batch_op.drop_index("ix_inventory_hosts_name")

    op.drop_table("inventory_hosts")
