"""Quick match (karnak.server.matchmaking): the queue of accounts looking for a game.

- ``match_tickets``: one row per account, its game and table size, its rating when it
  asked, and what became of it (waiting, matching, matched, bots, cancelled).

Revision ID: 0020_quickmatch
Revises: 0019_daily
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020_quickmatch"
down_revision = "0019_daily"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_tickets",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("matching_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_tickets_status", "match_tickets", ["status"])


def downgrade() -> None:
    op.drop_index("ix_match_tickets_status", "match_tickets")
    op.drop_table("match_tickets")
