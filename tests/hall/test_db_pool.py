"""The PostgreSQL pool: bounded, waited for (not failed) past its size, and every
connection named and set to end a transaction left idle (``db.py``)."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from cardhall.hall.domain.config import Economy
from cardhall.hall.store import accounts, game_reads, game_rows
from cardhall.hall.store.db import APPLICATION, Database, upgrade
from cardhall.hall.store.journal import ActionJournal
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer


async def test_a_small_pool_serves_many_tasks_and_leaves_nothing_idle_in_transaction(
        pg_server: PostgresServer, economy: Economy) -> None:
    url = await new_pg_database(pg_server)
    await upgrade(url)
    db = Database.open(url, pool=2)
    try:
        players = [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]
        gid = await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3",
                                      players=players, seed=1)
        # 60 units of work at once over 2 (+2 burst) connections: they wait their turn.
        found = await asyncio.gather(*(game_reads.has_live_game(db, "t") for _ in range(60)))
        assert all(found)
        assert db.engine.pool.checkedout() == 0  # type: ignore[attr-defined]
        async with db.read() as s:
            timeout = await s.scalar(text("SHOW idle_in_transaction_session_timeout"))
            assert timeout == "1min"
            rows = (await s.execute(text(
                "SELECT state FROM pg_stat_activity WHERE application_name = :app "
                "AND datname = current_database() AND pid <> pg_backend_pid()"),
                {"app": APPLICATION})).scalars().all()
        assert 1 <= len(rows) <= 4, rows  # the pool's, no more
        assert "idle in transaction" not in rows, rows
        assert await game_reads.game_fence(db, gid) == 0
    finally:
        await db.close()


async def test_the_action_log_writes_while_every_pooled_connection_is_held(
        pg_server: PostgresServer, economy: Economy) -> None:
    """Settlements holding the whole pool (many games ending at once) do not hold up
    the tables' actions: the action log writes on a connection of its own."""
    url = await new_pg_database(pg_server)
    await upgrade(url)
    db = Database.open(url, pool=1)  # 1 connection, 1 more for a burst
    journal = ActionJournal(db)
    try:
        players = [(await accounts.create_guest(db, economy)).player.id for _ in range(3)]
        gid = await game_rows.create_game(db, table_id="t", room_id="r", variant="ddz3",
                                      players=players, seed=1)
        held = asyncio.Event()
        release = asyncio.Event()

        async def hold() -> None:
            async with db.transaction() as s:
                await s.execute(text("SELECT 1"))
                if db.engine.pool.checkedout() == 2:  # type: ignore[attr-defined]
                    held.set()
                await release.wait()

        holders = [asyncio.create_task(hold()) for _ in range(2)]
        async with asyncio.timeout(10):
            await held.wait()
        async with asyncio.timeout(5):  # the pool would make it wait 30 s
            await journal.append(gid, 1, "first", 0)
        release.set()
        await asyncio.gather(*holders)
        assert await game_reads.actions(db, gid) == ["first"]
    finally:
        await journal.close()
        await db.close()


async def test_reads_run_in_autocommit_and_transactions_do_not(pg_server: PostgresServer) -> None:
    """A read is one round trip (no BEGIN/COMMIT around its statement); a unit of work
    that writes is still one transaction. ``now()`` is the start of the statement's
    transaction: two statements of one transaction see the same instant, two in
    autocommit two instants."""
    url = await new_pg_database(pg_server)
    await upgrade(url)
    db = Database.open(url)
    now = text("SELECT now()")
    try:
        for _ in range(2):  # the pooled connection goes back as it came, either way
            async with db.read() as s:
                assert await s.scalar(now) < await s.scalar(now)
            async with db.transaction() as s:
                assert await s.scalar(now) == await s.scalar(now)
    finally:
        await db.close()
