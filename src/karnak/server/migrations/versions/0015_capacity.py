"""Capacity: who created each game, for the per-client share of running games.

- ``games.creator_client``: the hash of the creating client's address (as the tables store a
  guest's: no address is kept), and ``games.creator_account_id``: the creating account, if
  one was logged in. karnak.server.capacity counts the recently active running games of each
  creator, so that one client cannot fill the server's cap. Games created before have
  neither and count toward the server's cap only.

Revision ID: 0015_capacity
Revises: 0014_defense
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015_capacity"
down_revision = "0014_defense"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator_client", sa.String(64), nullable=True))
        batch.add_column(
            sa.Column(
                "creator_account_id",
                sa.Integer(),
                sa.ForeignKey(
                    "accounts.id", name="fk_games_creator_account_id", ondelete="SET NULL"
                ),
                nullable=True,
            )
        )
        batch.create_index("ix_games_creator_client", ["creator_client"])
        batch.create_index("ix_games_creator_account_id", ["creator_account_id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_creator_account_id")
        batch.drop_index("ix_games_creator_client")
        batch.drop_constraint("fk_games_creator_account_id", type_="foreignkey")
        batch.drop_column("creator_account_id")
        batch.drop_column("creator_client")
