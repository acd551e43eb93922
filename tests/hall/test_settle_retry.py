"""A settlement always completes, exactly once, and never holds the table's players.

The database is locked by another connection when a game ends (SQLite: a second
connection in ``BEGIN IMMEDIATE``; PostgreSQL: a transaction holding the players' rows
``FOR UPDATE``, which the settlement must lock): the settlement fails, the table goes
between games, its players leave or press 再来一局, nothing is appended after the end,
the retries back off on the table's scheduler (a test's hand: no sleeps), the process
dies, a new one adopts the table under the same lock, and once the lock goes the game
is settled once, its ledger summing to minus the fees.
"""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Callable
from contextlib import suppress
from typing import Any

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from cardhall.hall.domain.config import Economy, HallConfig, Room
from cardhall.hall.domain.errors import Conflict, Refused
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.table import Table
from cardhall.hall.live.timers import SETTLE_RETRY_FIRST
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database, async_url, upgrade
from cardhall.hall.store.game_reads import get_game
from cardhall.hall.store.game_rows import append_action
from cardhall.hall.store.models import Action, LedgerEntry, Rating, RatingEntry, Score
from cardhall.protocol.messages import (
    Act,
    Join,
    Leave,
    Left,
    Next,
    ServerMessage,
    Settled,
    State,
)
from cardhall.server.refusals import wire_error

LOCK_WAIT_MS = 300  # the hall's writes give up on a held lock after this


class Hand:
    """A scheduler the test fires by hand: what is due, and when it was asked for."""

    def __init__(self) -> None:
        self.due: list[tuple[float, Callable[[], None]]] = []
        self.asked = asyncio.Event()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Hand.Handle:
        entry = (delay, callback)
        self.due.append(entry)
        self.asked.set()
        return Hand.Handle(self, entry)

    class Handle:
        def __init__(self, hand: Hand, entry: tuple[float, Callable[[], None]]) -> None:
            self.hand, self.entry = hand, entry

        def cancel(self) -> None:
            with suppress(ValueError):
                self.hand.due.remove(self.entry)

    async def next_delay(self) -> float:
        """Wait (for an event, not a time) until something is scheduled; its delay."""
        async with asyncio.timeout(20):
            while not self.due:
                self.asked.clear()
                await self.asked.wait()
        return self.due[-1][0]

    def fire(self) -> None:
        due, self.due = self.due, []
        for _, callback in due:
            callback()


class Inbox:
    def __init__(self) -> None:
        self.got: dict[str, list[ServerMessage]] = {}
        self.hook: Callable[[str, ServerMessage], None] | None = None
        self.wake = asyncio.Event()

    def send(self, player: str, message: ServerMessage) -> None:
        self.got.setdefault(player, []).append(message)
        self.wake.set()
        if self.hook is not None:
            self.hook(player, message)

    def closed(self, player: str, table: str) -> None:
        """Nothing is kept of a table here but the messages."""

    def of(self, player: str, kind: type[Any]) -> list[Any]:
        return [m for m in self.got.get(player, []) if isinstance(m, kind)]

    async def until(self, test: Callable[[], bool]) -> None:
        async with asyncio.timeout(30):
            while not test():
                self.wake.clear()
                await self.wake.wait()


ROOM = Room(id="r1", name="test", variant="ddz3", N=10, A=1, min_beans=0, turn_seconds=60.0,
            bot_wait_seconds=None)


async def open_hall(db: Database, hand: Hand) -> tuple[Hall, Inbox]:
    inbox = Inbox()
    config = HallConfig(rooms=(ROOM,), economy=Economy(starting_beans=10_000))
    hall = Hall(config, db, inbox, BotPool(workers=2, processes=False), scheduler=hand)
    await hall.open()
    return hall, inbox


