"""Computer players: a seat the server plays names its level, and a computer's seat taken off
before the start keeps its row (its player id is never given again) marked as left.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("players", sa.Column("computer", sa.Text, nullable=True))  # NULL: a person's seat
    op.add_column("players", sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("left_at")
        batch.drop_column("computer")
