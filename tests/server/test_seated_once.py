"""A player is seated at most once, through real sockets: his joins raced over two
WebSockets (the second supersedes the first while its join is in flight) and, in a
cluster, through two processes. The database's ``seatings`` row decides."""

from __future__ import annotations

import asyncio
from pathlib import Path

from sqlalchemy import func, select

from cardhall.client import HallClient
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Seating
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import admin, cluster
from tests.server.conftest import HallProcess

ROOMS = ("ddz3-bots", "ddz3_happy-bots")  # bots at once: every join seats at once
TRIES = 12


async def _seated_at(urls: list[str], db_url: str, player: str) -> tuple[list[str], int]:
    """The live tables ``player`` sits at (every process's census), and his rows."""
    a = await admin(urls[0])
    try:
        tables = [t["id"] for t in await a.get("/api/admin/tables") if player in t["players"]]
    finally:
        await a.close()
    db = Database.open(db_url)
    try:
        async with db.read() as s:
            rows = int(await s.scalar(select(func.count()).select_from(Seating)
                                      .where(Seating.player_id == player)) or 0)
    finally:
        await db.close()
    return tables, rows


async def _race(urls: list[str], db_url: str) -> None:
    for attempt in range(TRIES):
        first = HallClient(urls[0], reconnect=False, timeout=20)
        await first.guest()
        await first.connect()
        player = str((await first.me())["id"])
        second = HallClient(urls[-1], token=first.token, reconnect=False, timeout=20)
        try:
            # His first join is in flight when his second socket takes over and joins
            # another room and opens a private table, all at once.
            await first.join(ROOMS[0])
            await second.connect()
            await asyncio.gather(second.join(ROOMS[1]),
                                 second.send({"type": "private", "room": ROOMS[0],
                                              "bots": True}))
            await second.ping()
            await second.expect("pong")
            await second.ping()  # the first socket's join has been handled by now too
            await second.expect("pong")
            tables, rows = await _seated_at(urls, db_url, player)
            assert len(tables) <= 1, (attempt, tables)  # never two seats
            assert rows == len(tables), (attempt, tables, rows)  # each seat has its row
            for table in tables:
                await second.leave(table=table)
        finally:
            await first.close()
            await second.close()


async def test_racing_joins_over_two_sockets_seat_a_player_once(hall: HallProcess) -> None:
    await _race([hall.url], hall.db_url)


async def test_racing_joins_through_two_processes_seat_a_player_once(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        await _race([p0.url, p1.url], p0.db_url)
