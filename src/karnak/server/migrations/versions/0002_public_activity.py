"""The public face of a game: the version and time of its last public change.

The lobby's list is public, so what it shows must come from public information only. The
game's own ``version`` and ``updated_at`` also move with a seat's private steps (an Egyptia
builder's steps inside a round), which would let anyone count them; these two columns move
only with changes every seat can see.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public_version", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("public_updated_at", sa.DateTime(timezone=True), nullable=True))
    # Existing games: their last change is taken as public. A running game's exact public
    # version is written again when the server loads it (it replays the game anyway).
    op.execute("UPDATE games SET public_version = version, public_updated_at = updated_at")
    with op.batch_alter_table("games") as batch:
        batch.alter_column("public_version", existing_type=sa.Integer(), nullable=False)
        batch.alter_column(
            "public_updated_at", existing_type=sa.DateTime(timezone=True), nullable=False
        )
        batch.create_index("ix_games_public_updated_at", ["public_updated_at"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_public_updated_at")
        batch.drop_column("public_updated_at")
        batch.drop_column("public_version")
