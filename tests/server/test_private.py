"""Private tables: the invite code and the owner travel in every `state`, so a client that
reconnects to a filling table can show the invite again (and the owner his start button)."""

from __future__ import annotations

from tests.server.conftest import HallProcess
from tests.server.play import guests


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
        for c in (owner, friend):
            await c.leave(table=invite["table"])


async def test_a_room_table_has_no_code(hall: HallProcess) -> None:
    async with guests(hall.url, 1) as (solo,):
        await solo.join("ddz3-bots")
        state = await solo.expect("state")
        assert state["code"] is None and state["owner"] is None
        await solo.leave(table=state["table"])
