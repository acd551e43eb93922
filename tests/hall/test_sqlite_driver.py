"""SQLite's hand-offs: one thread call per statement through the engine, one per batch
on the action log's own thread, and everything still read back as the engine wrote it."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select, text

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import Conflict, NotFound
from cardhall.hall.store import accounts, game_reads, game_rows
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Action


@pytest.fixture
def lite(sqlite_db: Database) -> Database:
    return sqlite_db


async def test_a_statement_is_one_call_on_the_connections_thread(lite: Database) -> None:
    calls: list[str] = []
    async with lite.engine.connect() as conn:
        raw = (await conn.get_raw_connection()).driver_connection
        assert raw is not None
        real = raw._execute

        async def counted(fn: Any, *args: Any, **kw: Any) -> Any:
            calls.append(getattr(fn, "__name__", "?"))
            return await real(fn, *args, **kw)

        raw._execute = counted
        await conn.begin()
        assert calls == ["_run"]  # the BEGIN the hall issues itself
        calls.clear()
        rows = (await conn.execute(text("SELECT 1 UNION ALL SELECT 2"))).all()
        assert [r[0] for r in rows] == [1, 2]
        assert calls == ["_run"]  # cursor, execute, fetch and close: one call
        calls.clear()
        await conn.execute(text("CREATE TEMP TABLE t (x INTEGER PRIMARY KEY, y TEXT)"))
        done = await conn.execute(text("INSERT INTO t (y) VALUES (:y)"), [{"y": "a"}, {"y": "b"}])
        assert done.rowcount == 2
        one = await conn.execute(text("INSERT INTO t (y) VALUES ('c')"))
        assert one.lastrowid == 3
        assert calls == ["_run", "_run", "_run"]
        await conn.commit()
        raw._execute = real


async def test_an_error_on_the_thread_is_the_engines_error(lite: Database) -> None:
    from sqlalchemy.exc import OperationalError  # noqa: PLC0415

    with pytest.raises(OperationalError, match="no such table"):
        async with lite.read() as s:
            await s.execute(text("SELECT * FROM nowhere"))
    async with lite.read() as s:  # the connection is still good
        assert (await s.execute(text("SELECT 7"))).scalar() == 7


async def test_the_logs_thread_writes_what_the_engine_reads(lite: Database,
                                                            economy: Economy) -> None:
    p = [(await accounts.create_guest(lite, economy)).player.id for _ in range(3)]
    gid = await game_rows.create_game(lite, table_id="t", room_id="r", variant="ddz3",
                                      players=p, seed=1)
    at = datetime(2026, 12, 6, 21, 0, 0, 123456, tzinfo=UTC)
    refused = await game_rows.append_actions(lite, [(gid, 1, "a1", 0, at, None),
                                                    ("nogame", 1, "x", 0, at, None)])
    assert [r[0] for r in refused] == ["nogame"]
    await game_rows.append_action(lite, gid, 2, "a2", None, now=at)
    async with lite.read() as s:
        rows = (await s.execute(select(Action.seq, Action.seat, Action.created)
                                .where(Action.game_id == gid).order_by(Action.seq))).all()
    assert [(r[0], r[1], r[2]) for r in rows] == [(1, 0, at), (2, None, at)]
    with pytest.raises(Conflict, match="seq 4 is stale"):
        await game_rows.append_action(lite, gid, 4, "a4", 0)
    with pytest.raises(Conflict, match="already written"):
        await game_rows.append_actions(lite, [(gid, 2, "again", 0, at, None)])
    with pytest.raises(NotFound):
        await game_rows.append_action(lite, "nogame", 1, "x", 0)
    await game_rows.append_action(lite, gid, 3, "last", 1, final=True)
    with pytest.raises(Conflict, match="over"):
        await game_rows.append_action(lite, gid, 4, "after", 1)
    assert await game_reads.actions(lite, gid) == ["a1", "a2", "last"]


async def test_a_refused_append_leaves_no_transaction_open(lite: Database,
                                                           economy: Economy) -> None:
    with pytest.raises(NotFound):
        await game_rows.append_action(lite, "nogame", 1, "x", 0)
    # The log's connection is not left inside its transaction: another writer gets the
    # write lock at once (it would wait for the busy timeout otherwise).
    assert lite.log_thread is not None
    other = sqlite3.connect(lite.log_thread.path, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_cancelled_log_write_still_finishes_before_the_lock_passes(
        lite: Database) -> None:
    started, release = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    order: list[str] = []

    def slow(conn: sqlite3.Connection) -> None:
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result()
        order.append("log done")

    task = asyncio.create_task(lite.write_log(slow))
    await started.wait()
    task.cancel()

    async def writer() -> None:
        async with lite.transaction():
            order.append("next writer")

    nxt = asyncio.create_task(writer())
    while not lite._writers._others:  # the next writer queues for the lock
        await asyncio.sleep(0)
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await task
    await nxt
    assert order == ["log done", "next writer"]
