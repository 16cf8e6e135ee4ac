"""notifications: host_quiet (the quiet host of a message, its own threshold)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-27 17:46:02.339005
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # the messages of 0.1.0 are of no host: "" (as the model's default says for new ones)
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


def downgrade() -> None:
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
