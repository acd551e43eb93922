"""Disconnects are gentle (platform rules §5, ruling 13): a dropped seat plays on 托管 to
the end and is scored as played; nothing turns a drop into a leave; the player who comes
back is told what happened (``away``); between games he does not hold up the others."""

from __future__ import annotations

import asyncio

from sqlalchemy import select

from cardhall.hall.domain.config import Economy, HallConfig, Room
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import get_game
from cardhall.hall.store.models import LedgerEntry
from cardhall.protocol.messages import Away, Join, Left, Next, Queued, Settled, State
from tests.hall.test_settle_retry import ROOM, Hand, Inbox
from tests.hall.test_tables import Inbox as Queues
from tests.hall.test_tables import joined, play_to_end


async def test_a_dropped_seat_plays_on_to_the_end_and_its_player_is_told(
        db: Database) -> None:
    """Ruling 13: no grace that turns into a leave; 托管 plays the seat to the end, the
    game is scored as played (no escape), and the returning player gets ``away``."""
    hand = Hand()
    bots = Room(id="r1", name="bots", variant="ddz3", N=10, A=1, min_beans=0,
                turn_seconds=60.0, bot_wait_seconds=0.0, bot_seconds=0.0)
    inbox = Inbox()
    hall = Hall(HallConfig(rooms=(bots,), economy=Economy(starting_beans=10_000)), db,
                inbox, BotPool(workers=2, processes=False), scheduler=hand, grace_seconds=0.0)
    await hall.open()
    try:
        p = (await accounts.create_guest(db, hall.config.economy)).player.id
        await hall.handle(p, Join(type="join", room="r1"))
        await inbox.until(lambda: bool(inbox.of(p, State)))
        table = next(iter(hall.lobby.tables.values()))
        seat = table.seat_of(p)
        await hall.disconnected(p, 1)  # gone, for good as far as the table knows
        await inbox.until(lambda: bool(inbox.of(p, Settled)))  # played out by 托管
        assert hand.due == []  # no grace timer: nothing would ever make it a leave
        settled = inbox.of(p, Settled)[-1]
        assert settled.result["ended"] == "finished"  # not an escape
        stored = await get_game(db, settled.game)
        assert stored is not None and stored.status == "settled"
        async with db.read() as s:
            reasons = set((await s.execute(select(LedgerEntry.reason).where(
                LedgerEntry.player_id == p, LedgerEntry.game_id == settled.game))).scalars())
        assert reasons <= {"game"}
        # On 托管 at the end: dissolved (§4), once its seats are released after the
        # settlement (the table is told, then leaves the lobby).
        await inbox.until(lambda: table.id not in hall.lobby.tables)
        # He comes back: told what happened while he was away.
        before = len(inbox.got[p])
        hall.connected(p)
        news = inbox.got[p][before:]
        away = next(m for m in news if isinstance(m, Away))
        assert away.table == table.id and away.game == settled.game and away.over
        assert away.turns > 0 and away.settled == settled
        assert away.seat == seat  # the client reads his beans and points by it
        assert any(isinstance(m, Left) and m.reason == "dissolved" for m in news)
        hall.connected(p)
        assert len(inbox.got[p]) == len(news) + before  # told once
    finally:
        await hall.close()


async def between_games(db: Database, hand: Hand) -> tuple[Hall, Queues, list[str], str]:
    """Three players who played a game to its settlement: the hall, its outbox, the
    players, their table (between games)."""
    inbox = Queues()
    hall = Hall(HallConfig(rooms=(ROOM,), economy=Economy(starting_beans=10_000)), db,
                inbox, BotPool(workers=2, processes=False), scheduler=hand)
    await hall.open()
    players = await joined(hall)
    await play_to_end(hall, inbox, players)
    return hall, inbox, players, next(iter(hall.lobby.tables))


async def test_a_player_away_between_games_does_not_hold_up_the_next(db: Database) -> None:
    """After the game one player drops; the two others press 再来一局: he is taken off
    (no penalty: no game runs), they go back to the room's queue, and he hears of it
    (the settlement, the table left) on his return."""
    hand = Hand()
    hall, inbox, players, table = await between_games(db, hand)
    try:
        gone, stay = players[2], players[:2]
        seat = hall.lobby.tables[table].seat_of(gone)
        await hall.disconnected(gone, 1)
        for p in stay:
            await hall.handle(p, Next(type="next", table=table))
        for p in stay:
            await inbox.next(p, Queued)
        assert table not in hall.lobby.tables
        while not inbox.queue(gone).empty():
            inbox.queue(gone).get_nowait()
        hall.connected(gone)
        away = await inbox.next(gone, Away)
        assert away.table == table and away.over and away.turns == 0
        assert away.settled is not None and away.settled.table == table
        assert away.seat == seat
        left = await inbox.next(gone, Left)
        assert left.table == table and left.reason == "away"
    finally:
        await hall.close()


async def test_a_table_with_everyone_away_between_games_closes_after_the_grace(
        db: Database) -> None:
    hand = Hand()
    hall, _, players, table = await between_games(db, hand)
    try:
        for p in players:
            await hall.disconnected(p, 1)
        assert await hand.next_delay() == hall.lobby.grace_seconds
        assert table in hall.lobby.tables  # nothing happens before it
        hand.fire()
        async with asyncio.timeout(20):
            while table in hall.lobby.tables:
                await asyncio.sleep(0)
    finally:
        await hall.close()