async def to_last_action(hall: Hall, inbox: Inbox, players: list[str]) -> tuple[Table, str, str]:
    """Play seeded legal moves until the acting seat has a move that ends the game;
    returns the table, that seat's player and the move (not sent)."""
    await inbox.until(lambda: any(m.game for m in inbox.of(players[0], State)))
    table = next(iter(hall.lobby.tables.values()))
    rng = random.Random(4)
    async with asyncio.timeout(60):
        while True:
            game = table.game
            assert game is not None and not game.over
            if not game.acting:
                await asyncio.sleep(0)
                continue
            seat = game.acting[0]
            player = table.seats[seat].player
            assert player is not None
            for action in game.legal_actions(seat):
                twin = game.clone()
                twin.apply(action, seat)
                if twin.over:
                    return table, player, game.canonical(action, seat)
            await hall.handle(player, Act(type="act", table=table.id,
                                          action=rng.choice(game.legal_actions(seat)).text,
                                          seq=table.seq))


class Lock:
    """Another connection holding what the settlement needs, until released."""

    def __init__(self, db_url: str) -> None:
        self.url = db_url
        self.sqlite: sqlite3.Connection | None = None
        self.pg: AsyncConnection | None = None
        self.engine: Any = None

    def take_sqlite(self) -> None:
        path = self.url.removeprefix("sqlite:///")
        self.sqlite = sqlite3.connect(path, isolation_level=None)
        self.sqlite.execute("BEGIN IMMEDIATE")

    async def take_pg(self, players: list[str]) -> None:
        self.engine = create_async_engine(async_url(self.url))
        self.pg = await self.engine.connect()
        await self.pg.begin()
        await self.pg.execute(text("SELECT id FROM players WHERE id = ANY(:ids) FOR UPDATE"),
                              {"ids": players})

    async def release(self) -> None:
        if self.sqlite is not None:
            self.sqlite.rollback()
            self.sqlite.close()
            self.sqlite = None
        if self.pg is not None:
            await self.pg.rollback()
            await self.pg.close()
            await self.engine.dispose()
            self.pg = None


async def count(db: Database, model: Any, game_id: str) -> int:
    async with db.read() as s:
        return int(await s.scalar(select(func.count()).select_from(model)
                                  .where(model.game_id == game_id)) or 0)


async def test_a_settlement_under_a_held_lock_is_retried_across_a_restart_and_paid_once(
        db_url: str) -> None:
    await upgrade(db_url)
    sqlite = db_url.startswith("sqlite")
    db = Database.open(db_url, lock_wait_ms=LOCK_WAIT_MS)
    hand = Hand()
    hall, inbox = await open_hall(db, hand)
    lock = Lock(db_url)
    try:
        players = [(await accounts.create_guest(db, hall.config.economy)).player.id
                   for _ in range(3)]
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        table, mover, last = await to_last_action(hall, inbox, players)
        game_id = table.game_id
        assert game_id is not None
        if sqlite:  # the instant the last action is logged and shown: SQLite is locked
            def lock_on_the_end(player: str, message: ServerMessage) -> None:
                if isinstance(message, State) and message.view is not None and \
                        message.view["phase"] == "over" and lock.sqlite is None:
                    lock.take_sqlite()
            inbox.hook = lock_on_the_end
        else:  # the players' rows, which only the settlement locks
            await lock.take_pg(players)
        await hall.handle(mover, Act(type="act", table=table.id, action=last, seq=table.seq))
        # The settlement failed; the table went between games; a retry is due in 0.5 s.
        assert await hand.next_delay() == SETTLE_RETRY_FIRST
        assert table.settling and str(table.phase) == "between"
        assert all(inbox.of(p, Settled) == [] for p in players)
        assert inbox.of(players[0], State)[-1].phase == "between"
        logged = await count(db, Action, game_id)
        # Nobody is held: a leave is taken (and not logged: the game is over) ...
        leaver, other = (p for p in players if p != mover)
        stayer = mover
        await hall.handle(leaver, Leave(type="leave", table=table.id))
        assert inbox.of(leaver, Left)[-1].table == table.id
        # ... an action is refused by the table (code and sentence), 再来一局 is taken.
        with pytest.raises(Refused) as refused:
            await hall.handle(stayer, Act(type="act", table=table.id, action="leave",
                                          seq=table.seq))
        assert refused.value.code == "illegal"
        await hall.handle(other, Next(type="next", table=table.id))
        # The retry fails again: the next one waits twice as long.
        hand.fire()
        hand.due.clear()
        assert await hand.next_delay() == 2 * SETTLE_RETRY_FIRST
        assert await count(db, Action, game_id) == logged
        # The process dies (nothing more of it runs); a new one starts, the lock held.
        await hall.close()
        await db.close()
        db = Database.open(db_url, lock_wait_ms=LOCK_WAIT_MS)
        hand = Hand()
        hall, inbox = await open_hall(db, hand)
        assert game_id == hall.lobby.tables[table.id].game_id  # adopted: its game is over
        assert await hand.next_delay() == SETTLE_RETRY_FIRST  # and its settlement failed
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status == "live"
        await lock.release()
        # The store refuses an action after the end, whatever the table does.
        with pytest.raises(Conflict, match="over"):
            await append_action(db, game_id, logged + 1, "@0 leave", 0)
        hand.fire()
        await inbox.until(lambda: all(inbox.of(p, Settled) for p in players))
        settled = inbox.of(players[0], Settled)[-1]
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status == "settled"
        assert stored.beans == settled.beans
        assert stored.record["actions"][-1] == last and len(stored.record["actions"]) == logged
        async with db.read() as s:
            ledger = int(await s.scalar(select(func.sum(LedgerEntry.delta))
                                        .where(LedgerEntry.game_id == game_id)) or 0)
        assert ledger == sum(settled.beans.values()) == -3 * ROOM.A  # exactly the fees
        assert await count(db, Score, game_id) == 3  # once
        # The skill ratings moved once too: each player's in the variant and overall.
        assert await count(db, RatingEntry, game_id) == 2 * 3
        assert settled.ratings is not None and set(settled.ratings) == {"0", "1", "2"}
        async with db.read() as s:
            games = (await s.execute(select(Rating.games).where(
                Rating.subject.in_(players)))).scalars().all()
        assert sorted(games) == [1] * 6
    finally:
        await lock.release()
        await hall.close()
        await db.close()


