"""Events (比赛场) run by a real hall on a real database: a six-entrant knockout played
to its end by guests (on 托管) and bots, its fees and prizes moved once each through
the ledger, and the same event surviving a restart mid-round (docs/rulings.md,
"Events")."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select

from cardhall.hall.domain.config import Economy, EventKind, HallConfig
from cardhall.hall.domain.errors import NotAllowed, NotEnoughBeans, NotSeated, Refused
from cardhall.hall.events import store
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import EventGame, Game, LedgerEntry
from cardhall.protocol.messages import (
    Act,
    Enter,
    EventState,
    Join,
    Leave,
    Settled,
    State,
    Withdraw,
)
from tests.hall.test_tables import Inbox, guest, room

KO = EventKind(id="ko", variant="ddz3", entrants=6, fee=1_000, prizes=(60, 30, 10),
               chips=1_000, deals=2, bot_wait_seconds=0.0, turn_seconds=5.0,
               bot_seconds=0.0, between_seconds=0.0)
#: Never fills with bots: entries and withdrawals are looked at while it stays open.
WAITING = KO.model_copy(update={"id": "slow", "bot_wait_seconds": None})


async def make_hall(db: Database, *kinds: EventKind) -> tuple[Hall, Inbox]:
    inbox = Inbox()
    config = HallConfig(rooms=(room(),), economy=Economy(starting_beans=10_000),
                        events=kinds or (KO,))
    hall = Hall(config, db, inbox, BotPool(workers=2, processes=False))
    hall.events.poll = 0.05
    await hall.open()
    return hall, inbox


async def both_entered(hall: Hall, kind: str = "ko") -> list[str]:
    """Two guests in one event of ``kind``: its loop (which fills with bots at once)
    waits for both."""
    await hall.events.close()
    players = [await guest(hall) for _ in range(2)]
    for p in players:
        await hall.handle(p, Enter(type="enter", kind=kind))
    hall.events.start()
    return players


async def on_tuoguan(hall: Hall, inbox: Inbox, players: list[str],
                     until: str = "done") -> dict[str, EventState]:
    """Each guest puts his seat on 托管 at every game it is dealt; returns each one's
    last standings once the event's status is ``until``."""
    last: dict[str, EventState] = {}
    async with asyncio.timeout(180):
        while not last or any(s.status != until for s in last.values()) or \
                len(last) < len(players):
            got = False
            for p in players:
                q = inbox.queue(p)
                while not q.empty():
                    got = True
                    msg = q.get_nowait()
                    if isinstance(msg, EventState):
                        last[p] = msg
                    elif isinstance(msg, State) and msg.phase == "playing" and \
                            msg.seat >= 0 and not msg.players[msg.seat].auto:
                        try:
                            await hall.handle(p, Act(type="act", table=msg.table,
                                                     action="auto on", seq=msg.seq))
                        except Refused:  # on 托管 already, or the game is over
                            continue
            if not got:
                await inbox.arrival()
    return last


async def event_ledger(db: Database) -> dict[str, int]:
    async with db.read() as s:
        rows = await s.execute(select(LedgerEntry.reason, func.sum(LedgerEntry.delta))
                               .where(LedgerEntry.reason.like("event_%"))
                               .group_by(LedgerEntry.reason))
        return {str(r): int(x) for r, x in rows.all()}


def check_final(snap: store.Snapshot) -> None:
    """Places 1..6 once each, chips conserved, the last table ranked by chips."""
    assert snap.status == store.DONE
    assert sorted(e.place for e in snap.entrants if e.place is not None) == list(range(1, 7))
    assert sum(e.chips for e in snap.entrants) == 6 * KO.chips
    final = sorted((e for e in snap.entrants if e.place is not None and e.place <= 3),
                   key=lambda e: e.place or 0)
    assert [e.chips for e in final] == sorted((e.chips for e in final), reverse=True)
    out = [e for e in snap.entrants if e.out_round == 0]
    assert len(out) == 3 and all((e.place or 0) > 3 for e in out)


