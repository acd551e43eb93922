"""Two accounts of one address never share a matched table (an attack trial: two guests
from one address, queued together in a 二人 room, were matched, and one lost every game
to the other on purpose; his rating climbed 280 in five games). Quick match groups the
earliest waiting players of distinct addresses; the other waits for the next table, and
the bots fill a table with the earliest of each address only. Checked on the queues of
one process, on the Redis queues of a cluster (the same rule in Lua), and through the
hall's own message handling, which passes the connection's address down."""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher

from cardhall.hall.cluster.coordinator import LocalQueues, apart, kept_apart
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts, bots
from cardhall.hall.store.db import Database, upgrade
from cardhall.protocol.messages import Join
from tests.conftest import new_pg_database
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.hall.test_forward import halls
from tests.hall.test_tables import guest, make_hall, room


def test_the_earliest_of_each_address_in_arrival_order() -> None:
    order = ["a1", "b", "a2", "c", "d"]
    addresses = {"a1": "10.0.0.1", "a2": "10.0.0.1", "b": "10.0.0.2", "c": "", "d": ""}
    assert apart(order, addresses, 3) == ["a1", "b", "c"]
    assert apart(order, addresses) == ["a1", "b", "c", "d"]
    assert apart(["x", "y"], {}, 2) == ["x", "y"]  # an unknown address keeps nobody apart


def test_this_hosts_own_clients_are_not_kept_apart() -> None:
    """Loopback (a load test, the operator's clients, a proxy on the host not listed as
    trusted) and what is no address keep nobody apart, rather than everyone."""
    assert kept_apart("203.0.113.7") == "203.0.113.7"
    assert kept_apart("2001:db8::1") == "2001:db8::1"
    assert [kept_apart(a) for a in ("127.0.0.1", "127.0.0.9", "::1", "?", "")] == [""] * 5


async def test_one_process_queues_keep_an_address_apart() -> None:
    q = LocalQueues()
    assert (await q.add("r", "a1", 3, "t1", "10.0.0.1")).group == []
    assert (await q.add("r", "a2", 3, "t2", "10.0.0.1")).group == []
    assert (await q.add("r", "b", 3, "t3", "10.0.0.2")).group == []  # two addresses: wait
    full = await q.add("r", "c", 3, "t4", "10.0.0.3")
    assert full.group == ["a1", "b", "c"] and full.waiting == ["a2"]
    twin = await q.add("r", "a3", 3, "t5", "10.0.0.1")  # a third account: still apart
    assert twin.group == [] and twin.waiting == ["a2", "a3"]
    due = await q.take_due("r", 0.0, "t6")  # the bots fill for one of them only
    assert due.group == ["a2"] and due.waiting == ["a3"]
    assert (await q.take_due("r", 0.0, "t7")).group == ["a3"]
    assert await q.waiting() == {"r": 0}


async def _seated(hall: Hall, players: list[str]) -> set[str]:
    """Those of ``players`` seated at the table the first of them sits at, once open."""
    async with asyncio.timeout(20):
        while not (found := [t for t in hall.lobby.tables.values()
                             if any(s.player == players[0] for s in t.seats)]):
            await asyncio.sleep(0.01)
    return {s.player for s in found[0].seats if s.player is not None} & set(players)


async def test_the_hall_passes_the_connection_address(db: Database) -> None:
    hall, _ = await make_hall(db, room(bot_wait_seconds=None))
    try:
        a1, a2, b, c = [await guest(hall) for _ in range(4)]
        for player, address in ((a1, "10.0.0.1"), (a2, "10.0.0.1"), (b, "10.0.0.2")):
            await hall.handle(player, Join(type="join", room="r1"), address=address)
        assert not hall.lobby.tables
        await hall.handle(c, Join(type="join", room="r1"), address="10.0.0.3")
        assert await _seated(hall, [a1, a2, b, c]) == {a1, b, c}
        assert await hall.lobby.queues.where(a2) == "r1"
    finally:
        await hall.close()