async def test_a_log_with_actions_after_the_end_is_adopted_to_its_end(
        db_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Today's bug left ``@0 leave`` after a game's end: the adoption replays up to the
    end, logs what it ignored, and settles the game as played (no escape)."""
    await upgrade(db_url)
    db = Database.open(db_url)
    hand = Hand()
    hall, inbox = await open_hall(db, hand)
    try:
        players = [(await accounts.create_guest(db, hall.config.economy)).player.id
                   for _ in range(3)]
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        table, mover, last = await to_last_action(hall, inbox, players)
        game_id, seq = table.game_id, table.seq
        assert game_id is not None
        seat = table.seat_of(mover)
        await hall.close()
        # What the old code wrote: the end (not marked final), then a leave after it.
        await append_action(db, game_id, seq + 1, last, seat)
        await append_action(db, game_id, seq + 2, "@0 leave", 0)
        caplog.set_level(logging.WARNING, "cardhall.hall")
        hall, inbox = await open_hall(db, hand)
        await inbox.until(lambda: all(inbox.of(p, Settled) for p in players))
        settled = inbox.of(players[0], Settled)[-1]
        assert settled.game == game_id and settled.result["ended"] == "finished"
        assert "1 logged actions after its end ignored" in caplog.text
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status == "settled"
        assert stored.record["actions"][-1] == last
        assert sum(settled.beans.values()) == -3 * ROOM.A
    finally:
        await hall.close()
        await db.close()


def test_errors_for_clients_carry_no_internals() -> None:
    sql = OperationalError("INSERT INTO games (id) VALUES (?)", ("x",),
                           Exception("database is locked"))
    for exc, code in ((sql, "busy"), (RuntimeError("boom at 0x7f"), "internal"),
                      (Conflict("game abc has 5 actions; seq 7 is stale"), "stale")):
        answer = wire_error(exc)
        assert answer.code == code
        assert "INSERT" not in str(answer) and "0x7f" not in str(answer) \
            and "abc" not in str(answer) and str(answer).endswith(("again", "state", "moment"))
