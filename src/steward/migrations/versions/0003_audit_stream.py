"""audit stream: outbox rows per sink and the sinks' state

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-27 20:56:47.932800
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import steward.db

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
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


def downgrade() -> None:
    with op.batch_alter_table("audit_stream_outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_stream_outbox_event_id")

    op.drop_table("audit_stream_outbox")
    op.drop_table("audit_stream_sinks")
