"""The game of the day (karnak.server.daily).

- ``games.sealed_until``: until when a game shows nothing to anyone but its seats, and
  keeps its record and replay closed (a game of the day: until the day is over).
- ``daily_secret``: the secret every day's deal is derived from.
- ``daily_games``: each game played on a day's deal, with its result once over.

Revision ID: 0019_daily
Revises: 0018_forced_moves_setting
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019_daily"
down_revision = "0018_forced_moves_setting"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("sealed_until", sa.DateTime(timezone=True), nullable=True))
    op.create_table(
        "daily_secret",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "daily_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("bot_level", sa.String(16), nullable=True),
        sa.Column("ranked", sa.Boolean(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("score", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(32), nullable=True),
        sa.Column("penalty", sa.Integer(), nullable=True),
        sa.Column("seconds", sa.Float(), nullable=True),
        sa.Column("marks", sa.String(400), nullable=True),
        sa.UniqueConstraint("game", "day", "account_id", name="uq_daily_games_account"),
        sa.UniqueConstraint("game", "day", "bot_level", name="uq_daily_games_bot"),
    )
    op.create_index("ix_daily_games_day", "daily_games", ["day"])
    op.create_index("ix_daily_games_account_id", "daily_games", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_daily_games_account_id", "daily_games")
    op.drop_index("ix_daily_games_day", "daily_games")
    op.drop_table("daily_games")
    op.drop_table("daily_secret")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sealed_until")
