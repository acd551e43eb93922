"""Helpers for the tests of several hall processes: one PostgreSQL database, one Redis,
two or three ``cardhall serve --redis`` on loopback, and what the database holds."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import select

from cardhall.client import HallClient
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Action, Game
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.conftest import ADMIN_NAME, ADMIN_PASSWORD, HallProcess, start_hall

#: Seconds a lease lasts in these tests: failover takes about this plus half of it.
LEASE = 2.0


@asynccontextmanager
async def cluster(tmp: Path, pg: PostgresServer, redis: RedisServer,
                  n: int = 2, rooms: str = "") -> AsyncIterator[list[HallProcess]]:
    """``n`` processes of one hall over a fresh database and an empty Redis (``rooms``:
    more rooms' TOML, as ``start_hall`` takes it)."""
    redis.flush()
    db_url = await new_pg_database(pg)
    procs: list[HallProcess] = []
    try:
        for i in range(n):
            procs.append(start_hall(tmp / f"p{i}", db_url=db_url, redis_url=redis.url,
                                    lease=LEASE, rooms=rooms))
        yield procs
    finally:
        for p in procs:
            if p.proc.poll() is None:
                os.kill(p.proc.pid, signal.SIGCONT)  # a paused one must be able to stop
            p.stop()


async def guest_on(url: str) -> HallClient:
    c = HallClient(url, timeout=20)
    await c.guest()
    await c.connect()
    return c


async def reconnect(c: HallClient, url: str) -> HallClient:
    """The same player through another process: his token, a new connection."""
    again = HallClient(url, token=c.token, timeout=20)
    await again.connect()
    return again


async def admin(url: str) -> HallClient:
    c = HallClient(url, timeout=20)
    await c.login(ADMIN_NAME, ADMIN_PASSWORD)
    return c


async def stored(db_url: str, game_id: str) -> tuple[Game, list[Action]]:
    """A game's row and its action log, as the database holds them."""
    db = Database.open(db_url)
    try:
        async with db.read() as s:
            game = await s.get(Game, game_id)
            assert game is not None
            log = list((await s.execute(select(Action).where(Action.game_id == game_id)
                                        .order_by(Action.seq))).scalars())
            return game, log
    finally:
        await db.close()


async def until(check: Any, timeout: float = 20, what: str = "") -> Any:
    """Poll ``check()`` (a coroutine function) until it returns something true."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = await check()
        if got:
            return got
        if loop.time() > end:
            raise AssertionError(f"not within {timeout} s: {what}")
        await asyncio.sleep(0.05)  # an observable condition with no event to await
