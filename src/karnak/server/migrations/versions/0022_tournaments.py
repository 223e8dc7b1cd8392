"""Tournaments (karnak.server.tournaments): Swiss, elimination and pools.

- ``tournaments``: the game, the format, rounds, the field's bounds, bots, timer, start,
  where it stands.
- ``tournament_players``: accounts and the bots that filled the field.
- ``tournament_games``: each round's games, their seats and, once over, the places.

Revision ID: 0022_tournaments
Revises: 0021_crowds
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022_tournaments"
down_revision = "0021_crowds"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("format", sa.String(16), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("max_players", sa.Integer(), nullable=False),
        sa.Column("least", sa.Integer(), nullable=False),
        sa.Column("most", sa.Integer(), nullable=False),
        sa.Column("bots", sa.String(16), nullable=True),
        sa.Column("turn_timer", sa.Float(), nullable=True),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column(
            "creator_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_tournaments_starts_at", "tournaments", ["starts_at"])
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_index("ix_tournaments_creator_id", "tournaments", ["creator_id"])
    op.create_table(
        "tournament_players",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rating", sa.Float(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "account_id", name="uq_tournament_players_account"),
        sa.UniqueConstraint("tournament_id", "name", name="uq_tournament_players_name"),
    )
    op.create_index("ix_tournament_players_tournament_id", "tournament_players", ["tournament_id"])
    op.create_index("ix_tournament_players_account_id", "tournament_players", ["account_id"])
    op.create_table(
        "tournament_games",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "tournament_id",
            sa.String(32),
            sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=True),
        sa.Column("left", sa.JSON(), nullable=True),
        sa.Column("bye", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("game_id", name="uq_tournament_games_game"),
    )
    op.create_index("ix_tournament_games_tournament_id", "tournament_games", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tournament_games_tournament_id", "tournament_games")
    op.drop_table("tournament_games")
    op.drop_index("ix_tournament_players_account_id", "tournament_players")
    op.drop_index("ix_tournament_players_tournament_id", "tournament_players")
    op.drop_table("tournament_players")
    op.drop_index("ix_tournaments_creator_id", "tournaments")
    op.drop_index("ix_tournaments_status", "tournaments")
    op.drop_index("ix_tournaments_starts_at", "tournaments")
    op.drop_table("tournaments")
