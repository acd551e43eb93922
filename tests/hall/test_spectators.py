"""A private table's owner opens or closes it to spectators (观战) while it lives
(``spectators``): closing sends its watchers but admins away and refuses new ones,
opening lets them in again; nobody else may; and the choice is kept with the live game,
so that a table rebuilt from the log after a restart is as its owner left it."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from cardhall.hall.domain.errors import Forbidden, NotAllowed, NotSeated
from cardhall.hall.service import Hall
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Game
from cardhall.protocol.messages import (
    Invite,
    Join,
    Left,
    Private,
    Spectators,
    Start,
    State,
    Watch,
)
from tests.hall.test_tables import Inbox, guest, make_hall, play_to_end, room

PRIVATE = room(id="friends", bot_wait_seconds=None)


def _toggle(table: str, on: bool) -> Spectators:
    return Spectators(type="spectators", table=table, on=on)


def _watch(table: str) -> Watch:
    return Watch(type="watch", table=table)


async def _opened(hall: Hall, inbox: Inbox, owner: str) -> str:
    await hall.handle(owner, Private(type="private", room="friends"))
    return str((await inbox.next(owner, Invite)).table)


async def _told(inbox: Inbox, player: str, spectators: bool) -> State:
    """The player's next ``state`` that says ``spectators`` as given."""
    while True:
        state: State = await inbox.next(player, State)
        if state.spectators is spectators:
            return state


async def test_the_owner_closes_his_table_and_opens_it_again(db: Database) -> None:
    hall, inbox = await make_hall(db, PRIVATE)
    try:
        owner, watcher, late, admin = [await guest(hall) for _ in range(4)]
        table_id = await _opened(hall, inbox, owner)
        table = hall.lobby.table(table_id)
        assert (await inbox.next(owner, State)).spectators is True
        await hall.handle(watcher, _watch(table_id))
        assert (await inbox.next(watcher, State)).seat == -1
        await hall.handle(admin, _watch(table_id), admin=True)
        await inbox.next(admin, State)

        await hall.handle(owner, _toggle(table_id, False))
        left = await inbox.next(watcher, Left)
        assert (left.table, left.reason) == (table_id, "closed_to_spectators")
        assert table.watchers == {admin}, "an admin may watch any table: he stays"
        assert (await _told(inbox, owner, False)).watchers == 1
        with pytest.raises(Forbidden, match="closed to spectators"):
            await hall.handle(late, _watch(table_id))
        with pytest.raises(Forbidden):
            await hall.handle(watcher, _watch(table_id))

        await hall.handle(owner, _toggle(table_id, True))
        await _told(inbox, owner, True)
        await hall.handle(late, _watch(table_id))
        assert (await inbox.next(late, State)).spectators is True
        assert table.watchers == {admin, late}
    finally:
        await hall.close()


async def test_a_watcher_sent_away_may_watch_other_tables(db: Database) -> None:
    """A table that sent its watcher away no longer counts against his ``per_player``
    bound (3 tables)."""
    hall, inbox = await make_hall(db, PRIVATE)
    try:
        owners = [await guest(hall) for _ in range(4)]
        watcher = await guest(hall)
        tables = [await _opened(hall, inbox, o) for o in owners]
        for t in tables[:3]:
            await hall.handle(watcher, _watch(t))
        with pytest.raises(NotAllowed, match="3 tables"):
            await hall.handle(watcher, _watch(tables[3]))
        await hall.handle(owners[0], _toggle(tables[0], False))
        await inbox.next(watcher, Left)
        await hall.handle(watcher, _watch(tables[3]))
        assert watcher in hall.lobby.table(tables[3]).watchers
    finally:
        await hall.close()


