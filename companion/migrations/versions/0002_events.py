"""Events: one roll sequence for many tables, from a seed revealed when the event ends.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.Text, nullable=False, unique=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("organiser_token_hash", sa.Text, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),  # hex; shown only once the event has ended
        sa.Column("rolled", sa.Integer, nullable=False, server_default="0"),  # rounds rolled so far
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
    )
    # The table's event, if it has one. Added in place, so without a foreign key: SQLite adds one
    # only by copying the table, and with foreign keys on, dropping the old copy would cascade
    # into every player and action. The Store writes event_id only with an event it just read.
    op.add_column("tables", sa.Column("event_id", sa.Integer, nullable=True))
    op.create_index("ix_tables_event", "tables", ["event_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_event", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("event_id")
    op.drop_table("events")
