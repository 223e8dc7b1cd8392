"""Capacity (placeholder).

Revision ID: 0015_capacity
Revises: 0014_defense
"""

from __future__ import annotations

revision = "0015_capacity"
down_revision = "0014_defense"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
