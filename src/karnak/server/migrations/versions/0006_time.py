"""Time bank and abandonment: each game's time control, each seat's clock and departure.

Columns only (no table): games get ``time_per_move`` and ``time_bank``; seats get their
clock (``bank_left``, ``waiting_since``, ``reminders``) and, once a bot has taken a seat
over, how and when its person left (``departure``, ``departure_moves``,
``departure_log``). Existing games have no time control and nobody has left them: every new
column is empty (``reminders`` 0).

Revision ID: 0006_time
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_time"
down_revision = "0004"
branch_labels = None
depends_on = None

SEAT_COLUMNS = (
    "bank_left",
    "waiting_since",
    "reminders",
    "departure",
    "departure_moves",
    "departure_log",
)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("time_per_move", sa.Float(), nullable=True))
        batch.add_column(sa.Column("time_bank", sa.Float(), nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bank_left", sa.Float(), nullable=True))
        batch.add_column(sa.Column("waiting_since", sa.Float(), nullable=True))
        batch.add_column(sa.Column("reminders", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("departure", sa.String(8), nullable=True))
        batch.add_column(sa.Column("departure_moves", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("departure_log", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        for column in reversed(SEAT_COLUMNS):
            batch.drop_column(column)
    with op.batch_alter_table("games") as batch:
        batch.drop_column("time_bank")
        batch.drop_column("time_per_move")
