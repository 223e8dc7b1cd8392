"""Tournaments by invitation, with a time bank, and double elimination.

- ``tournaments.invite_only``: only the accounts its creator invited may join.
- ``tournaments.time_per_move``, ``tournaments.time_bank``: the time control of its games
  (real-time or turn-based speeds), instead of a turn timer.
- ``tournament_games.bracket``: which bracket a game of a double elimination belongs to
  ("winners", "losers", "final"; NULL in the other formats).
- ``tournament_invitations``: who was invited to which tournament.

Revision ID: 0023_tournament_options
Revises: 0022_tournaments
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023_tournament_options"
down_revision = "0022_tournaments"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(
            sa.Column("invite_only", sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch.add_column(sa.Column("time_per_move", sa.Float(), nullable=True))
        batch.add_column(sa.Column("time_bank", sa.Float(), nullable=True))
    with op.batch_alter_table("tournament_games") as batch:
        batch.add_column(sa.Column("bracket", sa.String(8), nullable=True))
    op.create_table(
        "tournament_invitations",
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
            nullable=False,
        ),
        sa.Column("invited_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint(
            "tournament_id", "account_id", name="uq_tournament_invitations_account"
        ),
    )
    op.create_index(
        "ix_tournament_invitations_tournament_id", "tournament_invitations", ["tournament_id"]
    )
    op.create_index(
        "ix_tournament_invitations_account_id", "tournament_invitations", ["account_id"]
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_invitations_account_id", "tournament_invitations")
    op.drop_index("ix_tournament_invitations_tournament_id", "tournament_invitations")
    op.drop_table("tournament_invitations")
    with op.batch_alter_table("tournament_games") as batch:
        batch.drop_column("bracket")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("time_bank")
        batch.drop_column("time_per_move")
        batch.drop_column("invite_only")
