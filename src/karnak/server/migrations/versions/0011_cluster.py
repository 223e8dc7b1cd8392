"""Several server processes: leases, and when each game's current step began.

- ``leases``: the process that runs a game's bots and timers holds the game's lease and
  renews it; when it dies, another takes the lease over once it has expired
  (karnak.server.cluster.leases).
- ``games.step_started_at``: when the game's current decision step began (seconds since
  the epoch), so that every process shows the same turn-timer deadline. Existing games have
  none: their timer counts from the moment a process loads them, as before.

Revision ID: 0011_cluster
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_cluster"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("name", sa.String(80), primary_key=True),
        sa.Column("holder", sa.String(120), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_leases_holder", "leases", ["holder"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("step_started_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("step_started_at")
    op.drop_index("ix_leases_holder", table_name="leases")
    op.drop_table("leases")
