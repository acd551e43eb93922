"""Helpers for the server tests: guests, seating a table of test clients, playing it out."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from cardhall import bots
from cardhall.client import HallClient
from cardhall.games import VARIANTS, replay

Message = dict[str, Any]


def variant_params() -> list[str]:
    """Every variant, for tests that play each one through the hall."""
    return sorted(VARIANTS)


@asynccontextmanager
async def guests(url: str, n: int, deltas: frozenset[int] = frozenset(),
                 timeout: float = 20.0) -> AsyncIterator[list[HallClient]]:
    """``n`` connected guest clients, closed at the end; those numbered in ``deltas``
    opt into deltas."""
    clients = [HallClient(url, timeout=timeout, deltas=i in deltas) for i in range(n)]
    try:
        for c in clients:
            await c.guest()
            await c.connect()
        yield clients
    finally:
        for c in clients:
            await c.close()


async def seat(clients: list[HallClient], room: str) -> tuple[str, list[Message]]:
    """All ``clients`` join ``room`` and are matched to one table: its id, first states."""
    for c in clients:
        await c.join(room)
    firsts = [await c.expect("state", timeout=20) for c in clients]
    tables = {s["table"] for s in firsts}
    assert len(tables) == 1, f"not seated together: {tables}"
    return tables.pop(), firsts


async def vacate(clients: list[HallClient], table: str, room: str) -> None:
    """Everyone leaves the table and the room's queue, so the next test finds it empty.

    Leaving between games puts the others back in the queue; each leave is followed
    by a ping whose pong proves the server has handled it (one connection's messages
    are handled in order).
    """
    for c in clients:
        await c.leave(table=table)
        await c.ping()
        await c.expect("pong")
    for c in clients:
        await c.leave(room=room)
        await c.ping()
        await c.expect("pong")


def first_legal(view: Message, rng: random.Random) -> str:
    """A random legal action of the view; where the view lists no plays (``plays``
    replaces them in big hands), the 托管 policy's answer, which reads ``plays``."""
    legal = list(view["legal"])
    plays = [a for a in legal if a != "pass"] if view["phase"] == "play" else legal
    if not view["legal_complete"] and not plays:
        return bots.make("tuoguan", view["variant"], view["seat"]).act(view)
    return rng.choice(plays or legal)


@dataclass
class Played:
    settled: Message
    states: list[tuple[int, Message]] = field(default_factory=list)  # (client index, state)
    errors: list[Message] = field(default_factory=list)


async def play_out(clients: list[HallClient], table: str, seed: int = 0,
                   idle: frozenset[int] = frozenset(),
                   choose: Callable[[Message, random.Random], str] = first_legal,
                   timeout: float = 60,
                   tolerate: frozenset[str] = frozenset({"stale"})) -> Played:
    """Every client plays its seat (a random legal action) until the table is settled.

    Clients in ``idle`` never act. ``stale`` answers are expected where seats act
    at once (and whatever else ``tolerate`` names: the client waits for the next
    state); any other error fails. Returns every state each client saw.
    """
    out = Played(settled={})

    async def one(i: int, c: HallClient) -> None:
        rng = random.Random(seed * 31 + i)
        acted: set[int] = set()
        latest = c.states.get(table)
        while True:
            msg = latest if latest is not None else await c.recv(timeout)
            latest = None
            if msg["type"] == "settled" and msg["table"] == table:
                out.settled = msg
                return
            if msg["type"] == "error" and msg["code"] not in tolerate:
                raise AssertionError(f"client {i} was refused: {msg}")
            if msg["type"] != "state" or msg["table"] != table:
                continue
            out.states.append((i, msg))
            view, s = msg["view"], msg["seat"]
            if (i in idle or msg["phase"] != "playing" or view is None or s not in view["acting"]
                    or msg["seq"] in acted):
                continue
            if view["auto"][s]:
                continue  # on 托管: the hall answers for this seat
            acted.add(msg["seq"])
            await c.act(table, choose(view, rng), msg["seq"])

    await asyncio.wait_for(asyncio.gather(*(one(i, c) for i, c in enumerate(clients))),
                           timeout)
    return out


def check_views(record: Message, states: list[tuple[int, Message]]) -> int:
    """Each state's view is exactly replay(first seq actions).observe(seat); how many."""
    checked = 0
    for _, st in states:
        if st["view"] is None or st["seat"] < 0:
            continue
        head = {**record, "actions": record["actions"][: st["seq"]]}
        want = json.loads(json.dumps(replay(head).observe(st["seat"])))
        assert st["view"] == want, f"seq {st['seq']} seat {st['seat']}"
        checked += 1
    return checked


def players(variant: str) -> int:
    return VARIANTS[variant].players
