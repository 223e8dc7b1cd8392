"""Repair databases made while 0005_tables lacked the time-bank columns (placeholder).

Revision ID: 0012_tables_repair
Revises: 0011_cluster
"""

from __future__ import annotations

revision = "0012_tables_repair"
down_revision = "0011_cluster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
