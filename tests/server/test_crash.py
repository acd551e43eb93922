"""No game is lost: SIGKILL the hall mid-game and again around the last action.

A real ``cardhall serve`` is killed outright (no shutdown hooks run), then a new
one starts on the same database. Every live table is rebuilt from its action
log; the players' tokens reconnect them to their table with its full state; the
games finish and each settles exactly once; every bean is accounted for. On
SQLite and on a real PostgreSQL server.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from cardhall.client import HallClient
from tests.conftest import new_pg_database
from tests.server.conftest import start_hall
from tests.server.play import Message, first_legal, guests, play_out, seat

ROOM, START, FEE = "ddz3-humans", 10_000, 5  # the server tests' config: A = 5


def cards_in(action: str) -> int:
    body = action.split(" ", 1)[1].split("=", maxsplit=1)[0] if " " in action else ""
    return len(body.replace("+", "").replace(" ", ""))


def finishing(view: Message) -> str | None:
    """A legal play that empties the acting seat's hand: the game's last action."""
    left = view["counts"][view["seat"]]
    return next((a for a in view["legal"] if a.startswith("play ") and cards_in(a) == left),
                None)


async def advance(clients: list[HallClient], table: str, until: Any,
                  timeout: float = 60) -> tuple[HallClient, Message]:
    """Play random legal actions until ``until(view)`` names an action for the seat to act;
    returns that client and the state it was named on (the action is not sent)."""
    rng = random.Random(5)
    async with asyncio.timeout(timeout):
        while True:
            for c in clients:
                state = c.states.get(table)
                if state is None or state["phase"] != "playing":
                    continue
                view, me = state["view"], state["seat"]
                if view is None or me not in view["acting"] or view["auto"][me]:
                    continue
                if until(view) is not None:
                    return c, state
                await c.act(table, first_legal(view, rng), state["seq"])
                await c.expect("state", timeout=20)
            await asyncio.sleep(0.01)  # let the other clients' readers take their states


async def rejoin(url: str, tokens: list[str]) -> list[HallClient]:
    """The same players, back through a new server: their tokens, their table."""
    clients = [HallClient(url, token=t, timeout=20) for t in tokens]
    for c in clients:
        welcome = await c.connect()
        assert len(welcome["tables"]) == 1, welcome
        await c.expect("state", timeout=20)
    return clients


async def crash_and_finish(tmp: Path, db_url: str | None, last_action: bool) -> None:
    server = start_hall(tmp, db_url=db_url)
    try:
        async with guests(server.url, 3) as clients:
            table, _ = await seat(clients, ROOM)
            if last_action:
                mover, state = await advance(clients, table, finishing)
                # The final play is sent and the server killed at once: it may or may not
                # have been logged. Either way the game must end once and settle once.
                await mover.act(table, finishing(state["view"]) or "", state["seq"])
            else:
                await advance(clients, table, lambda v: "stop" if v["counts"][0] < 15 else None)
            tokens = [c.token or "" for c in clients]
            server.kill()
        server = start_hall(tmp, db_url=db_url)
        again = await rejoin(server.url, tokens)
        try:
            state = again[0].states[table]
            settled: Message
            if state["phase"] == "playing":
                settled = (await play_out(again, table, seed=3)).settled
            else:  # the last action was logged: the rebuilt table settled on start
                settled = await again[0].expect("settled", timeout=20)
            game = settled["game"]
            stored = await again[0].get(f"/api/games/{game}")
            assert stored["beans"] == settled["beans"]
            mes = [await c.me() for c in again]
            by_player = {me["id"]: me["beans"] for me in mes}
            for seat_no, player in enumerate(stored["players"]):
                assert by_player[player] == START + settled["beans"][str(seat_no)]
            changes = sum(settled["beans"].values())
            assert -3 * FEE <= changes <= 0, "beans appeared or vanished"
            history = await again[0].get("/api/history")
            assert [g["game"] for g in history].count(game) == 1, "settled twice"
        finally:
            for c in again:
                await c.close()
    finally:
        server.stop()


@pytest.mark.services  # starts its own hall in the test
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
@pytest.mark.parametrize("last_action", [False, True], ids=["mid-game", "last-action"])
async def test_sigkill_loses_no_game(tmp_path: Path, request: pytest.FixtureRequest,
                                     backend: str, last_action: bool) -> None:
    db_url = None
    if backend == "postgresql":
        db_url = await new_pg_database(request.getfixturevalue("pg_server"))
    await crash_and_finish(tmp_path, db_url, last_action)
