"""A player is seated at most once, whatever races to seat him: the database holds one
``seatings`` row per seated player (the player is its key). Quick match, private tables
(create, invite) and a table rebuilt after a crash all claim their seats there."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable

import pytest
from sqlalchemy import select

from cardhall.hall.domain.errors import Refused
from cardhall.hall.service import Hall
from cardhall.hall.store import seatings
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Seating
from cardhall.protocol.messages import Invite, Join, Leave, Private, State
from cardhall.protocol.peer import TableCall
from tests.hall.test_tables import guest, make_hall, room


async def _rows(db: Database) -> dict[str, str]:
    async with db.read() as s:
        return {str(p): str(t) for p, t in
                (await s.execute(select(Seating.player_id, Seating.table_id))).all()}


async def _tables_of(hall: Hall, player: str) -> list[str]:
    return [t.id for t in hall.lobby.tables.values() if t.seat_of(player) is not None]


async def _outcome(work: Awaitable[None]) -> str:
    try:
        await work
    except Refused as exc:
        return exc.code
    return "ok"


async def test_racing_joins_of_one_player_seat_him_once(db: Database) -> None:
    """Two rooms each with two players waiting; one player joins both (and opens a
    private table) at once, eight times over: he sits at one table, the group he was
    not seated with goes back to its queue."""
    rooms = (room(id="r1", bot_wait_seconds=None), room(id="r2", bot_wait_seconds=None),
             room(id="r3", bot_wait_seconds=None))
    hall, _inbox = await make_hall(db, *rooms)
    try:
        for attempt in range(8):
            waiting = await hall.lobby.queues.waiting()
            for r in ("r1", "r2"):  # two waiting in each room (new players as needed)
                for _ in range(2 - waiting.get(r, 0)):
                    await hall.handle(await guest(hall), Join(type="join", room=r))
            x = await guest(hall)
            outcomes = await asyncio.gather(
                _outcome(hall.handle(x, Join(type="join", room="r1"))),
                _outcome(hall.handle(x, Join(type="join", room="r2"))),
                _outcome(hall.handle(x, Private(type="private", room="r3", bots=True))))
            assert outcomes.count("ok") >= 1, outcomes
            assert set(outcomes) <= {"ok", "not_allowed"}, outcomes
            assert len(await _tables_of(hall, x)) == 1, (attempt, outcomes)
            rows = await _rows(db)
            assert rows[x] in await _tables_of(hall, x)
            for table in hall.lobby.tables.values():  # every seat has its row, no more
                for p in table.humans():
                    assert rows[p] == table.id
            assert len(rows) == sum(len(t.humans()) for t in hall.lobby.tables.values())
            await _vacate(hall, x)
    finally:
        await hall.close()


async def _vacate(hall: Hall, player: str) -> None:
    for table_id in await _tables_of(hall, player):
        await hall.handle(player, Leave(type="leave", table=table_id))


async def test_an_invite_join_is_refused_to_a_player_seated_elsewhere(db: Database) -> None:
    hall, inbox = await make_hall(db, room(id="r1", bot_wait_seconds=None),
                                  room(id="r2", bot_wait_seconds=0.0))
    try:
        owner, x = await guest(hall), await guest(hall)
        await hall.handle(owner, Private(type="private", room="r1", bots=False))
        invite = await inbox.next(owner, Invite)
        await hall.handle(x, Join(type="join", room="r2"))  # bots at once: he plays
        playing = await inbox.next(x, State)
        # Racing his invite join against the game he sits at: refused, never two seats.
        with pytest.raises(Refused) as refused:
            await hall.handle(x, Join(type="join", code=invite.code))
        assert refused.value.code == "not_allowed"
        assert await _tables_of(hall, x) == [playing.table]
        assert (await _rows(db))[x] == playing.table
        # The table's own check is the database's: a sit that slips past the lobby's.
        with pytest.raises(Refused) as sat:
            await hall.lobby.call(TableCall(table=invite.table, kind="sit", player=x,
                                            text="x"))
        assert sat.value.code == "not_allowed"
        assert hall.lobby.table(invite.table).humans() == [owner]
    finally:
        await hall.close()


async def test_seats_left_behind_by_a_dead_process_do_not_block(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=0.0))
    try:
        x = await guest(hall)
        # A table that no process runs and that has no live game: its process died.
        assert await seatings.claim(db, "t-gone", [x], stale=_never) == {}
        await hall.handle(x, Join(type="join", room="r1"))
        state = await inbox.next(x, State)
        assert (await _rows(db))[x] == state.table
        # But a table with a live game (to be adopted) keeps its players.
        assert await seatings.claim(db, "t-other", [x], stale=hall.lobby._gone) == {
            x: state.table}
    finally:
        await hall.close()


async def _never(table_id: str) -> bool:
    return False


async def test_leaving_and_closing_give_the_seat_back(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=0.0))
    try:
        x = await guest(hall)
        await hall.handle(x, Join(type="join", room="r1"))
        state = await inbox.next(x, State)
        assert await _rows(db) == {x: state.table}
        await hall.handle(x, Leave(type="leave", table=state.table))
        assert await _rows(db) == {}
    finally:
        await hall.close()
