"""观战 across two hall processes: a watcher connected to one process finds a table the
other runs in his process's list, watches it (the call reaches the owner, its states
come back through the forwarding outbox), is refused as the owner refuses, and stops;
connected again through the other process, his watch is handed to it."""

from __future__ import annotations

from pathlib import Path

from cardhall.client import HallClient
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster, guest_on, reconnect, until
from tests.server.test_cluster import close_all, owner_of, run_by_p0
from tests.server.test_crash import ROOM


async def test_a_watch_reaches_the_process_that_runs_the_table(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        clients, table = await run_by_p0(p0, p1)
        watcher, owner = await guest_on(p1.url), await guest_on(p0.url)
        try:
            assert await owner_of(p1, table) != ""  # p0 runs it (run_by_p0)

            async def listed() -> bool:
                rows = (await watcher.get(f"/api/rooms/{ROOM}/tables"))["tables"]
                return any(r["id"] == table for r in rows)
            await until(listed, what="p1 lists p0's table")
            await watcher.watch(table)
            seen = await watcher.expect("state", table=table)
            assert seen["seat"] == -1 and seen["view"]["hand"] == [] and seen["watchers"] == 1
            await clients[2].expect("state", table=table, watchers=1)  # a seat on p0
            # A refusal comes back as the owner said it: a closed private table on p0.
            await owner.send({"type": "private", "room": ROOM, "spectators": False})
            closed = (await owner.expect("invite"))["table"]
            await watcher.watch(closed)
            refused = await watcher.expect("error")
            assert refused["code"] == "forbidden", refused
            await watcher.leave(table=table)
            assert (await watcher.expect("left", table=table))["reason"] == "unwatched"
            await clients[2].expect("state", table=table, watchers=0)
            # Watching again, he connects again through p0: p1, which knew the watch,
            # hands it to p0, whose connection is sent the table's state, and whose
            # drop stops it (unknown to p0, it would outlive him at the table).
            await watcher.watch(table)
            await watcher.expect("state", table=table)
            await clients[2].expect("state", table=table, watchers=1)
            again = await reconnect(watcher, p0.url)
            try:
                taken = await again.expect("state", table=table)
                assert taken["seat"] == -1 and taken["view"]["hand"] == []
            finally:
                await again.close()
            await clients[2].expect("state", table=table, watchers=0)
        finally:
            await close_all([*clients, watcher, owner])


async def test_spectators_reaches_the_process_that_runs_the_private_table(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """The private table runs on p0, its owner's process: a friend seated from p1 is
    refused as the table refuses him (not its owner), and the owner closing it sends a
    watcher connected to p1 away."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        owner, friend, watcher = (await guest_on(p0.url), await guest_on(p1.url),
                                  await guest_on(p1.url))
        try:
            await owner.send({"type": "private", "room": ROOM})
            invite = await owner.expect("invite")
            table = invite["table"]
            await friend.send({"type": "join", "code": invite["code"]})
            await friend.expect("state", table=table)
            await watcher.watch(table)
            await watcher.expect("state", table=table)
            await friend.send({"type": "spectators", "table": table, "on": False})
            assert (await friend.expect("error"))["code"] == "forbidden"
            await owner.send({"type": "spectators", "table": table, "on": False})
            left = await watcher.expect("left", table=table)
            assert left["reason"] == "closed_to_spectators"
            await friend.expect("state", table=table, spectators=False)
            await watcher.watch(table)
            assert (await watcher.expect("error"))["code"] == "forbidden"
        finally:
            await close_all([owner, friend, watcher])


async def test_a_watcher_follows_a_table_taken_over(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """The process running a watched table is SIGKILLed: the watcher, connected to the
    other process, is not left looking at a table nobody runs. Once p1 adopts the table
    from the log, his watch is made again there: he is sent its state (a seat's hidden
    cards still hidden) and the seats see him counted."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        (a, b, c), table = await run_by_p0(p0, p1)
        watcher = await guest_on(p1.url)
        moved: list[HallClient] = []
        try:
            await watcher.watch(table)
            await watcher.expect("state", table=table)
            await a.expect("state", table=table, watchers=1)
            p0.kill()
            watcher.pending()  # what came before the kill
            c2 = await reconnect(c, p1.url)  # c's connection died with p0
            moved = [c2]
            taken = await watcher.expect("state", table=table, timeout=30)
            assert taken["seat"] == -1 and taken["view"]["hand"] == []
            await a.expect("state", table=table, watchers=1, timeout=30)
        finally:
            await close_all([a, b, c, watcher, *moved])
