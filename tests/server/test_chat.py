"""Quick chat through a real server and real WebSocket clients: a line reaches everyone
at the table (a watcher too) with the speaker's seat; a second line at once is
``rate_limited``; an id outside the catalog is ``malformed``; a watcher may not speak;
a muted seat is not heard by the player who muted it, and is by the others (his own
seat he may not mute: ``not_allowed``); a bot
answers a person's "hurry"."""

from __future__ import annotations

from typing import Any

from cardhall.client import HallClient
from tests.server.conftest import ADMIN_NAME, ADMIN_PASSWORD, HallProcess
from tests.server.play import guests, seat, vacate


async def test_a_line_reaches_the_table_and_the_watcher(hall: HallProcess) -> None:
    admin = HallClient(hall.url, timeout=20)
    try:
        async with guests(hall.url, 3) as clients:
            table, firsts = await seat(clients, "ddz3-humans")
            await admin.login(ADMIN_NAME, ADMIN_PASSWORD)
            await admin.connect()
            await admin.watch(table)
            await admin.expect("state", table=table)
            speaker = clients[0]
            await speaker.chat(table, "hello")
            for c in [*clients, admin]:
                line = await c.expect("chat", table=table)
                assert line == {"type": "chat", "table": table, "seat": firsts[0]["seat"],
                                "say": "hello"}
            await speaker.chat(table, "hurry")  # at once: too fast
            refused = await speaker.expect("error")
            assert refused["code"] == "rate_limited" and "too fast" in refused["message"]
            await clients[1].chat(table, "buy beans cheap")
            assert (await clients[1].expect("error"))["code"] == "malformed"
            await admin.chat(table, "hello")
            assert (await admin.expect("error"))["code"] == "not_seated"
            await vacate(clients, table, "ddz3-humans")
    finally:
        await admin.close()


async def _refused_mute(c: HallClient, table: str, seat: int) -> dict[str, Any]:
    await c.mute(table, seat)
    return await c.expect("error")


async def test_a_muted_seat_is_not_heard_by_the_muter(hall: HallProcess) -> None:
    async with guests(hall.url, 3) as (loud, muter, other):
        table, firsts = await seat([loud, muter, other], "ddz3-humans")
        loud_seat, other_seat = firsts[0]["seat"], firsts[2]["seat"]
        own = await _refused_mute(muter, table, firsts[1]["seat"])
        assert own["code"] == "not_allowed" and "your own seat" in own["message"]
        await muter.mute(table, loud_seat)
        await muter.ping()
        await muter.expect("pong")  # the mute is in place
        await loud.chat(table, "hurry")
        assert (await other.expect("chat"))["seat"] == loud_seat
        assert (await loud.expect("chat"))["seat"] == loud_seat
        await other.chat(table, "smile")
        # The muter's next line is the other's: the loud one's never came (one
        # connection's messages come in the order the table sent them).
        assert (await muter.expect("chat")) == {"type": "chat", "table": table,
                                                "seat": other_seat, "say": "smile"}
        await vacate([loud, muter, other], table, "ddz3-humans")


async def test_a_bot_answers_a_hurry(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-bots")
        first = await solo.expect("state")
        table = first["table"]
        await solo.chat(table, "hurry")
        mine = await solo.expect("chat")
        assert (mine["seat"], mine["say"]) == (first["seat"], "hurry")
        answer = await solo.expect("chat")
        assert answer["say"] == "thinking" and first["players"][answer["seat"]]["bot"]
        await vacate([solo], table, "ddz3-bots")
