"""A room's pace: bots (and seats on 托管) answer no sooner than ``bot_seconds``, so a
person at the table can follow the play and take his seat back from 托管 in time."""

from __future__ import annotations

import itertools

from cardhall.hall.domain.config import BOT_SECONDS, default_rooms
from tests.server.cluster import stored
from tests.server.conftest import PACE, HallProcess
from tests.server.play import guests, vacate


def test_the_built_in_rooms_are_paced() -> None:
    assert BOT_SECONDS > 0
    assert {r.bot_seconds for r in default_rooms()} == {BOT_SECONDS}


async def test_bots_answer_at_the_rooms_pace(hall: HallProcess) -> None:
    """Measured where the pace is kept, on the server: the times the action log gives
    the machines' answers (a client's own clock also measures how late it read them:
    on a loaded machine two states can reach it together)."""
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-paced")
        first = await solo.expect("state")
        table, me, game_id = first["table"], first["seat"], first["game"]
        await solo.act(table, "auto on", first["seq"])  # every seat is a machine's now
        seq = first["seq"] + 1  # the 托管 entry
        while True:
            msg = await solo.expect("state", table=table)
            view = msg["view"]
            if msg["phase"] != "playing" or view is None or view["result"] is not None:
                break
            assert view["auto"][me]
            if msg["seq"] >= seq + 5:
                break
        _, log = await stored(hall.db_url, game_id)
        # From the second answer after the 托管 entry on, each machine was asked once the
        # action before it was taken (the first may have been asked before the entry).
        answered = [a.created for a in log if a.seq > seq + 1]
        gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(answered)]
        assert len(gaps) >= 3, gaps
        assert min(gaps) >= PACE * 0.9, gaps  # the bot took its time (timer slack aside)
        await vacate([solo], table, "ddz3-paced")
