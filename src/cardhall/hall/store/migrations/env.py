"""Alembic environment: runs on the connection ``cardhall.hall.store.db.upgrade`` hands over.

The hall's database is async (aiosqlite, asyncpg); ``upgrade`` opens an async
connection and runs Alembic inside ``run_sync``, so this file only ever sees a
ready synchronous connection and needs no URL of its own.
"""

from __future__ import annotations

from alembic import context

from cardhall.hall.store.models import Base

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through cardhall.hall.store.db.upgrade(url) "
                       "(python -m cardhall.hall.store.db URL), not the alembic command")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",  # SQLite can't ALTER most things
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
