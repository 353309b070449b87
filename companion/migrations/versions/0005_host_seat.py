"""The host's own seat: a host who also plays is one caller with the host's rights whichever of
their two tokens they send. And the checkpoints go: states are made in the shape every game now
shares (pnp.rules.flow), and a checkpoint is only a fold of the log, made again from it.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("host_seat", sa.Text, nullable=True))
    op.execute("DELETE FROM checkpoints")


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("host_seat")
    op.execute("DELETE FROM checkpoints")
