"""Defences (placeholder).

Revision ID: 0014_defense
Revises: 0013_admin
"""

from __future__ import annotations

revision = "0014_defense"
down_revision = "0013_admin"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
