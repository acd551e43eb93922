"""Friends across two hall processes (one PostgreSQL, one Redis): the pushes reach a
player connected to the other process, and a friend's whereabouts (online, at which
table of which room) are seen from either process."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster
from tests.server.test_friends import ROOM, members


async def test_friends_across_processes(tmp_path: Path, pg_server: PostgresServer,
                                        redis_server: RedisServer) -> None:
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1), \
            members(p0.url, "Eve") as (eve,), members(p1.url, "Fox", "Gus") as (fox, gus):
        assert eve.player and fox.player and gus.player
        e, f, g = eve.player["id"], fox.player["id"], gus.player["id"]
        await eve.post("/api/friends/ask", {"player": f})  # through p0, to p1
        assert (await fox.expect("friend"))["player"]["id"] == e
        await fox.post("/api/friends/accept", {"player": e})  # through p1, to p0
        assert (await eve.expect("friend"))["event"] == "accepted"
        await fox.send({"type": "private", "room": ROOM, "bots": False})  # runs on p1
        his = await fox.expect("invite")
        [seen] = (await eve.get("/api/friends"))["friends"]
        assert (seen["online"], seen["table"], seen["room"], seen["private"]) == (
            True, his["table"], ROOM, True)
        [back] = (await fox.get("/api/friends"))["friends"]
        assert (back["online"], back["table"]) == (True, None)
        await eve.send({"type": "private", "room": ROOM, "bots": True})  # runs on p0
        invite = await eve.expect("invite")
        await eve.send({"type": "bring", "table": invite["table"], "player": f})
        brought = await fox.expect("brought")
        await fox.send({"type": "join", "code": brought["code"]})
        await fox.expect("state", table=invite["table"])
        # Fox, connected to p1, invites a friend of his to Eve's table, which p0 runs:
        # the table's checks are made there, and the invite reaches Gus.
        await gus.post("/api/friends/ask", {"player": f})
        await fox.expect("friend")
        await fox.post("/api/friends/accept", {"player": g})
        await fox.send({"type": "bring", "table": invite["table"], "player": e})
        assert (await fox.expect("error"))["code"] == "not_allowed"  # she sits there
        await fox.send({"type": "bring", "table": invite["table"], "player": g})
        assert (await gus.expect("brought"))["code"] == brought["code"]
        await eve.close()
        [gone] = [x for x in (await fox.get("/api/friends"))["friends"] if x["id"] == e]
        assert gone["online"] is False and gone["table"] is None


async def test_a_block_through_another_process_stops_chat_at_once(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """Hal blocks Gil through p1 while both sit at a table p0 runs: p1 tells p0, which
    reads Hal's list again, so Gil's next line does not reach Hal (not 30 s later)."""
    async with cluster(tmp_path, pg_server, redis_server) as (p0, p1), \
            members(p0.url, "Gil", "Ivy") as (gil, ivy), members(p1.url, "Hal") as (hal,):
        assert gil.player
        await gil.send({"type": "private", "room": "ddz4-humans", "bots": False})  # on p0
        invite = await gil.expect("invite")
        table = invite["table"]
        for c in (ivy, hal):
            await c.send({"type": "join", "code": invite["code"]})
            await c.expect("state", table=table)
        await gil.chat(table, "hello")  # p0 reads Hal's list (nobody blocked yet)
        assert (await hal.expect("chat"))["say"] == "hello"
        await hal.post("/api/friends/block", {"player": gil.player["id"]})  # through p1
        # One line per 2 s: Gil's next line is refused until then, saying how long to
        # wait (the server's own clock: the only thing to wait for here).
        await gil.chat(table, "smile")
        refusal = await gil.expect("error")
        assert refusal["code"] == "rate_limited", refusal
        wait = re.search(r"wait ([0-9.]+) s", refusal["message"])
        assert wait is not None, refusal
        await asyncio.sleep(float(wait.group(1)) + 0.1)
        await gil.chat(table, "smile")
        await gil.expect("chat", say="smile")  # said: his own line comes back to him
        await ivy.chat(table, "bye")
        # Hal's next line is Ivy's: Gil's, said after the block, never came.
        assert (await hal.expect("chat"))["say"] == "bye"
