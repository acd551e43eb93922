"""An ``act`` whose cards read several ways: the ``illegal`` error carries the seat's legal
``readings`` (docs/protocol.md), the table does not move, and one reading sent is taken.

Real ``cardhall serve`` processes with a dealt 癞子 room (tests.games.deals.WILD_LEAD:
the guest is the landlord and leads from the ``plays`` diagram), a real WebSocket
client; once on a hall of one process, once through a process that does not run the
table (the act and its refusal cross Redis).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardhall.client import HallClient
from tests.games.deals import WILD_LEAD
from tests.hall.pg import PostgresServer
from tests.hall.redis_server import RedisServer
from tests.server.cluster import cluster, guest_on, reconnect
from tests.server.conftest import HallProcess, dealt_room, running_hall

ROOM = "laizi-wilds"
ROOMS = dealt_room(ROOM, "ddz3_laizi", WILD_LEAD)


@pytest.fixture(scope="module")
def dealt_hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[HallProcess]:
    yield from running_hall(tmp_path_factory.mktemp("readings"), rooms=ROOMS)


async def my_lead(c: HallClient) -> dict[str, Any]:
    """Join the dealt room and answer every window until seat 0's first lead: its state."""
    await c.join(ROOM)
    answered: set[int] = set()
    while True:
        st = await c.expect("state", timeout=30)
        view = st["view"]
        if view is None or st["seat"] not in view["acting"] or st["seq"] in answered:
            continue
        if view["phase"] == "play":
            return st
        answered.add(st["seq"])
        await c.act(st["table"], view["legal"][0], st["seq"])


async def refused(c: HallClient, table: str, action: str, seq: int,
                  choose: bool = False) -> dict[str, Any]:
    """The error ``action`` gets; a pong after it proves no state came in between."""
    await c.act(table, action, seq, choose=choose)
    error = await c.recv()
    assert error["type"] == "error", error
    await c.ping()
    assert (await c.recv())["type"] == "pong"
    return error


async def readings_then_play(c: HallClient, st: dict[str, Any]) -> None:
    """At the lead ``st``: the refusals and their readings, then one reading played."""
    table, seq, view = st["table"], st["seq"], st["view"]
    assert st["seat"] == 0 and not view["legal_complete"] and "plays" in view

    error = await refused(c, table, "play 3599", seq)
    assert error["code"] == "illegal" and "several readings" in error["message"]
    assert error["readings"] == ["play 399+5=333+5", "play 599+3=555+3"]

    # the game would take 3339 as the soft bomb; asked to, it lets the player choose
    error = await refused(c, table, "play 3339", seq, choose=True)
    assert error["code"] == "illegal"
    assert error["readings"] == ["play 333+9=333+9", "play 3339=3333"]

    # other refusals say nothing of readings: cards not held, not a play
    for action in ("play 4444", "play 35"):
        error = await refused(c, table, action, seq, choose=True)
        assert error["code"] == "illegal" and "readings" not in error
    assert c.states[table]["seq"] == seq  # nothing changed at the table

    await c.act(table, "play 333+9=333+9", seq)
    after = await c.expect("state", where=lambda m: m["seq"] == seq + 1)
    assert after["view"]["last"][0] == "play 333+9=333+9"
    assert len(after["view"]["hand"]) == len(view["hand"]) - 4


async def test_the_refusal_carries_the_readings_and_one_is_taken(
        dealt_hall: HallProcess) -> None:
    c = await guest_on(dealt_hall.url)
    try:
        await readings_then_play(c, await my_lead(c))
    finally:
        await c.close()


async def test_choose_takes_cards_that_read_one_way(dealt_hall: HallProcess) -> None:
    c = await guest_on(dealt_hall.url)
    try:
        st = await my_lead(c)
        await c.act(st["table"], "play 55", st["seq"], choose=True)
        after = await c.expect("state", where=lambda m: m["seq"] == st["seq"] + 1)
        assert after["view"]["last"][0] == "play 55"
    finally:
        await c.close()


async def test_the_readings_cross_processes(
        tmp_path: Path, pg_server: PostgresServer, redis_server: RedisServer) -> None:
    """The table runs on the process the guest joined; he acts through the other one."""
    async with cluster(tmp_path, pg_server, redis_server, rooms=ROOMS) as (p0, p1):
        c = await guest_on(p0.url)
        again: HallClient | None = None
        try:
            st = await my_lead(c)
            again = await reconnect(c, p1.url)
            moved = await again.expect("state", table=st["table"])
            assert moved["seq"] == st["seq"]
            await readings_then_play(again, moved)
        finally:
            await c.close()
            if again is not None:
                await again.close()
