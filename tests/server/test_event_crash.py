"""An event (比赛场) survives a SIGKILL of the server mid-event: a real ``cardhall serve``
runs a six-entrant knockout (two guests on 托管, four bots), is killed outright after a
game of it has settled, and a new one on the same database finishes the event: the
guests' fees were taken once and the prizes are paid once (docs/rulings.md, "Events").
The same for a duplicate event (复式) of four entrants over six deals, whose deals are
the same for every entrant before and after the kill.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from cardhall.client import HallClient
from tests.conftest import new_pg_database
from tests.server.conftest import start_hall
from tests.server.play import Message

START, FEE = 10_000, 1_000
EVENT = f"""
[[events]]
id = "fast"
variant = "ddz3"
entrants = 6
fee = {FEE}
chips = 1000
deals = 2
bot_wait_seconds = 2.0
turn_seconds = 2.0
bot_seconds = 0.0
between_seconds = 0.0
"""


async def play_on_tuoguan(clients: list[HallClient], until: str) -> Message:
    """Each guest puts his seat on 托管 whenever a game deals it in; returns the first
    ``event`` message to come after one named ``until`` (a status, or "settled": a game
    of the event settled)."""
    async with asyncio.timeout(120):
        while True:
            for c in clients:
                for msg in c.pending():
                    if msg["type"] == until or (msg["type"] == "event"
                                                and msg["status"] == until):
                        return msg
                    if msg["type"] == "state" and msg["phase"] == "playing" and \
                            msg["seat"] >= 0 and not msg["players"][msg["seat"]]["auto"]:
                        await c.act(msg["table"], "auto on", msg["seq"])
            await asyncio.sleep(0.02)


DUPLICATE = f"""
[[events]]
id = "dup"
format = "duplicate"
variant = "ddz3"
entrants = 4
deals = 6
fee = {FEE}
bot_wait_seconds = 2.0
turn_seconds = 2.0
bot_seconds = 0.0
between_seconds = 0.0
"""


#: What a format's test checks of the finished event, past what every event must hold:
#: a client of the restarted hall, and the event's standings.
Check = Callable[[HallClient, Message], Awaitable[None]]


async def crash_mid_event(tmp: Path, db_url: str | None, config: str, kind: str,
                          check: Check) -> None:
    """Two guests enter ``kind`` and play it on 托管; the server is SIGKILLed once a game
    of it has settled; a new one on the same database finishes it. Every event: done,
    each entrant placed, each guest's beans his start less the fee plus his prize."""
    server = start_hall(tmp, db_url=db_url, extra=config)
    try:
        clients = [HallClient(server.url, timeout=20) for _ in range(2)]
        for c in clients:
            await c.guest()
            await c.connect()
        for c in clients:
            await c.send({"type": "enter", "kind": kind})
        entered = [await c.expect("event", timeout=20) for c in clients]
        event = entered[0]["event"]
        assert {m["event"] for m in entered} == {event}
        await play_on_tuoguan(clients, "settled")
        tokens = [c.token or "" for c in clients]
        server.kill()  # mid-event: the next deal (or round) is being dealt
        for c in clients:
            await c.close()

        server = start_hall(tmp, db_url=db_url, extra=config)
        again = [HallClient(server.url, token=t, timeout=20) for t in tokens]
        try:
            for c in again:
                await c.connect()
            done = await play_on_tuoguan(again, "done")
            standings = await again[0].get(f"/api/events/{event}")
            assert standings["status"] == "done" == done["status"]
            entrants = standings["entrants"]
            assert sorted(e["place"] for e in entrants) == list(range(1, len(entrants) + 1))
            prizes = [1_200, 600, 200]  # 60/30/10 % of the two guests' fees
            for c in again:
                me = await c.me()
                mine = next(e for e in entrants if not e["bot"] and e["name"] == me["name"])
                won = prizes[mine["place"] - 1] if mine["place"] <= 3 else 0
                assert me["beans"] == START - FEE + won, (me, mine)
            await check(again[0], standings)
        finally:
            for c in again:
                await c.close()
    finally:
        server.stop()


async def knockout_holds(client: HallClient, standings: Message) -> None:
    assert len(standings["entrants"]) == 6
    assert sum(e["chips"] for e in standings["entrants"]) == 6 * 1000
    listing = await client.get("/api/events")
    assert [k["kind"] for k in listing][-1] == "fast"


async def duplicate_holds(client: HallClient, standings: Message) -> None:
    lines = standings["results"]
    assert len(lines) == 4 and all(line["played"] == 6 for line in lines)
    for deal in range(6):  # one deal, one seed, for every entrant
        seeds = set()
        for line in lines:
            game = await client.get(f"/api/games/{line['games'][deal]}")
            seeds.add(game["record"]["seed"])
        assert len(seeds) == 1, (deal, seeds)


@pytest.mark.services  # starts its own hall in the test
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_sigkill_mid_event_pays_the_prizes_once(
        tmp_path: Path, request: pytest.FixtureRequest, backend: str) -> None:
    db_url = None
    if backend == "postgresql":
        db_url = await new_pg_database(request.getfixturevalue("pg_server"))
    await crash_mid_event(tmp_path, db_url, EVENT, "fast", knockout_holds)


@pytest.mark.services  # starts its own hall in the test
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_sigkill_mid_duplicate_event_pays_the_prizes_once_on_the_same_deals(
        tmp_path: Path, request: pytest.FixtureRequest, backend: str) -> None:
    db_url = None
    if backend == "postgresql":
        db_url = await new_pg_database(request.getfixturevalue("pg_server"))
    await crash_mid_event(tmp_path, db_url, DUPLICATE, "dup", duplicate_holds)