async def test_only_the_owner_of_a_private_table_may(db: Database) -> None:
    hall, inbox = await make_hall(db, PRIVATE, room(id="r1"))
    try:
        owner, friend, stranger = [await guest(hall) for _ in range(3)]
        table_id = await _opened(hall, inbox, owner)
        code = hall.lobby.table(table_id).code
        assert code is not None
        await hall.handle(friend, Join(type="join", code=code))
        with pytest.raises(Forbidden, match="only the table's owner"):
            await hall.handle(friend, _toggle(table_id, False))
        with pytest.raises(NotSeated):
            await hall.handle(stranger, _toggle(table_id, False))
        assert hall.lobby.table(table_id).spectators is True
        # a room's table has no owner: nobody closes it
        players = [await guest(hall) for _ in range(3)]
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        room_table = (await inbox.next(players[0], State)).table
        with pytest.raises(NotAllowed, match="private table's owner"):
            await hall.handle(players[0], _toggle(room_table, False))
    finally:
        await hall.close()


async def _spectators_stored(db: Database, game_id: str | None) -> bool | None:
    async with db.read() as s:
        return await s.scalar(select(Game.spectators).where(Game.id == game_id))


async def test_the_choice_survives_a_restart(db_url: str) -> None:
    """Closed mid-game, the table rebuilt from the log is closed, with its owner; opened
    again there, the next rebuild is open."""
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, PRIVATE)
    players = [await guest(hall) for _ in range(3)]
    stranger = await guest(hall)
    table_id = await _opened(hall, inbox, players[0])
    code = hall.lobby.table(table_id).code
    assert code is not None
    for p in players[1:]:
        await hall.handle(p, Join(type="join", code=code))
    await play_to_end(hall, inbox, players, stop_after=2)
    await hall.handle(players[0], _toggle(table_id, False))
    assert await _spectators_stored(db, hall.lobby.table(table_id).game_id) is False
    await hall.close()  # the process dies mid-game
    await db.close()

    for closed in (True, False):
        db = Database.open(db_url)
        try:
            hall, inbox = await make_hall(db, PRIVATE)
            table = hall.lobby.table(table_id)
            assert (table.owner, table.spectators) == (players[0], not closed)
            for p in players:
                hall.connected(p)
            if closed:
                with pytest.raises(Forbidden, match="closed to spectators"):
                    await hall.handle(stranger, _watch(table_id))
                await hall.handle(players[0], _toggle(table_id, True))  # still his
                assert await _spectators_stored(db, table.game_id) is True
            else:
                await hall.handle(stranger, _watch(table_id))
                assert (await inbox.next(stranger, State)).spectators is True
            await hall.close()
        finally:
            await db.close()


async def test_closed_while_filling_the_game_is_recorded_closed(db: Database) -> None:
    """Between games (or before the first) there is no live game to store it with: the
    next game's row takes the table's setting, and its owner."""
    hall, inbox = await make_hall(db, PRIVATE)
    try:
        owner = await guest(hall)
        await hall.handle(owner, Private(type="private", room="friends", bots=True))
        table_id = str((await inbox.next(owner, Invite)).table)
        await hall.handle(owner, _toggle(table_id, False))
        await hall.handle(owner, Start(type="start", table=table_id))
        game_id = hall.lobby.table(table_id).game_id
        async with db.read() as s:
            row = (await s.execute(select(Game.owner, Game.spectators)
                                   .where(Game.id == game_id))).one()
        assert tuple(row) == (owner, False)
    finally:
        await hall.close()


async def test_watches_handed_over_keep_the_per_player_bound(db: Database) -> None:
    """Watches handed over by another process (a reconnect there) are taken only up to
    ``watching.per_player`` (3), counting those made here meanwhile; the rest stop."""
    hall, _ = await make_hall(db, PRIVATE)
    try:
        player = await guest(hall)
        hall.watching[player] = {"ta", "tb"}  # watched here since he came back
        await hall.take_watches(player, ["tb", "tc", "td", "te"], ready=False)
        assert hall.watching[player] == {"ta", "tb", "tc"}
    finally:
        await hall.close()
