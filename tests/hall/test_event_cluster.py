"""One event, two processes (``cluster.RedisCoordinator`` over one PostgreSQL and one
Redis, as ``cardhall serve --redis`` runs them): only the process holding the event's
job runs it (its tables open there, never at the other), and when that process stops
the other takes the event over, rebuilds its tables from their logs and finishes it,
the prizes paid once."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from cardhall.hall.cluster.redis_coordinator import RedisCoordinator
from cardhall.hall.domain.config import Economy, EventKind, HallConfig
from cardhall.hall.events import store
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts, ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Game, LedgerEntry
from cardhall.protocol.messages import Enter
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.hall.test_forward import Nobody
from tests.hall.test_tables import room

KO = EventKind(id="ko", variant="ddz3", entrants=6, fee=1_000, chips=1_000, deals=2,
               bot_wait_seconds=0.0, turn_seconds=0.5, bot_seconds=0.0, between_seconds=0.0)


async def open_hall(url: str, redis_url: str, prefix: str) -> Hall:
    nobody = Nobody()
    coord = RedisCoordinator(redis_url, nobody, lease_seconds=1.0, prefix=prefix)
    config = HallConfig(rooms=(room(bot_wait_seconds=None),),
                        economy=Economy(starting_beans=10_000), events=(KO,))
    hall = Hall(config, Database.open(url), nobody, BotPool(workers=1, processes=False),
                coordinator=coord, connections=nobody)
    hall.events.poll, hall.events.hold_seconds = 0.05, 1.0
    await hall.open()
    return hall


async def test_one_process_runs_an_event_and_the_other_takes_it_over(
        pg_server: PostgresServer, redis_server: RedisServer, p: str) -> None:
    url = await new_pg_database(pg_server)
    await upgrade(url)
    a = await open_hall(url, redis_server.url, p)
    b = await open_hall(url, redis_server.url, p)
    try:
        await a.events.close()  # both guests in one event: the fill waits for them
        await b.events.close()
        players = [(await accounts.create_guest(a.db, a.config.economy)).player.id
                   for _ in range(2)]
        for player in players:
            await a.handle(player, Enter(type="enter", kind="ko"))
        event = await store.entered_in(a.db, players[0])
        assert event is not None
        a.events.start()
        async with asyncio.timeout(60):  # a runs it: its first game ends there
            while not any(t.startswith(f"e{event}") for t in a.lobby.tables):
                await asyncio.sleep(0.02)
        b.events.start()
        async with asyncio.timeout(60):
            while True:
                async with a.db.read() as s:
                    if await s.scalar(select(func.count()).select_from(Game).where(
                            Game.table_id.like(f"e{event}-%"), Game.status != "live")):
                        break
                assert not any(t.startswith(f"e{event}") for t in b.lobby.tables), \
                    "the other process opened a table of an event it does not hold"
                await asyncio.sleep(0.02)
        await a.close()  # a stops: b takes the event (and its live tables) over
        async with asyncio.timeout(120):
            while (snap := await store.snapshot(b.db, event)) is None or \
                    snap.status != store.DONE:
                await asyncio.sleep(0.1)
        assert sorted(e.place or 0 for e in snap.entrants) == [1, 2, 3, 4, 5, 6]
        assert sum(e.chips for e in snap.entrants) == 6_000
        paid = sum(e.prize or 0 for e in snap.entrants)
        async with b.db.read() as s:
            moved = await s.scalar(select(func.sum(LedgerEntry.delta))
                                   .where(LedgerEntry.reason.like("event_%")))
        assert moved == paid - 2_000
        for e in snap.entrants:
            if e.player is not None:
                assert await ledger.balance(b.db, e.player) == 9_000 + (e.prize or 0)
    finally:
        await b.close()
        await a.db.close()
        await b.db.close()
