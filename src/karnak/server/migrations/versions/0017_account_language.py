"""The language an account reads Karnak in.

- ``accounts.language``: one of the site's languages (``en``, ``de``, ``fr``), or none, where
  the browser's ``Accept-Language`` decides (karnak.server.language). Existing accounts have
  none, so nothing changes for them until they choose.

Revision ID: 0017_account_language
Revises: 0016_recovery
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017_account_language"
down_revision = "0016_recovery"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
