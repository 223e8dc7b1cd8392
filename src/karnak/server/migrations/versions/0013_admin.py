"""Administration (placeholder).

Revision ID: 0013_admin
Revises: 0012_tables_repair
"""

from __future__ import annotations

revision = "0013_admin"
down_revision = "0012_tables_repair"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
