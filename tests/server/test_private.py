"""Private tables: the invite code and the owner travel in every `state`, so a client that
reconnects to a filling table can show the invite again (and the owner his start button)."""

from __future__ import annotations

from tests.server.conftest import HallProcess
from tests.server.play import guests, vacate


async def test_state_names_the_code_and_owner_of_a_private_table(hall: HallProcess) -> None:
    async with guests(hall.url, 2) as (owner, friend):
        await owner.send({"type": "private", "room": "ddz3-humans", "bots": True})
        invite = await owner.expect("invite")
        first = await owner.expect("state", table=invite["table"])
        assert (first["phase"], first["code"]) == ("waiting", invite["code"])
        assert first["owner"] == owner.player["id"]  # type: ignore[index]
        await friend.send({"type": "join", "code": invite["code"]})
        seen = await friend.expect("state", table=invite["table"])
        assert (seen["code"], seen["owner"]) == (invite["code"], first["owner"])
        await owner.drop()
        assert (await owner.expect("disconnected"))["reconnecting"] is True
        assert (await owner.expect("welcome"))["tables"] == [invite["table"]]
        again = await owner.expect("state", table=invite["table"])
        assert (again["code"], again["owner"]) == (invite["code"], first["owner"])
        await vacate([owner, friend], invite["table"], "ddz3-humans")


async def test_a_room_table_has_no_code(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-bots")
        state = await solo.expect("state")
        assert state["code"] is None and state["owner"] is None
        await vacate([solo], state["table"], "ddz3-bots")


async def test_leaving_a_filling_private_table_opens_the_seat_only(hall: HallProcess) -> None:
    """A friend who leaves frees his seat; the others keep theirs and the code (nobody is
    sent to the room's public queue); the owner leaving passes the table on; the last
    one out closes it and the code stops working."""
    async with guests(hall.url, 3) as (owner, friend, late):
        await owner.send({"type": "private", "room": "ddz3-humans", "bots": False})
        invite = await owner.expect("invite")
        table, code = invite["table"], invite["code"]
        await owner.expect("state", table=table)
        await friend.send({"type": "join", "code": code})
        await friend.expect("state", table=table)
        await owner.expect("state", table=table)
        await friend.leave(table=table)
        assert (await friend.expect("left"))["table"] == table
        after = await owner.expect("state", table=table)
        assert after["phase"] == "waiting" and after["code"] == code
        assert [p["bot"] for p in after["players"]] == [False, True, True]
        await owner.ping()
        await owner.expect("pong")
        rooms = {r["id"]: r for r in await owner.get("/api/rooms")}
        assert rooms["ddz3-humans"]["waiting"] == 0  # the owner was not put in the queue
        await late.send({"type": "join", "code": code})  # the freed seat is taken again
        seated = await late.expect("state", table=table)
        assert sum(not p["bot"] for p in seated["players"]) == 2
        await owner.leave(table=table)
        await owner.expect("left")
        handed = await late.expect("state", table=table)
        assert handed["owner"] == late.player["id"]  # type: ignore[index]
        await late.leave(table=table)
        await late.expect("left")
        await friend.send({"type": "join", "code": code})
        assert (await friend.expect("error"))["code"] == "unknown_table"
