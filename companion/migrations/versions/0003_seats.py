"""Seats without a phone: the host seats a player by name and moves for them, and a phone may later
ask for that seat and hold it once the host gives it.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # who made an entry for its actor (the host, for a seat without a phone); NULL: the actor did
    op.add_column("actions", sa.Column("by", sa.Text, nullable=True))
    # Nothing references players, so SQLite's copy of the table (batch mode) cascades into nothing.
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_hash", existing_type=sa.Text, nullable=True)  # NULL: kept on the host's phone
        batch.add_column(sa.Column("claim_hash", sa.Text, nullable=True))  # a phone's ask for the seat, pending


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("claim_hash")
    # a seat without a phone keeps its row, with a hash no token has (not 64 hex digits)
    op.execute("UPDATE players SET token_hash = 'no phone ' || id WHERE token_hash IS NULL")
    with op.batch_alter_table("players") as batch:
        batch.alter_column("token_hash", existing_type=sa.Text, nullable=False)
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("by")
