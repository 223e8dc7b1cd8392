"""Account recovery and idle games (placeholder).

Revision ID: 0016_recovery
Revises: 0015_capacity
"""

from __future__ import annotations

revision = "0016_recovery"
down_revision = "0015_capacity"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
