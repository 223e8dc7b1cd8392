"""Administration: roles and standing of accounts, hidden chat lines, reports, the audit log.

- ``accounts``: ``role`` ("player" or "admin"), ``status`` ("active", "suspended",
  "banned"), ``suspended_until`` and ``muted_until``. Existing accounts are active players.
- ``sessions.client``: the hash of the address a session was last seen from (no address is
  stored), so that administrators can find accounts by address.
- ``chat_lines.hidden_at`` and ``hidden_by``: a line an administrator hid (kept, shown to
  nobody).
- ``reports`` and ``admin_audit``: see karnak.server.admin.tables.

Revision ID: 0013_admin
Revises: 0012_tables_repair
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_admin"
down_revision = "0012_tables_repair"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("role", sa.String(8), nullable=False, server_default="player"))
        batch.add_column(
            sa.Column("status", sa.String(12), nullable=False, server_default="active")
        )
        batch.add_column(sa.Column("suspended_until", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("muted_until", sa.DateTime(timezone=True), nullable=True))
        batch.create_index("ix_accounts_status", ["status"])
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("client", sa.String(64), nullable=True))
        batch.create_index("ix_sessions_client", ["client"])
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("hidden_by", sa.String(40), nullable=True))
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("reporter_id", sa.Integer(), nullable=True),
        sa.Column("reporter_name", sa.String(40), nullable=False),
        sa.Column("target_id", sa.Integer(), nullable=True),
        sa.Column("target_name", sa.String(64), nullable=True),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.Column("line_text", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_by", sa.String(40), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
    )
    for column in ("reporter_id", "target_id", "game_id", "status", "created_at"):
        op.create_index(f"ix_reports_{column}", "reports", [column])
    op.create_table(
        "admin_audit",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("admin_id", sa.Integer(), nullable=True),
        sa.Column("admin_name", sa.String(40), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("target_kind", sa.String(12), nullable=False),
        sa.Column("target", sa.String(80), nullable=False),
        sa.Column("detail", sa.Text(), nullable=False),
    )
    op.create_index("ix_admin_audit_at", "admin_audit", ["at"])
    op.create_index("ix_admin_audit_action", "admin_audit", ["action"])


def downgrade() -> None:
    op.drop_index("ix_admin_audit_action", table_name="admin_audit")
    op.drop_index("ix_admin_audit_at", table_name="admin_audit")
    op.drop_table("admin_audit")
    for column in ("reporter_id", "target_id", "game_id", "status", "created_at"):
        op.drop_index(f"ix_reports_{column}", table_name="reports")
    op.drop_table("reports")
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_column("hidden_by")
        batch.drop_column("hidden_at")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_index("ix_sessions_client")
        batch.drop_column("client")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_index("ix_accounts_status")
        batch.drop_column("muted_until")
        batch.drop_column("suspended_until")
        batch.drop_column("status")
        batch.drop_column("role")
