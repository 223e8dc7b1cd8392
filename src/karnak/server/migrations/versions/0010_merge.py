"""Join the branches of issue 14's modules.

Open tables, the time bank, friends and chat, ratings and e-mail each added their tables on a
branch of their own from 0004, so that they could be written side by side; this revision has
no schema of its own, it only makes the history one line again, so that the next migration
has a single parent and ``alembic heads`` names one revision.

Revision ID: 0010
Revises: 0005_tables, 0006_time, 0007_social, 0008_ratings, 0009_mail
"""

from __future__ import annotations

revision = "0010"
down_revision = ("0005_tables", "0006_time", "0007_social", "0008_ratings", "0009_mail")
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Nothing to change: the merge point only joins the branches."""


def downgrade() -> None:
    """Nothing to change: going below it splits the history into its branches again."""
