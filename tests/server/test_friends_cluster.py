"""Friends across two hall processes (one PostgreSQL, one Redis): the pushes reach a
player connected to the other process, and a friend's whereabouts (online, at which
table of which room) are seen from either process."""

from __future__ import annotations

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
