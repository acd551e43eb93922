"""A duplicate event (复式), two processes over one PostgreSQL and one Redis: the process
holding the event's job runs its tables; when it stops the other takes the event over,
rebuilds its live tables from their logs and deals the same seeds on, so every entrant
still plays each of the event's deals exactly once, and the prizes are paid once."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from cardhall.hall.cluster.redis_coordinator import RedisCoordinator
from cardhall.hall.domain.config import Economy, EventKind, HallConfig
from cardhall.hall.events import store
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Game, LedgerEntry
from cardhall.protocol.messages import Enter
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.hall.test_event_duplicate import games_by_entrant
from tests.hall.test_forward import Nobody
from tests.hall.test_tables import room

DUP = EventKind(id="dup", format="duplicate", variant="ddz3", entrants=4, deals=4,
                fee=1_000, prizes=(50, 30, 20), bot_wait_seconds=0.0, turn_seconds=0.5,
                bot_seconds=0.0, between_seconds=0.0)


async def open_hall(url: str, redis_url: str, prefix: str) -> Hall:
    nobody = Nobody()
    coord = RedisCoordinator(redis_url, nobody, lease_seconds=1.0, prefix=prefix)
    config = HallConfig(rooms=(room(bot_wait_seconds=None),),
                        economy=Economy(starting_beans=10_000), events=(DUP,))
    hall = Hall(config, Database.open(url), nobody, BotPool(workers=1, processes=False),
                coordinator=coord, connections=nobody)
    hall.events.poll, hall.events.hold_seconds = 0.05, 1.0
    await hall.open()
    return hall


async def test_a_duplicate_event_taken_over_deals_the_same_seeds(
        pg_server: PostgresServer, redis_server: RedisServer, p: str) -> None:
    url = await new_pg_database(pg_server)
    await upgrade(url)
    a = await open_hall(url, redis_server.url, p)
    b = await open_hall(url, redis_server.url, p)
    try:
        await a.events.close()
        await b.events.close()
        players = [(await accounts.create_guest(a.db, a.config.economy)).player.id
                   for _ in range(2)]
        for player in players:
            await a.handle(player, Enter(type="enter", kind="dup"))
        event = await store.entered_in(a.db, players[0])
        assert event is not None
        a.events.start()
        async with asyncio.timeout(60):  # a runs it until some deals are played there
            while True:
                async with a.db.read() as s:
                    if (await s.scalar(select(func.count()).select_from(Game).where(
                            Game.table_id.like(f"e{event}-%"), Game.status != "live"))
                            or 0) >= 3:
                        break
                await asyncio.sleep(0.02)
        b.events.start()
        await a.close()  # a stops: b takes the event (and its live tables) over
        async with asyncio.timeout(120):
            while (snap := await store.snapshot(b.db, event)) is None or \
                    snap.status != store.DONE:
                await asyncio.sleep(0.1)
        assert snap.seeds is not None
        for no, games in (await games_by_entrant(b.db, event)).items():
            assert [g.record["seed"] for g in games if g.record] == snap.seeds, no
        assert sorted(e.place or 0 for e in snap.entrants) == [1, 2, 3, 4]
        paid = sum(e.prize or 0 for e in snap.entrants)
        async with b.db.read() as s:
            moved = await s.scalar(select(func.sum(LedgerEntry.delta))
                                   .where(LedgerEntry.reason.like("event_%")))
        assert moved == paid - 2_000
    finally:
        await b.close()
        await a.db.close()
        await b.db.close()
