"""Crowd tables (karnak.server.crowds): games that start at a set time with whoever joined.

- ``crowd_tables``: the game, the start, the most members, the turn timer, what became of
  it (scheduled, starting, started, cancelled), its game and when its members were
  reminded.
- ``crowd_members``: the accounts that joined each.

Revision ID: 0021_crowds
Revises: 0020_quickmatch
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021_crowds"
down_revision = "0020_quickmatch"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "crowd_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("turn_timer", sa.Float(), nullable=False),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("reminded_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column(
            "scheduled_by",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="SET NULL"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game", "starts_at", name="uq_crowd_tables_game_start"),
    )
    op.create_index("ix_crowd_tables_starts_at", "crowd_tables", ["starts_at"])
    op.create_index("ix_crowd_tables_status", "crowd_tables", ["status"])
    op.create_table(
        "crowd_members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "crowd_id",
            sa.String(32),
            sa.ForeignKey("crowd_tables.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("crowd_id", "account_id", name="uq_crowd_members"),
    )
    op.create_index("ix_crowd_members_crowd_id", "crowd_members", ["crowd_id"])
    op.create_index("ix_crowd_members_account_id", "crowd_members", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_crowd_members_account_id", "crowd_members")
    op.drop_index("ix_crowd_members_crowd_id", "crowd_members")
    op.drop_table("crowd_members")
    op.drop_index("ix_crowd_tables_status", "crowd_tables")
    op.drop_index("ix_crowd_tables_starts_at", "crowd_tables")
    op.drop_table("crowd_tables")
