"""A room's pace: bots (and seats on 托管) answer no sooner than ``bot_seconds``, so a
person at the table can follow the play and take his seat back from 托管 in time."""

from __future__ import annotations

import asyncio

from cardhall.hall.config import BOT_SECONDS, default_rooms
from tests.server.conftest import PACE, HallProcess
from tests.server.play import guests, vacate


def test_the_built_in_rooms_are_paced() -> None:
    assert BOT_SECONDS > 0
    assert {r.bot_seconds for r in default_rooms()} == {BOT_SECONDS}


async def test_bots_answer_at_the_rooms_pace(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-paced")
        first = await solo.expect("state")
        table, me = first["table"], first["seat"]
        await solo.act(table, "auto on", first["seq"])  # every seat is a machine's now
        loop = asyncio.get_running_loop()
        gaps: list[float] = []
        last = loop.time()
        while len(gaps) < 4:
            msg = await solo.expect("state", table=table)
            now = loop.time()
            view = msg["view"]
            if msg["phase"] != "playing" or view is None or view["result"] is not None:
                break
            if msg["seq"] > first["seq"] + 1:  # after the 托管 entry: a machine's answer
                gaps.append(now - last)
            last = now
        assert len(gaps) == 4, gaps
        assert min(gaps) >= PACE * 0.9, gaps  # the bot took its time (timer slack aside)
        assert view is None or view["auto"][me]
        await vacate([solo], table, "ddz3-paced")