async def test_a_six_entrant_knockout_runs_to_the_end_and_pays_once(db: Database) -> None:
    hall, inbox = await make_hall(db)
    try:
        players = await both_entered(hall)
        first = await inbox.next(players[0], State)
        running = await store.entered_in(db, players[0])
        assert running is not None
        with pytest.raises(NotAllowed):  # started: no refund any more
            await hall.handle(players[0], Withdraw(type="withdraw", event=running))
        assert await ledger.balance(db, players[0]) == 9_000
        with pytest.raises(NotAllowed):  # an event's table is not left: 托管 plays on
            await hall.handle(players[0], Leave(type="leave", table=first.table))
        assert hall.lobby.table(first.table).seat_of(players[0]) is not None
        last = await on_tuoguan(hall, inbox, players)
        event_id = last[players[0]].event
        snap = await store.snapshot(db, event_id)
        assert snap is not None
        check_final(snap)
        pool = [1_200, 600, 200]  # 60/30/10 % of the 2 000 beans the two guests paid
        for p in players:
            e = next(x for x in snap.entrants if x.player == p)
            won = pool[e.place - 1] if e.place is not None and e.place <= 3 else 0
            assert e.prize == (won if e.place is not None and e.place <= 3 else None)
            assert await ledger.balance(db, p) == 10_000 - 1_000 + won
        paid = sum(e.prize or 0 for e in snap.entrants)
        assert await event_ledger(db) == {"event_fee": -2_000,
                                          **({"event_prize": paid} if paid else {})}
        # Every finished game of its tables counted once: 2 tables × 2 deals, then 1 × 2.
        async with db.read() as s:
            counted = await s.scalar(select(func.count()).select_from(EventGame))
            games = await s.scalar(select(func.count()).select_from(Game)
                                   .where(Game.table_id.like(f"e{event_id}-%")))
        assert counted == games and games is not None and games >= 6
        # Once: a second finish, or counting again, changes nothing.
        assert not await store.finish(db, event_id)
        assert await store.count_games(db, event_id) == 0
        assert await ledger.balance(db, players[0]) == 10_000 - 1_000 + (
            pool[(next(x for x in snap.entrants if x.player == players[0]).place or 9) - 1]
            if (next(x for x in snap.entrants if x.player == players[0]).place or 9) <= 3
            else 0)
        assert {s.status for s in last.values()} == {"done"}
    finally:
        await hall.close()


async def test_entry_is_paid_and_a_withdrawal_refunded_once(db: Database) -> None:
    hall, inbox = await make_hall(db, WAITING)
    try:
        a, b = await guest(hall), await guest(hall)
        await hall.handle(a, Enter(type="enter", kind="slow"))
        state = await inbox.next(a, EventState)
        assert state.status == "open" and [e.name for e in state.entrants] != []
        assert await ledger.balance(db, a) == 9_000
        with pytest.raises(NotAllowed):  # one event at a time, paid once
            await hall.handle(a, Enter(type="enter", kind="slow"))
        with pytest.raises(NotAllowed):  # and no quick match meanwhile
            await hall.handle(a, Join(type="join", room="r1"))
        await hall.handle(a, Withdraw(type="withdraw", event=state.event))
        assert await ledger.balance(db, a) == 10_000
        with pytest.raises(NotSeated):  # a second withdrawal refunds nothing
            await hall.handle(a, Withdraw(type="withdraw", event=state.event))
        assert await ledger.balance(db, a) == 10_000
        assert (await inbox.next(a, EventState)).entrants == []  # told: off the list
        with pytest.raises(NotAllowed):  # no enter-withdraw loop: one entry an event
            await hall.handle(a, Enter(type="enter", kind="slow"))
        assert await ledger.balance(db, a) == 10_000
        c = await guest(hall)  # enter with all he has, claim relief, withdraw: refused
        await ledger.admin_adjust(db, c, -9_000)
        await hall.handle(c, Enter(type="enter", kind="slow"))
        assert await ledger.balance(db, c) == 0
        with pytest.raises(ledger.ReliefRefused):  # the fee is his to take back
            await ledger.grant_relief(db, c, hall.config.economy)
        await hall.handle(c, Withdraw(type="withdraw", event=state.event))
        assert await ledger.balance(db, c) == 1_000
        await ledger.admin_adjust(db, b, -9_500)
        with pytest.raises(NotEnoughBeans):
            await hall.handle(b, Enter(type="enter", kind="slow"))
        assert await ledger.balance(db, b) == 500
        assert await event_ledger(db) == {"event_fee": -2_000, "event_refund": 2_000}
        with pytest.raises(Exception, match="no event"):
            await hall.handle(a, Enter(type="enter", kind="nope"))
    finally:
        await hall.close()


async def test_a_knockout_survives_a_restart_mid_round(db_url: str) -> None:
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db)
    players = await both_entered(hall)
    # Play until the first game of round 1 has settled at either person's table (he is
    # told once it is committed), then stop the hall.
    state = await inbox.next(players[0], EventState)
    settled = False
    async with asyncio.timeout(120):
        while not settled:
            await inbox.arrival()
            for p in players:
                queue = inbox.queue(p)
                while not queue.empty():
                    settled |= isinstance(queue.get_nowait(), Settled)
    await hall.close()  # the process dies mid-round
    await db.close()

    db = Database.open(db_url)
    try:
        again, inbox = await make_hall(db)
        try:
            for p in players:
                again.connected(p)
            await on_tuoguan(again, inbox, players)
            snap = await store.snapshot(db, state.event)
            assert snap is not None
            check_final(snap)
            paid = sum(e.prize or 0 for e in snap.entrants)
            ledger_sum = await event_ledger(db)
            assert ledger_sum.get("event_fee") == -2_000
            assert ledger_sum.get("event_prize", 0) == paid
            assert sum(ledger_sum.values()) == paid - 2_000
        finally:
            await again.close()
    finally:
        await db.close()

