"""Quick chat across hall processes: a line and a mute from a player connected to one
process reach the table run by another (``TableCall`` kinds ``chat`` and ``mute``,
forwarded to the owner), and the lines come back to players on either process."""

from __future__ import annotations

from pathlib import Path

from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster, guest_on
from tests.server.test_crash import ROOM


async def test_chat_and_a_mute_cross_processes(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1):
        # Two on p1 queue first; the third, on p0, completes the group: p0 runs the table.
        a, b, c = await guest_on(p1.url), await guest_on(p1.url), await guest_on(p0.url)
        try:
            for x in (a, b):
                await x.join(ROOM)
                await x.expect("queued", timeout=20)
            await c.join(ROOM)
            firsts = [await x.expect("state", timeout=20) for x in (a, b, c)]
            table = firsts[0]["table"]
            seat_a, seat_c = firsts[0]["seat"], firsts[2]["seat"]
            await b.mute(table, seat_c)  # from p1, kept by the table on p0
            await b.ping()
            await b.expect("pong")
            await c.chat(table, "hello")
            assert (await a.expect("chat"))["seat"] == seat_c  # p0's line reaches p1
            await a.chat(table, "smile")  # from p1, through p0, back to p1 and to p0
            assert (await c.expect("chat", seat=seat_a))["say"] == "smile"
            # b's first line is a's: c's, muted, never came.
            assert await b.expect("chat") == {"type": "chat", "table": table,
                                              "seat": seat_a, "say": "smile"}
        finally:
            for x in (a, b, c):
                await x.close()
