"""Whether a player's moves that need no click are played for them.

- ``accounts.forced_moves``: true (the default, for existing accounts too) lets the server
  play a seat's only possible move after a short visible pause (karnak.server.forced_moves);
  false: the player always clicks.

Revision ID: 0018_forced_moves_setting
Revises: 0017_account_language
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018_forced_moves_setting"
down_revision = "0017_account_language"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(
            sa.Column("forced_moves", sa.Boolean(), nullable=False, server_default=sa.true())
        )


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("forced_moves")