async def test_redis_queues_keep_an_address_apart(
        pg_server: PostgresServer, redis_server: RedisServer, p: str) -> None:
    url = await new_pg_database(pg_server)
    await upgrade(url)
    async with halls(url, redis_server.url, p, 1) as (hall,):
        a1, a2, b, c = [await guest(hall) for _ in range(4)]
        loop = [await guest(hall) for _ in range(3)]  # this host's clients: matched together
        for i, player in enumerate(loop):
            await hall.coord.attach(player, 10 + i)
            await hall.handle(player, Join(type="join", room="r1"), address="127.0.0.1")
        assert await _seated(hall, loop) == set(loop)
        for i, (player, address) in enumerate(
                ((a1, "10.0.0.1"), (a2, "10.0.0.1"), (b, "10.0.0.2"))):
            await hall.coord.attach(player, i)  # a queue keeps only those connected
            await hall.handle(player, Join(type="join", room="r1"), address=address)
        assert len(hall.lobby.tables) == 1  # the loopback table only
        assert await hall.coord.queues.waiting() == {"r1": 3}
        await hall.coord.attach(c, 3)
        await hall.handle(c, Join(type="join", room="r1"), address="10.0.0.3")
        assert await _seated(hall, [a1, a2, b, c]) == {a1, b, c}
        assert await hall.coord.queues.where(a2) == "r1"
        assert await hall.coord.queues.waiting() == {"r1": 1}


async def _owner_and_bots(hall: Hall, hasher: PasswordHasher) -> tuple[str, list[str]]:
    """A registered player and two bot accounts of his (docs/bots.md)."""
    owner = (await accounts.register(hall.db, "owner", "secret-1", hall.config.economy,
                                     hasher=hasher)).player
    made = [await bots.create(hall.db, owner, f"prog{i}", hall.config.economy, 5)
            for i in range(2)]
    return owner.id, [m.player.id for m in made]


async def test_an_owner_and_his_bots_never_share_a_matched_table(
        db: Database, hasher: PasswordHasher) -> None:
    """An attack trial: an owner and two bots of his, each connected from its own
    address, were matched together in the bot room. His program saw three hands of
    three, and his bots (each given the starting beans, made and retired at will) could
    lose every game to him on purpose. One person's accounts are kept apart as one
    address's are, whatever addresses they come from (loopback included)."""
    hall, _ = await make_hall(db, room(bot_wait_seconds=None, bot_accounts=True))
    try:
        owner, (bot1, bot2) = await _owner_and_bots(hall, hasher)
        s1, s2, s3 = [await guest(hall) for _ in range(3)]
        for player, address, bot in ((owner, "10.0.0.1", False), (bot1, "10.0.0.2", True),
                                     (bot2, "127.0.0.1", True), (s1, "10.0.0.4", False)):
            await hall.handle(player, Join(type="join", room="r1"), address=address, bot=bot)
        assert not hall.lobby.tables
        await hall.handle(s2, Join(type="join", room="r1"), address="10.0.0.5")
        assert await _seated(hall, [owner, bot1, bot2, s1, s2]) == {owner, s1, s2}
        await hall.handle(s3, Join(type="join", room="r1"), address="10.0.0.6")
        assert len(hall.lobby.tables) == 1  # his two bots wait apart: one table a time
        due = await hall.lobby.queues.take_due("r1", 0.0, "t-due")
        assert due.group == [bot1, s3] and due.waiting == [bot2]
    finally:
        await hall.close()


async def test_redis_queues_keep_an_owner_and_his_bots_apart(
        pg_server: PostgresServer, redis_server: RedisServer, p: str,
        hasher: PasswordHasher) -> None:
    """The same rule in the cluster's Lua: the keys a player is kept apart by."""
    url = await new_pg_database(pg_server)
    await upgrade(url)
    async with halls(url, redis_server.url, p, 1, bot_accounts=True) as (hall,):
        owner, (bot1, bot2) = await _owner_and_bots(hall, hasher)
        s1, s2 = [await guest(hall) for _ in range(2)]
        for i, (player, address, bot) in enumerate(
                ((owner, "127.0.0.1", False), (bot1, "10.0.0.2", True),
                 (bot2, "10.0.0.3", True), (s1, "10.0.0.4", False))):
            await hall.coord.attach(player, i)
            await hall.handle(player, Join(type="join", room="r1"), address=address, bot=bot)
        assert not hall.lobby.tables
        await hall.coord.attach(s2, 4)
        await hall.handle(s2, Join(type="join", room="r1"), address="10.0.0.5")
        assert await _seated(hall, [owner, s1, s2]) == {owner, s1, s2}
        assert await hall.coord.queues.waiting() == {"r1": 2}
