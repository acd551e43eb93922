"""Friends through a real hall process and real WebSocket clients (issue 22): find, ask,
the pushed ask, accept, each other online at which table, an invite to a private table
joined by its code, and a block that silences the blocked player's asks and invites."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from cardhall.client.hall import HallClient, HttpError
from tests.server.conftest import HallProcess

ROOM = "ddz3-humans"


@asynccontextmanager
async def members(url: str, *names: str) -> AsyncIterator[list[HallClient]]:
    """Registered, connected clients named ``names`` (with a suffix of this test's)."""
    tag = secrets.token_hex(3)
    clients = [HallClient(url, timeout=15) for _ in names]
    try:
        for c, name in zip(clients, names, strict=True):
            await c.register(f"{name}{tag}", "secret password")
            await c.connect()
        yield clients
    finally:
        for c in clients:
            await c.close()


async def until_pong(client: HallClient) -> list[dict[str, Any]]:
    """Every message the client gets before the answer to a ping: what reached it so far
    (one connection's messages are handled, and answered, in order)."""
    await client.ping()
    seen = []
    while (msg := await client.recv())["type"] != "pong":
        seen.append(msg)
    return seen


async def refused(call: Any, status: int, code: str) -> str:
    with pytest.raises(HttpError) as caught:
        await call
    assert (caught.value.status, caught.value.code) == (status, code), caught.value
    return caught.value.message


async def test_friends_find_ask_accept_see_invite_and_block(hall: HallProcess) -> None:
    async with members(hall.url, "Ann", "Ben", "Cat") as (ann, ben, cat):
        assert ann.player and ben.player and cat.player
        a, b = ann.player["id"], ben.player["id"]
        found = await ann.get("/api/friends/find", name=ben.player["name"].upper())
        assert found == {"players": [{"id": b, "name": ben.player["name"],
                                      "title": ben.player["title"]}]}
        assert await ann.post("/api/friends/ask", {"player": b}) == {
            "player": found["players"][0], "state": "asked"}
        pushed = await ben.expect("friend")
        assert (pushed["event"], pushed["player"]["id"]) == ("asked", a)
        assert [p["id"] for p in (await ben.get("/api/friends"))["incoming"]] == [a]
        await ben.post("/api/friends/accept", {"player": a})
        told = await ann.expect("friend")
        assert (told["event"], told["player"]["id"]) == ("accepted", b)

        # Ben sits at a table (his own private one): Ann sees him online there.
        await ben.send({"type": "private", "room": ROOM, "bots": False})
        his = await ben.expect("invite")
        mine = await ann.get("/api/friends")
        assert mine["incoming"] == mine["outgoing"] == []
        [friend] = mine["friends"]
        assert friend == {"id": b, "name": ben.player["name"], "title": ben.player["title"],
                          "online": True, "table": his["table"], "room": ROOM,
                          "private": True}
        [back] = (await ben.get("/api/friends"))["friends"]
        assert (back["id"], back["online"], back["table"]) == (a, True, None)

        # Ann opens her private table and brings Ben: he joins it by its code.
        await ann.send({"type": "private", "room": ROOM, "bots": True})
        invite = await ann.expect("invite")
        await ann.send({"type": "bring", "table": invite["table"], "player": b})
        brought = await ben.expect("brought")
        assert brought == {"type": "brought", "table": invite["table"], "room": ROOM,
                           "code": invite["code"],
                           "by": {"id": a, "name": ann.player["name"],
                                  "title": ann.player["title"]}}
        # The same invite again within a minute: refused, and Ben is not sent it twice.
        await ann.send({"type": "bring", "table": invite["table"], "player": b})
        again = await ann.expect("error")
        assert again["code"] == "rate_limited" and "already" in again["message"], again
        assert not [m for m in await until_pong(ben) if m["type"] == "brought"]
        await ben.send({"type": "join", "code": brought["code"]})
        seated = await ben.expect("state", table=invite["table"])
        assert sorted(p["id"] for p in seated["players"] if p["id"]) == sorted([a, b])
        # Brought again while he sits there: refused.
        await ann.send({"type": "bring", "table": invite["table"], "player": b})
        assert (await ann.expect("error"))["code"] == "not_allowed"
        # Not a friend: refused, nothing sent.
        await ann.send({"type": "bring", "table": invite["table"],
                        "player": cat.player["id"]})
        assert (await ann.expect("error"))["code"] == "not_allowed"
        assert not [m for m in await until_pong(cat) if m["type"] == "brought"]
        await ben.leave(table=invite["table"])
        await ben.expect("left", table=invite["table"])

        # Ben blocks Ann: her asks and invites never reach him, and she cannot tell.
        await ben.post("/api/friends/block", {"player": a})
        assert (await ann.get("/api/friends"))["friends"] == []
        asked = await ann.post("/api/friends/ask", {"player": b})
        assert asked["state"] == "asked"
        assert [p["id"] for p in (await ann.get("/api/friends"))["outgoing"]] == [b]
        await ann.send({"type": "bring", "table": invite["table"], "player": b})
        assert (await ann.expect("error"))["code"] == "not_allowed"  # not friends now
        assert not [m for m in await until_pong(ben) if m["type"] in ("friend", "brought")]
        listed = await ben.get("/api/friends")
        assert listed["incoming"] == [] and [p["id"] for p in listed["blocks"]] == [a]
        await ann.leave(table=invite["table"])


async def test_friends_refuse_guests_strangers_and_floods(hall: HallProcess) -> None:
    async with members(hall.url, "Dee") as (dee,):
        guest = HallClient(hall.url)
        try:
            await guest.guest()
            assert guest.player
            await refused(guest.get("/api/friends"), 403, "forbidden")
            await refused(guest.post("/api/friends/ask", {"player": dee.player["id"]}),  # type: ignore[index]
                          403, "forbidden")
            asked = await refused(dee.post("/api/friends/ask", {"player": guest.player["id"]}),
                                  404, "not_found")  # guests are never found nor asked
            # nor blocked: block answers a guest's id as ask does, as it does nobody's
            blocked = await refused(dee.post("/api/friends/block",
                                             {"player": guest.player["id"]}), 404, "not_found")
            assert blocked == asked
            assert (await dee.get("/api/friends"))["blocks"] == []
            assert (await dee.get("/api/friends/find", name=guest.player["name"])) == {
                "players": []}
        finally:
            await guest.close()
        await refused(dee.post("/api/friends/ask", {"player": "x" * 40}), 400, "malformed")
        await refused(dee.post("/api/friends/ask", {"player": ["a"]}), 400, "malformed")
        nobody = await refused(dee.post("/api/friends/ask", {"player": "nobody1"}),
                               404, "not_found")
        assert await refused(dee.post("/api/friends/block", {"player": "nobody1"}),
                             404, "not_found") == nobody
        # A field the body does not have is refused, not ignored, on every POST.
        for call in ("ask", "accept", "decline", "remove", "block", "unblock"):
            message = await refused(dee.post(f"/api/friends/{call}",
                                             {"player": "nobody1", "note": "hi"}),
                                    400, "malformed")
            assert "unknown field 'note'" in message, message
        await refused(dee.get("/api/friends/find", name="a\x00b"), 400, "malformed")
        await refused(dee.get("/api/friends/find", name="n" * 33), 400, "malformed")
        async with HallClient(hall.url) as nobody:
            await refused(nobody.get("/api/friends"), 401, "not_authenticated")
        for _ in range(20 - 3):  # three searches above, refused ones too, were counted
            await dee.get("/api/friends/find", name="zz")
        message = await refused(dee.get("/api/friends/find", name="zz"), 429, "rate_limited")
        assert "searches" in message
        # Invites: ten a minute, then refused (checked before anything else).
        for _ in range(10):
            await dee.send({"type": "bring", "table": "tnowhere", "player": "p1"})
            assert (await dee.expect("error"))["code"] == "not_allowed"  # not a friend
        await dee.send({"type": "bring", "table": "tnowhere", "player": "p1"})
        assert (await dee.expect("error"))["code"] == "rate_limited"


async def test_a_block_stops_chat_at_a_table(hall: HallProcess) -> None:
    """Blocked at a table both sit at: the blocker does not hear the blocked player's
    quick chat (the others do). (Unblocking is heard at once: test_friends_live.)"""
    async with members(hall.url, "Gil", "Hal", "Ivy") as (gil, hal, ivy):
        assert gil.player and hal.player
        # Four seats: three players leave it filling (a full table would deal, and
        # leaving a game would send the others to the room's queue).
        await gil.send({"type": "private", "room": "ddz4-humans", "bots": False})
        invite = await gil.expect("invite")
        table = invite["table"]
        for c in (hal, ivy):
            await c.send({"type": "join", "code": invite["code"]})
            await c.expect("state", table=table)
        await hal.post("/api/friends/block", {"player": gil.player["id"]})
        await gil.chat(table, "hello")
        assert (await ivy.expect("chat"))["say"] == "hello"
        await ivy.chat(table, "smile")
        # Hal's next line is Ivy's: Gil's never came (the table sends in order).
        assert (await hal.expect("chat"))["say"] == "smile"
        for c in (gil, hal, ivy):
            await c.leave(table=table)
            await c.expect("left", table=table)
