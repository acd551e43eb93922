"""A dropped connection is played to the end on 托管 and scored; the player is told.

Platform rules §5, ruling 13, through a real ``cardhall serve`` and real WebSocket
clients: a guest's connection closes mid-game in a bot room; nothing turns the drop
into a leave; an admin watching the table sees the game end and settle (not an
escape); the player's next hello brings an ``away`` message with his 托管 turns and
the settlement, and his beans are the settlement's.
"""

from __future__ import annotations

from cardhall.client import HallClient
from tests.server.conftest import ADMIN_NAME, ADMIN_PASSWORD, HallProcess


async def test_a_dropped_seat_is_played_out_and_its_player_told(hall: HallProcess) -> None:
    player = HallClient(hall.url, timeout=20, reconnect=False)
    admin = HallClient(hall.url, timeout=30)
    back: HallClient | None = None
    try:
        await player.guest()
        await player.connect()
        before = (await player.me())["beans"]
        await player.join("ddz3-bots")
        first = await player.expect("state", timeout=20)
        table, game, seat = first["table"], first["game"], first["seat"]
        await admin.login(ADMIN_NAME, ADMIN_PASSWORD)
        await admin.connect()
        await admin.watch(table)
        await player.disconnect()  # the connection drops mid-game, for good
        settled = await admin.expect("settled", table=table, timeout=60)
        assert settled["game"] == game and settled["result"]["ended"] == "finished"
        assert settled["result"]["auto"][seat]  # his seat was played on 托管
        back = HallClient(hall.url, token=player.token, timeout=20)
        welcome = await back.connect()
        assert welcome["tables"] == []  # on 托管 at the end: the table dissolved (§4)
        away = await back.expect("away", table=table)
        assert away["game"] == game and away["over"] and away["turns"] > 0
        assert away["settled"] == settled
        stored = await back.get(f"/api/games/{game}")
        assert stored["status"] == "settled" and stored["beans"] == settled["beans"]
        assert (await back.me())["beans"] == before + settled["beans"][str(seat)]
        assert (await back.get("/api/history"))[0]["game"] == game
    finally:
        for c in (player, admin, back):
            if c is not None:
                await c.close()
