"""Defences: names compared by their look, blocks between accounts, notifications' senders.

- ``accounts.name_skeleton`` (unique): what names are compared by
  (karnak.server.accounts.names.name_skeleton). Existing accounts get theirs here; where two
  existing names already look alike, both accounts stay, and the later one's skeleton gets
  ``#<id>`` after it, so that the first one's still refuses every new look-alike.
- ``blocks``: an account (``blocker_id``) blocks another (``blocked_id``), once per pair.
- ``notifications.sender``: who caused a notification (``account:<id>``, or
  ``guest:<hash of the address>``; NULL for the server's own), so that what one sender may
  send one account is counted.

Revision ID: 0014_defense
Revises: 0013_admin
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_defense"
down_revision = "0013_admin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    from karnak.server.accounts.names import name_skeleton

    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(220), nullable=True))
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer()),
        sa.column("name", sa.String()),
        sa.column("name_skeleton", sa.String()),
    )
    connection = op.get_bind()
    seen: set[str] = set()
    rows = connection.execute(sa.select(accounts.c.id, accounts.c.name).order_by(accounts.c.id))
    for account_id, name in rows.all():
        compared = name_skeleton(name)
        if compared in seen:  # an older account looks the same: both stay
            compared = f"{compared}#{account_id}"
        seen.add(compared)
        connection.execute(
            accounts.update().where(accounts.c.id == account_id).values(name_skeleton=compared)
        )
    op.create_index("ix_accounts_name_skeleton", "accounts", ["name_skeleton"], unique=True)

    op.create_table(
        "blocks",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "blocker_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column(
            "blocked_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("blocker_id", "blocked_id", name="uq_blocks_pair"),
    )
    op.create_index("ix_blocks_blocked_id", "blocks", ["blocked_id"])

    with op.batch_alter_table("notifications") as batch:
        batch.add_column(sa.Column("sender", sa.String(80), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("notifications") as batch:
        batch.drop_column("sender")
    op.drop_index("ix_blocks_blocked_id", table_name="blocks")
    op.drop_table("blocks")
    op.drop_index("ix_accounts_name_skeleton", table_name="accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("name_skeleton")
