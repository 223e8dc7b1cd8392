"""Account recovery and idle games.

- ``password_resets``: the password reset links sent by e-mail, each stored as the SHA-256 of
  its token with its account, the stamp of the password it may replace and when it expires
  (karnak.server.accounts.recovery). A link is deleted when it is used, when a newer one is
  sent, and when it is found expired.
- ``games.idle_warned_at``: when the seats of a game without a clock were told that it would
  expire unless someone moved (karnak.server.expiry). Existing games have none: an idle one
  is warned at the first look, and expires a warning period later at the earliest.

Revision ID: 0016_recovery
Revises: 0015_capacity
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016_recovery"
down_revision = "0015_capacity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("password_stamp", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_password_resets_account_id", "password_resets", ["account_id"])
    op.create_index("ix_password_resets_expires_at", "password_resets", ["expires_at"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("idle_warned_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("idle_warned_at")
    op.drop_index("ix_password_resets_expires_at", table_name="password_resets")
    op.drop_index("ix_password_resets_account_id", table_name="password_resets")
    op.drop_table("password_resets")
