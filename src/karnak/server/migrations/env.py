"""Alembic environment: run with the connection that :func:`karnak.server.db.migrate` passes.

:func:`karnak.server.db.run_migrations` also passes ``on_version_apply``, which Alembic calls
after each migration: that is how every migration applied gets its own log line and time.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from karnak.server.db import Base

config = context.config
target_metadata = Base.metadata


def run() -> None:
    connection = config.attributes.get("connection")
    applied = config.attributes.get("on_version_apply")
    if connection is not None:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            on_version_apply=applied,
        )
        with context.begin_transaction():
            context.run_migrations()
        return
    # `alembic revision --autogenerate` from a shell: use the URL given in the config
    engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite://")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()


run()
