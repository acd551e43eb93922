"""Challenges and the ladder in a real hall on a real database (docs/rulings.md,
"Challenges and the ladder"): a registered player against an anchor over three deals,
his seat rotating deal by deal on the same deals as the anchor's; the match's outcome
by matchpoints and the ladder's ratings moved once, the anchor's never; an anchor
against an anchor; the refusals; the continuous ladder's round with its pairing."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import select

from cardhall import bots
from cardhall.hall.domain.config import Economy, HallConfig, Ladder
from cardhall.hall.domain.errors import HallError, Refused
from cardhall.hall.domain.ratings import bot_subject
from cardhall.hall.events import challenge, duplicate, ladder, store
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.service import Hall
from cardhall.hall.store import accounts
from cardhall.hall.store import bots as bot_accounts
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Game, LadderMatch, Player, Rating
from cardhall.protocol.messages import Act, EventState, State
from tests.hall.test_event_duplicate import games_by_entrant
from tests.hall.test_tables import Inbox, guest, room

LADDER = Ladder(turn_seconds=30.0, bot_seconds=0.0, between_seconds=0.0)


async def make_hall(db: Database, ladder_config: Ladder = LADDER) -> tuple[Hall, Inbox]:
    inbox = Inbox()
    config = HallConfig(rooms=(room(),), economy=Economy(starting_beans=10_000),
                        ladder=ladder_config)
    hall = Hall(config, db, inbox, BotPool(workers=2, processes=False))
    hall.events.poll = 0.05
    await hall.open()
    return hall, inbox


async def member(hall: Hall, name: str) -> Player:
    """A ladder competitor: a bot account (of an owner of its own)."""
    owner = await accounts.register(hall.db, f"{name}Owner", "secret-1", hall.config.economy)
    login = await bot_accounts.create(hall.db, owner.player, name, hall.config.economy, most=5)
    return login.player


async def play(hall: Hall, inbox: Inbox, player: str, event_id: str,
               seats: list[int] | None = None) -> EventState:
    """The player answers every turn of his seat with the 托管 policy until his match is
    done; the seat he was dealt each game is kept in ``seats``."""
    async with asyncio.timeout(240):
        games: set[str] = set()
        while True:
            q = inbox.queue(player)
            while not q.empty():
                msg = q.get_nowait()
                if isinstance(msg, EventState) and msg.event == event_id and \
                        msg.status == "done":
                    return msg
                if isinstance(msg, State) and msg.view is not None and \
                        msg.phase == "playing":
                    if msg.game not in games and seats is not None:
                        games.add(str(msg.game))
                        seats.append(msg.seat)
                    if msg.seat in msg.view["acting"]:
                        action = bots.make("tuoguan", "ddz3", msg.seat).act(msg.view)
                        try:
                            await hall.handle(player, Act(type="act", table=msg.table,
                                                          action=action, seq=msg.seq))
                        except Refused as exc:  # an older state's turn
                            assert exc.code in ("stale", "not_your_turn"), exc
            await inbox.arrival()


async def done(hall: Hall, event_id: str) -> store.Snapshot:
    async with asyncio.timeout(240):
        while True:
            snap = await store.snapshot(hall.db, event_id)
            assert snap is not None
            if snap.status == store.DONE:
                return snap
            await asyncio.sleep(0.05)


async def ratings(db: Database, variant: str) -> dict[str, Rating]:
    async with db.read() as s:
        return {r.subject: r for r in (await s.execute(select(Rating).where(
            Rating.variant == challenge.ladder_key(variant)))).scalars()}


async def test_a_player_against_an_anchor_rotates_seats_on_the_same_deals(
        db: Database) -> None:
    hall, inbox = await make_hall(db)
    try:
        me = await member(hall, "Alice")
        event_id = await hall.challenges.challenge(me, "planning", "ddz3", 3)
        seats: list[int] = []
        final = await play(hall, inbox, me.id, event_id, seats)
        assert seats == [0, 1, 2]  # deal i at seat i mod 3
        snap = await done(hall, event_id)
        assert snap.seeds is not None and len(snap.seeds) == 3
        by_entrant = await games_by_entrant(db, event_id)
        for no, games in by_entrant.items():  # the same deals, in order, each at seat d
            assert [g.record["seed"] for g in games if g.record] == snap.seeds, no
            for d, g in enumerate(games):
                assert [p is not None for p in g.players] == \
                    [no == 0 and s == d for s in range(3)], (no, d, g.players)
        # Each entrant's points are his seat's, and the outcome is by matchpoints.
        assert final.results is not None
        scores = {}
        for no, games in by_entrant.items():
            scores[no] = [int(g.result["points"][d]) for d, g in enumerate(games)
                          if g.result is not None]
        lines = duplicate.results(scores, 3)
        assert [(x.points, x.matchpoints) for x in final.results] == \
            [(x.points, x.matchpoints) for x in lines]
        first = challenge.score(lines)
        async with db.read() as s:
            row = await s.get(LadderMatch, event_id)
        assert row is not None and row.score == first and row.a == me.id
        assert row.b == bot_subject("planning") and row.b_before == row.b_after
        # The player's ladder rating moved (once); the anchor's has no row at all.
        moved = await ratings(db, "ddz3")
        assert set(moved) == {me.id} and moved[me.id].games == 1
        assert (row.a_after > row.a_before) == (first == 1.0) or first == 0.5
        # A second finish (a retry, a restart) moves nothing.
        assert not await store.finish(db, event_id, anchors=LADDER.anchors)
        assert (await ratings(db, "ddz3"))[me.id].games == 1
        # The variant's ladder: the player and both anchors, the match with its games.
        lines_, matches = await ladder.board(db, "ddz3", LADDER.anchors)
        assert {x.subject for x in lines_} == {me.id, "bot:planning", "bot:search"}
        assert matches[0]["challenge"] == event_id
        assert all(matches[0][side]["games"][d] for side in "ab" for d in range(3))
    finally:
        await hall.close()


async def test_an_anchor_against_an_anchor_in_a_five_seat_game(db: Database) -> None:
    hall, _ = await make_hall(db)
    try:
        event_id = await hall.challenges.start("baohuang", 2, (None, "search", "search"),
                                               (None, "planning", "planning"))
        snap = await done(hall, event_id)
        assert snap.deals is not None and all(p is not None for line in snap.deals.values()
                                              for p, _ in line)
        assert await ratings(db, "baohuang") == {}  # anchors never move
        async with db.read() as s:
            assert (await s.get(LadderMatch, event_id)) is not None
            seats = [[p is None for p in g.players] for g in (await s.execute(
                select(Game).where(Game.table_id.like(f"e{event_id}-%")))).scalars()]
        assert all(len(x) == 5 for x in seats)
    finally:
        await hall.close()


async def test_challenges_are_refused_with_their_codes(db: Database) -> None:
    hall, _ = await make_hall(db, LADDER.model_copy(update={"per_hour": 6}))
    try:
        me, bob, carol = [await member(hall, n) for n in ("Alice", "Bob", "Carol")]
        visitor = await accounts.get_player(db, await guest(hall))

        async def code(who: Player, opponent: str, variant: str = "ddz3",
                       deals: int = 4) -> str:
            with pytest.raises(HallError) as got:
                await hall.challenges.challenge(who, opponent, variant, deals)
            return got.value.code

        assert await code(visitor, "planning") == "forbidden"
        assert await code(me, "planning", variant="chess") == "bad_request"
        assert await code(me, "planning", deals=1) == "bad_request"
        assert await code(me, "planning", deals=41) == "bad_request"
        assert await code(me, "Nobody") == "not_found"
        assert await code(me, visitor.name) == "not_found"  # a guest is nobody's opponent
        assert await code(me, "Bob") == "unavailable"  # not in the ladder
        await ladder.set_opt_in(db, bob.id, True)
        assert await code(me, "Bob") == "unavailable"  # not online
        hall.coord.present = lambda players: _present(players, {bob.id})  # type: ignore
        event_id = await hall.challenges.challenge(carol, "Bob", "ddz3", 2)
        assert await code(me, "Bob") == "not_allowed"  # playing his match
        assert await code(me, "Alice") == "bad_request"  # himself
        assert await code(carol, "planning") == "not_allowed"  # one match at a time
        assert await code(me, "planning") == "rate_limited"  # his seventh try this hour
        assert event_id
    finally:
        await hall.close()


async def _present(players: list[str], online: set[str]) -> set[str]:
    return {p for p in players if p in online}


async def test_a_ladder_round_pairs_the_free_competitors_online(db: Database) -> None:
    hall, _ = await make_hall(db)
    try:
        people = [await member(hall, n) for n in ("Ann", "Ben", "Cat", "Dan", "Eve")]
        for p in people[:4]:
            await ladder.set_opt_in(db, p.id, True)
        away = people[3].id  # opted in, but not online
        online = {p.id for p in people} - {away}
        hall.coord.present = lambda players: _present(players, online)  # type: ignore
        started = await hall.challenges.round(random.Random(1))
        assert len(started) == 2  # three free: a pair, and the odd one against an anchor
        snaps = [await store.snapshot(db, e) for e in started]
        entrants = [[e.player or e.name for e in s.entrants] for s in snaps if s]
        flat = [x for pair in entrants for x in pair]
        assert sorted(x for x in flat if x in online) == sorted(p.id for p in people[:3])
        assert "planning" in flat  # round 0's anchor
        assert all(s is not None and s.kind.variant == challenge.ORDER[0] for s in snaps)
        # The next round: everyone is still playing his match, nobody is paired.
        assert await hall.challenges.round(random.Random(2)) == []
    finally:
        await hall.close()


async def test_the_ladder_runs_its_rounds_on_its_own(db: Database) -> None:
    hall, _ = await make_hall(db, LADDER.model_copy(update={"interval_seconds": 0.05}))
    try:
        me = await member(hall, "Solo")
        hall.coord.present = lambda players: _present(players, {me.id})  # type: ignore
        await ladder.set_opt_in(db, me.id, True)
        async with asyncio.timeout(30):
            while (match := await ladder.live_challenge(db, me.id)) is None:
                await asyncio.sleep(0.05)
        snap = await store.snapshot(db, match)
        assert snap is not None and snap.entrants[0].name == "Solo"
        assert snap.entrants[1].name in LADDER.anchors and snap.entrants[1].player is None
        assert snap.kind.deals == LADDER.deals
    finally:
        await hall.close()


def spy(hall: Hall) -> list[str]:
    """The bots the hall's tables ask to decide, in order."""
    asked: list[str] = []
    decide = hall.bots.decide

    async def recorded(name: str, *args: Any) -> str:
        asked.append(name)
        return await decide(name, *args)

    hall.bots.decide = recorded  # type: ignore[method-assign]
    return asked


