"""Friends and chat: friendships between accounts, and each game's chat lines.

Revision ID: 0007_social
Revises: 0004

A branch of its own from 0004 (the server upgrades every head; the branches are merged later).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007_social"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "friendships",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("pair", sa.String(24), nullable=False, unique=True),
        sa.Column(
            "requester_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "requested_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_friendships_requester_id", "friendships", ["requester_id"])
    op.create_index("ix_friendships_requested_id", "friendships", ["requested_id"])
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seat_name", sa.String(64), nullable=False),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "number"),
    )
    op.create_index("ix_chat_lines_game_id", "chat_lines", ["game_id"])
    op.create_index("ix_chat_lines_account_id", "chat_lines", ["account_id"])


def downgrade() -> None:
    op.drop_table("chat_lines")
    op.drop_table("friendships")
