"""Migrations build the schema the models describe, and running them again is a no-op."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from cardhall.hall.db import Database, make_engine, upgrade
from cardhall.hall.models import Base

TABLES = {"players", "sessions", "ledger", "items", "games", "actions", "scores", "stats",
          "seatings", "holds",
          "alembic_version"}


def _diff(conn: Connection) -> list[object]:
    return list(compare_metadata(MigrationContext.configure(conn), Base.metadata))


async def test_upgrade_empty_database_then_again(db_url: str) -> None:
    await upgrade(db_url)
    engine = make_engine(db_url)
    try:
        async with engine.connect() as conn:
            tables = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
            assert tables == TABLES
            assert await conn.run_sync(_diff) == []
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).all()
            assert version == [("0003",)]
    finally:
        await engine.dispose()
    await upgrade(db_url)  # again: nothing to do, nothing breaks
    db = Database.open(db_url)
    try:
        async with db.transaction() as s:
            assert (await s.execute(text("SELECT count(*) FROM alembic_version"))).scalar() == 1
    finally:
        await db.close()
