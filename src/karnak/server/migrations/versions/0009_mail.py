"""E-mail: each account's address and choices, and the e-mails sent (for the rules that keep
them from being sent twice).

Revision ID: 0009_mail
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_mail"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_preferences",
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("code_hash", sa.String(64), nullable=True, unique=True),
        sa.Column("code_expires_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("turn", sa.Boolean(), nullable=False),
        sa.Column("invitation", sa.Boolean(), nullable=False),
        sa.Column("daily", sa.Boolean(), nullable=False),
        sa.Column("daily_checked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "mail_sent",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("address_hash", sa.String(64), nullable=True),
        sa.Column("sent_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_mail_sent_account_id", "mail_sent", ["account_id"])
    op.create_index("ix_mail_sent_address_hash", "mail_sent", ["address_hash"])
    op.create_index("ix_mail_sent_sent_at", "mail_sent", ["sent_at"])


def downgrade() -> None:
    op.drop_table("mail_sent")
    op.drop_table("mail_preferences")
