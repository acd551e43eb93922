"""Forwarding a table command to its owner when the owner a process remembers is wrong.

Three halls in this test process over one PostgreSQL database and one real Redis
(``cluster.RedisCoordinator``, as ``cardhall serve --redis`` runs them): the table runs
on C, and B, where the command arrives, remembers another owner (``owners``: an
entry read before the table moved). If the remembered owner is alive but does not
run the table it answers ``moved``; if it is gone nobody hears the call. Either way
it did not apply the call, so B looks the owner up again and the action is taken,
once, by C.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cardhall.hall.cluster.redis_coordinator import RedisCoordinator
from cardhall.hall.domain.config import Economy, HallConfig
from cardhall.hall.domain.errors import Refused
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.table import Table
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database, upgrade
from cardhall.protocol.messages import Join, ServerMessage
from cardhall.protocol.peer import Carries, TableCall
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.hall.test_tables import room


class Nobody:
    """The connections of a hall nobody is connected to (messages go nowhere)."""

    def send(self, player_id: str, message: ServerMessage) -> None:
        pass

    def send_text(self, player_id: str, text: str, kind: Carries) -> None:
        pass

    def closed(self, player_id: str, table: str) -> None:
        pass

    def holds(self, player_id: str) -> bool:
        return False

    def supersede(self, player_id: str, conn: int) -> None:
        pass

    def players(self) -> dict[str, int]:
        return {}

    def close_player(self, player_id: str, code: int, reason: str,
                     sessions: list[str] | None = None) -> bool:
        return False


@asynccontextmanager
async def halls(url: str, redis_url: str, prefix: str, n: int,
                **room_kw: Any) -> AsyncIterator[list[Hall]]:
    """``n`` processes of one hall (Redis), one room ``r1`` (``room_kw`` its settings)."""
    config = HallConfig(rooms=(room(**{"bot_wait_seconds": None, **room_kw}),),
                        economy=Economy(starting_beans=10_000))
    opened: list[Hall] = []
    try:
        for _ in range(n):
            nobody = Nobody()
            coord = RedisCoordinator(redis_url, nobody, lease_seconds=2.0, prefix=prefix)
            hall = Hall(config, Database.open(url), nobody, BotPool(workers=1, processes=False),
                        coordinator=coord, connections=nobody)
            await hall.open()
            opened.append(hall)
        yield opened
    finally:
        for hall in opened:
            await hall.close()
            await hall.db.close()


async def table_on(hall: Hall) -> Table:
    """Three guests quick-match through ``hall``: its table, once the game is on."""
    players = [(await accounts.create_guest(hall.db, hall.config.economy)).player.id
               for _ in range(3)]
    for i, p in enumerate(players):
        await hall.coord.attach(p, i)  # connected here: a queue keeps only those present
        await hall.handle(p, Join(type="join", room="r1"))
    async with asyncio.timeout(20):
        while not hall.lobby.tables or next(iter(hall.lobby.tables.values())).game is None:
            await asyncio.sleep(0.01)
    return next(iter(hall.lobby.tables.values()))


def next_action(table: Table) -> TableCall:
    """The acting seat's first legal action, as a command for ``table``."""
    game = table.game
    assert game is not None
    seat = game.acting[0]
    player = table.seats[seat].player
    assert player is not None
    return TableCall(table=table.id, kind="act", player=player,
                     text=game.legal_actions(seat)[0].text, seq=table.seq)


async def test_a_wrong_remembered_owner_is_looked_up_again(
        pg_server: PostgresServer, redis_server: RedisServer, p: str) -> None:
    url = await new_pg_database(pg_server)
    await upgrade(url)
    async with halls(url, redis_server.url, p, 3) as (a, b, c):
        table = await table_on(c)
        assert table.id not in a.lobby.tables and table.id not in b.lobby.tables
        assert isinstance(b.coord, RedisCoordinator) and isinstance(a.coord, RedisCoordinator)
        owners = b.coord._owners
        for wrong in (a.coord.process, "a-process-that-died"):  # moved; gone
            owners.put(table.id, wrong, time.monotonic(), 60_000)
            before = table.seq
            await b.lobby.call(next_action(table))
            assert table.seq == before + 1, "taken once, by the table's owner"
            assert owners.get(table.id) == c.coord.process, "the owner looked up again"


async def test_a_forwarded_refusal_keeps_its_reason_and_params(
        pg_server: PostgresServer, redis_server: RedisServer, p: str) -> None:
    """A game's refusal at the owner reaches the calling process whole: the wire's code,
    and the typed refusal's reason and params (``CallReply``), as a local one would."""
    url = await new_pg_database(pg_server)
    await upgrade(url)
    async with halls(url, redis_server.url, p, 2) as (b, c):
        table = await table_on(c)
        assert table.id not in b.lobby.tables
        game = table.game
        assert game is not None
        acting = game.acting[0]
        waiter = (acting + 1) % game.players
        player = table.seats[waiter].player
        assert player is not None
        before = table.seq
        call = TableCall(table=table.id, kind="act", player=player, text="pass", seq=before)
        with pytest.raises(Refused) as refused:
            await b.lobby.call(call)
        assert refused.value.code == "not_your_turn"
        assert refused.value.reason == "not_your_turn"
        assert refused.value.params == {"seat": waiter, "to_act": acting}
        assert str(refused.value) == f"it is seat {acting}'s turn, not seat {waiter}'s"
        assert table.seq == before
