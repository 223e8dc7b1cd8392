"""Ratings: one per game and account or bot spec, the games rated, and every change.

On a branch of its own from 0004 (the server upgrades every head).

Revision ID: 0008_ratings
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_ratings"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "account_id", name="uq_ratings_game_account"),
        sa.UniqueConstraint("game", "bot", name="uq_ratings_game_bot"),
    )
    op.create_index("ix_ratings_game", "ratings", ["game"])
    op.create_index("ix_ratings_account_id", "ratings", ["account_id"])
    op.create_table(
        "rated_games",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column(
            "rating_id",
            sa.Integer(),
            sa.ForeignKey("ratings.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("left", sa.Boolean(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seat", name="uq_rating_events_game_seat"),
    )
    op.create_index("ix_rating_events_game_id", "rating_events", ["game_id"])
    op.create_index("ix_rating_events_rating_id", "rating_events", ["rating_id"])


def downgrade() -> None:
    op.drop_table("rating_events")
    op.drop_table("rated_games")
    op.drop_table("ratings")
