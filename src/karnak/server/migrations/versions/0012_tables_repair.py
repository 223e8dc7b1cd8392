"""Give open tables their time bank columns where 0005_tables made them without.

Revision ID: 0012_tables_repair
Revises: 0011_cluster

0005_tables was edited after databases had applied it (ea8131c added ``time_per_move`` and
``time_bank`` to ``game_tables``): a database made before that edit, at cef860d or earlier,
records 0005_tables as applied but lacks both columns, and every table request failed on it.
Alembic cannot tell the two kinds of database apart by revision, so this migration looks at
the table and adds only the columns it lacks (a database made after the edit is left as it
is). The lesson is the rule in docs/upgrading.md: a released migration is never edited.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_tables_repair"
down_revision = "0011_cluster"
branch_labels = None
depends_on = None

#: The columns ea8131c added to 0005_tables after its release, as it declares them.
COLUMNS = ("time_per_move", "time_bank")


def upgrade() -> None:
    present = {column["name"] for column in sa.inspect(op.get_bind()).get_columns("game_tables")}
    missing = [name for name in COLUMNS if name not in present]
    if not missing:
        return
    with op.batch_alter_table("game_tables") as batch:
        for name in missing:
            batch.add_column(sa.Column(name, sa.Float(), nullable=True))


def downgrade() -> None:
    """Leave the columns. The schema at 0011_cluster has them (today's 0005_tables makes
    them): dropping them here would give that revision a schema a new database never has,
    the very mismatch this migration repairs; and 0005_tables' own downgrade drops the
    whole table. A repair has nothing to undo."""