async def test_an_anchor_plays_its_own_seat_again_after_a_restart(db_url: str) -> None:
    """The hall stops mid-deal at the anchor's table; the restarted one rebuilds the
    table from its log and seats the anchor (search) again, not the house bot."""
    slow = LADDER.model_copy(update={"bot_seconds": 0.2})
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, _ = await make_hall(db, slow)
    asked = spy(hall)
    event_id = await hall.challenges.start("ddz3", 2, (None, "search", "search"),
                                           (None, "planning", "planning"))
    table = store.table_id(event_id, 0, 0)  # the anchor search's (entrant 0)
    async with asyncio.timeout(60):
        while "search" not in asked:
            await asyncio.sleep(0.05)
    assert table in hall.lobby.tables and hall.lobby.tables[table].game is not None
    await hall.close()  # mid-deal: the anchor's game is live in the log
    await db.close()

    db = Database.open(db_url)
    try:
        again, _ = await make_hall(db, slow)
        try:
            asked = spy(again)
            async with asyncio.timeout(60):
                while table not in again.lobby.tables:
                    await asyncio.sleep(0.05)
            seats = again.lobby.tables[table].seats
            assert [s.brain for s in seats] == ["search", None, None]
            snap = await done(again, event_id)
            assert "search" in asked
            assert snap.deals is not None and all(
                p is not None for line in snap.deals.values() for p, _ in line)
        finally:
            await again.close()
    finally:
        await db.close()
