"""A challenge played to the end by two outside clients of a real ``cardhall serve``,
through the public protocol only, and surviving a SIGKILL mid-match (docs/rulings.md,
"Challenges and the ladder"): one registered player opts into the ladder, another
challenges him over HTTP, both answer their seats' turns over the WebSocket; the hall is
killed once a game of the match has settled, a new one on the same database finishes
it. Every deal is played once by each, on the same seed, at the rotating seat; the
ladder's ratings of both moved once; the variant's ladder page shows the match with
every game's replay open.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardhall import bots
from cardhall.client import HallClient
from tests.conftest import new_pg_database
from tests.server.conftest import start_hall
from tests.server.play import Message

LADDER = """
[ladder]
turn_seconds = 5.0
bot_seconds = 0.0
between_seconds = 0.0
"""
DEALS = 4


async def play_turns(clients: list[HallClient], until: str) -> Message:
    """Each client answers his seat's turns with the 托管 policy (an outside bot's loop)
    until a message ``until`` comes ("settled": a game settled; "done": the match's
    ``event`` says it is over); that message."""
    async with asyncio.timeout(180):
        while True:
            for c in clients:
                for msg in c.pending():
                    if msg["type"] == until or (msg["type"] == "event"
                                                and msg["status"] == until):
                        return msg
                    view = msg.get("view") if msg["type"] == "state" else None
                    if view and msg["phase"] == "playing" and msg["seat"] in view["acting"]:
                        action = bots.make("tuoguan", view["variant"], msg["seat"]).act(view)
                        await c.act(msg["table"], action, msg["seq"])
            await asyncio.sleep(0.02)


async def crash_mid_challenge(tmp: Path, db_url: str | None) -> None:
    server = start_hall(tmp, db_url=db_url, extra=LADDER)
    try:
        # A person (the challenger) against another's bot account on the ladder.
        async with HallClient(server.url, timeout=20) as owner:
            await owner.register("Keeper", "secret-pass-1")
            made = await owner.post("/api/bots", {"name": "Ladderbot"})
        person = HallClient(server.url, timeout=20)
        await person.register("Challenger", "secret-pass-1")
        clients = [person, HallClient(server.url, token=made["token"], timeout=20)]
        for c in clients:
            await c.connect()
        assert await clients[1].post("/api/ladder/optin", {"on": True}) == {"on": True}
        made = await clients[0].post("/api/challenges", {"opponent": "Ladderbot",
                                                         "variant": "ddz3", "deals": DEALS})
        match = made["challenge"]
        await play_turns(clients, "settled")
        tokens = [c.token or "" for c in clients]
        server.kill()  # mid-match: a deal settled, the next being dealt or played
        for c in clients:
            await c.close()

        server = start_hall(tmp, db_url=db_url, extra=LADDER)
        again = [HallClient(server.url, token=t, timeout=20) for t in tokens]
        try:
            for c in again:
                await c.connect()
            await play_turns(again, "done")
            shown = await again[0].get(f"/api/challenges/{match}")
            assert shown["status"] == "done" and shown["variant"] == "ddz3"
            lines = shown["results"]
            assert [line["played"] for line in lines] == [DEALS, DEALS]
            seeds = []
            for deal in range(DEALS):  # one seed a deal, the entrant at seat deal mod 3
                games = [await again[0].get(f"/api/games/{line['games'][deal]}")
                         for line in lines]
                seeds.append({g["record"]["seed"] for g in games})
                for g, me in zip(games, (await again[0].me(), await again[1].me()),
                                 strict=True):
                    at = [i for i, p in enumerate(g["players"]) if p == me["id"]]
                    assert at == [deal % 3], (deal, g["players"])
            assert all(len(s) == 1 for s in seeds) and len({*map(min, seeds)}) == DEALS
            outcome = shown["outcome"]
            assert outcome["matchpoints"] == [line["total"] for line in lines]
            assert sum(outcome["matchpoints"]) == 2 * DEALS
            board = await again[0].get("/api/ladder/ddz3")
            rated = {r["name"]: r for r in board["ratings"]}
            assert rated["Challenger"]["matches"] == rated["Ladderbot"]["matches"] == 1
            assert rated["planning"]["anchor"] and rated["planning"]["matches"] == 0
            assert board["matches"][0]["challenge"] == match
            if outcome["score"] != 0.5:  # a decided match moves both (once)
                assert all(r["before"] != r["after"] for r in outcome["ratings"])
        finally:
            for c in again:
                await c.close()
    finally:
        server.stop()


@pytest.mark.services  # starts its own hall in the test
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_sigkill_mid_challenge_loses_nothing_and_rates_once(
        tmp_path: Path, request: pytest.FixtureRequest, backend: str) -> None:
    db_url = None
    if backend == "postgresql":
        db_url = await new_pg_database(request.getfixturevalue("pg_server"))
    await crash_mid_challenge(tmp_path, db_url)
