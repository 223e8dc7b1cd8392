"""Open tables: games that have not started, and their seats (karnak.server.tables).

Revision ID: 0005_tables
Revises: 0004

A branch of its own from 0004 (the server upgrades every head; the branches are merged
later). New tables only: existing games and records are untouched.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005_tables"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("turn_timer", sa.Float(), nullable=True),
        sa.Column("time_per_move", sa.Float(), nullable=True),
        sa.Column("time_bank", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column(
            "creator_account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("creator_ticket_hash", sa.String(64), nullable=True),
        sa.Column("creator_client", sa.String(64), nullable=True),
        sa.Column(
            "rematch_of",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=True,
            unique=True,
        ),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_game_tables_status", "game_tables", ["status"])
    op.create_index("ix_game_tables_creator_account_id", "game_tables", ["creator_account_id"])
    op.create_index("ix_game_tables_creator_client", "game_tables", ["creator_client"])
    op.create_index("ix_game_tables_created_at", "game_tables", ["created_at"])
    op.create_table(
        "table_seats",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("game_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(64), nullable=True),
        sa.Column("bot", sa.String(64), nullable=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column(
            "invited_account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("ticket_hash", sa.String(64), nullable=True),
        sa.Column("client", sa.String(64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "seat"),
    )
    for column in ("table_id", "account_id", "invited_account_id", "ticket_hash", "client"):
        op.create_index(f"ix_table_seats_{column}", "table_seats", [column])


def downgrade() -> None:
    op.drop_table("table_seats")
    op.drop_table("game_tables")
