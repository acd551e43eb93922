"""A duplicate event (复式) run by a real hall on a real database: four entrants (two
guests whose seats the test plays with the 托管 policy, two bots) over six deals, each
alone with the hall's bots at the same seat of the same deals; ranked by matchpoints,
its fee and prizes moved once each, its replays closed until it is over, and the same
event surviving a restart mid-way (docs/rulings.md, "Events", duplicate)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from sqlalchemy import func, select

from cardhall import bots
from cardhall.games import new_game
from cardhall.hall.domain.config import EventKind
from cardhall.hall.domain.errors import Forbidden, Refused
from cardhall.hall.domain.ratings import SEAT_BOT
from cardhall.hall.events import duplicate, store
from cardhall.hall.live import botpool
from cardhall.hall.service import Hall
from cardhall.hall.store import ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.models import Event, EventGame, EventTable, Game
from cardhall.protocol.messages import Act, EventState, State, Watch
from tests.hall.test_events import both_entered, event_ledger, make_hall
from tests.hall.test_tables import Inbox, guest

DUP = EventKind(id="dup", format="duplicate", variant="ddz3", entrants=4, deals=6,
                fee=1_000, prizes=(50, 30, 20), bot_wait_seconds=0.0, turn_seconds=30.0,
                bot_seconds=0.0, between_seconds=0.0)


#: A quick turn: a guest away is put on 托管 after 1 s of each deal.
QUICK = DUP.model_copy(update={"turn_seconds": 1.0})


async def play(hall: Hall, inbox: Inbox, players: list[str], seen: list[EventState],
               until: str = "done", deals: int | None = None, table: str = "ev%",
               acted: dict[str, int] | None = None) -> dict[str, EventState]:
    """Each guest answers every turn of his seat with the 托管 policy (the same play for
    the same view) until the event's status is ``until`` (or the entrants have finished
    ``deals`` deals in all); every standings message is kept in ``seen``, the turns
    each answered are counted in ``acted``."""
    last: dict[str, EventState] = {}
    async with asyncio.timeout(240):
        while True:
            if len(last) == len(players) and all(s.status == until for s in last.values()):
                return last
            if deals is not None and await finished_deals(hall.db, table) >= deals:
                return last
            got = False
            for p in players:
                q = inbox.queue(p)
                while not q.empty():
                    got = True
                    msg = q.get_nowait()
                    if isinstance(msg, EventState):
                        last[p] = msg
                        seen.append(msg)
                    elif isinstance(msg, State) and msg.view is not None and \
                            msg.phase == "playing" and msg.seat in msg.view["acting"]:
                        action = bots.make("tuoguan", "ddz3", msg.seat).act(msg.view)
                        try:
                            await hall.handle(p, Act(type="act", table=msg.table,
                                                     action=action, seq=msg.seq))
                            if acted is not None:
                                acted[p] = acted.get(p, 0) + 1
                        except Refused as exc:  # an older state's turn, answered already
                            assert exc.code in ("stale", "not_your_turn"), exc
            if not got:
                await inbox.arrival()


async def finished_deals(db: Database, table: str = "ev%") -> int:
    """Games finished at event tables (``table``: a LIKE pattern)."""
    async with db.read() as s:
        return int(await s.scalar(select(func.count()).select_from(Game).where(
            Game.table_id.like(table), Game.status != "live")) or 0)


async def games_by_entrant(db: Database, event_id: str) -> dict[int, list[Game]]:
    """Each entrant's games, in the order played."""
    async with db.read() as s:
        tables = {t.table_id: t.seats[0] for t in (await s.execute(
            select(EventTable).where(EventTable.event_id == event_id))).scalars()}
        games = (await s.execute(select(Game).where(Game.table_id.in_(list(tables)))
                                 .order_by(Game.started, Game.id))).scalars().all()
    out: dict[int, list[Game]] = {}
    for g in games:
        out.setdefault(tables[g.table_id], []).append(g)
    return out


def plays(game: Game) -> list[str]:
    return [a for a in (game.record or {})["actions"]]


def check_shown(seen: list[EventState], guests: set[int]) -> None:
    """While the event runs, a deal's results are shown only once both guests have
    played it, and no game's id is given (no replay before the end)."""
    for state in seen:
        if state.status != "running" or state.results is None:
            continue
        lines = {line.no: line for line in state.results}
        played = min(lines[no].played for no in guests)
        for line in state.results:
            assert line.games is None
            for d, points in enumerate(line.points):
                assert points is None or d < played, (d, played, state)


async def check_final(db: Database, hall: Hall, event_id: str, players: list[str],
                      last: dict[str, EventState], alike: bool = True) -> None:
    snap = await store.snapshot(db, event_id)
    assert snap is not None and snap.status == store.DONE and snap.seeds is not None
    assert len(set(snap.seeds)) == DUP.deals
    # Every entrant played every deal once: the same seeds in the same order, his seat 0
    # against the bots (the other seats' players are none).
    by_entrant = await games_by_entrant(db, event_id)
    assert sorted(by_entrant) == [0, 1, 2, 3]
    for no, games in by_entrant.items():
        assert [g.record["seed"] for g in games if g.record] == snap.seeds, no
        assert all(g.players[1:] == [None, None] for g in games)
        human = next(e.player for e in snap.entrants if e.no == no)
        assert all(g.players[0] == human for g in games)
    # The same play meets the same answers: the two guests (the same policy) played
    # every deal move for move alike (unless one was away), and so did the two bots.
    guests = sorted(e.no for e in snap.entrants if e.player is not None)
    robots = sorted(e.no for e in snap.entrants if e.player is None)
    for pair in (guests, robots) if alike else (robots,):
        a, b = (by_entrant[n] for n in pair)
        assert [plays(g) for g in a] == [plays(g) for g in b]
        assert [g.result for g in a] == [g.result for g in b]
    # Places by matchpoints, as the pure module ranks the counted deals.
    async with db.read() as s:
        counted = (await s.execute(select(EventGame).where(
            EventGame.event_id == event_id))).scalars().all()
    assert len(counted) == 4 * DUP.deals
    assert sorted((r.deal, next(iter(r.moves))) for r in counted) == sorted(
        (d, str(n)) for d in range(DUP.deals) for n in range(4))
    scores: dict[int, list[int | None]] = {n: [None] * DUP.deals for n in range(4)}
    for r in counted:
        for n, points in r.moves.items():
            assert r.deal is not None
            scores[int(n)][r.deal] = points
    lines = duplicate.results(scores, DUP.deals)
    order = [line.no for line in duplicate.ranked(lines)]
    assert [next(e.place for e in snap.entrants if e.no == n) for n in order] == [1, 2, 3, 4]
    # The last message: every deal's results, and the games for their replays.
    final = last[players[0]]
    assert final.status == "done" and final.format == "duplicate" and final.results
    for line, mine in zip(final.results, lines, strict=True):
        assert line.points == mine.points and line.matchpoints == mine.matchpoints
        assert line.total == mine.total and line.played == DUP.deals
        assert line.games == [g.id for g in by_entrant[line.no]]
    assert sum(line.total for line in final.results) == DUP.deals * 4 * 3
    for g in (g for games in by_entrant.values() for g in games):
        assert not await store.replay_closed(db, g.table_id)
    # The prizes: 50/30/20 % of the 2 000 beans the guests paid, to their places only.
    pool = [1_000, 600, 400]
    paid = 0
    for p in players:
        e = next(x for x in snap.entrants if x.player == p)
        assert e.place is not None
        won = pool[e.place - 1] if e.place <= 3 else 0
        paid += won
        assert e.prize == (won if e.place <= 3 else None)
        assert await ledger.balance(db, p) == 10_000 - 1_000 + won
    assert await event_ledger(db) == {"event_fee": -2_000,
                                      **({"event_prize": paid} if paid else {})}
    # Once: a second finish, or counting again, changes nothing.
    assert not await store.finish(db, event_id)
    assert await store.count_games(db, event_id) == 0
    assert await event_ledger(db) == {"event_fee": -2_000,
                                      **({"event_prize": paid} if paid else {})}


@pytest.mark.slow  # a whole event: ~5 s
async def test_a_duplicate_event_of_four_over_six_deals(db: Database) -> None:
    hall, inbox = await make_hall(db, DUP)
    try:
        players = await both_entered(hall, "dup")
        seen: list[EventState] = []
        # Mid-way: its games are closed to replays, and nobody is shown a deal's results
        # before every person has played it.
        await play(hall, inbox, players, seen, deals=5)
        state = seen[-1]
        assert state.format == "duplicate"
        async with db.read() as s:
            tables = (await s.execute(select(EventTable.table_id).where(
                EventTable.event_id == state.event))).scalars().all()
        assert len(tables) == 4
        for t in tables:
            assert await store.replay_closed(db, t)
        last = await play(hall, inbox, players, seen)
        snap = await store.snapshot(db, state.event)
        assert snap is not None
        guests = {e.no for e in snap.entrants if e.player is not None}
        check_shown(seen, guests)
        await check_final(db, hall, state.event, players, last)
    finally:
        await hall.close()


@pytest.mark.slow  # a whole event: ~5 s
async def test_a_duplicate_event_survives_a_restart_and_an_away_player_comes_back(
        db_url: str) -> None:
    """The hall stops mid-event; the restarted one plays the same deals on. One guest
    stays away meanwhile (托管 plays his seat, after a turn's wait each deal), then
    comes back and plays his last deals himself."""
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, QUICK)
    players = await both_entered(hall, "dup")
    seen: list[EventState] = []
    await play(hall, inbox, players, seen, deals=7)  # some entrants mid-way
    event_id = seen[-1].event
    async with db.read() as s:
        seeds: Any = await s.scalar(select(Event.seeds).where(Event.id == event_id))
    await hall.close()  # the process dies mid-event
    await db.close()

    db = Database.open(db_url)
    try:
        again, inbox = await make_hall(db, QUICK)
        try:
            here, away = players
            again.connected(here)  # the other is away: 托管 plays his deals meanwhile
            snap = await store.snapshot(db, event_id)
            assert snap is not None
            mine = next(e.no for e in snap.entrants if e.player == away)
            his = next(t for t, nos in snap.tables.items() if nos == [mine])
            before = await finished_deals(db, his)
            assert before < DUP.deals - 1
            await play(again, inbox, [here], seen, deals=before + 1, table=his)
            snap = await store.snapshot(db, event_id)
            assert snap is not None and snap.status == store.RUNNING
            again.connected(away)  # back: his seat is his again
            acted: dict[str, int] = {}
            last = await play(again, inbox, players, seen, acted=acted)
            assert acted.get(away, 0) > 0
            snap = await store.snapshot(db, event_id)
            assert snap is not None and snap.seeds == seeds  # the deals chosen once
            await check_final(db, again, event_id, players, last, alike=False)
        finally:
            await again.close()
    finally:
        await db.close()



async def test_a_fixed_deal_takes_nothing_from_the_entrants_beans_or_items(
        db: Database) -> None:
    """欢乐斗地主 reads the seated players' beans (who may double) and 黄金眼 items: a
    duplicate deal is dealt without them, so an entrant with no beans and one with
    plenty (and an item) play the same game."""
    happy = DUP.model_copy(update={"variant": "ddz3_happy", "entrants": 2, "deals": 1,
                                   "fee": 0, "prizes": (100,), "field_": (2,)})
    hall, inbox = await make_hall(db, happy)
    try:
        players = await both_entered(hall, "dup")
        await ledger.buy_golden_eye(db, players[0], hall.config.economy)
        await ledger.admin_adjust(db, players[1], -await ledger.balance(db, players[1]))
        assert await ledger.items(db, players[0]) > 0  # an item, and no beans at all
        seen: list[EventState] = []
        await play(hall, inbox, players, seen)
        by_entrant = await games_by_entrant(db, seen[-1].event)
        records = [g.record for games in by_entrant.values() for g in games]
        assert len(records) == 2 and records[0] is not None and records[1] is not None
        assert records[0]["options"] == records[1]["options"]
        assert records[0]["options"]["balances"] is None
        assert records[0]["options"]["golden_eye"] == 0
        assert records[0]["seed"] == records[1]["seed"]
    finally:
        await hall.close()


def deal_played(seed: int, seat0: Any) -> list[str]:
    """A ddz3 deal played to its end: seat 0 by ``seat0(view)``, the others by the hall's
    bot pool's worker function (``botpool.decide``, its warm bots kept between calls);
    each bot answer is checked against a fresh bot's on the same view."""
    game = new_game("ddz3", seed)
    while not game.over:
        seat = game.acting[0]
        view = game.observe(seat)
        if seat == 0:
            text = seat0(view)
        else:
            text = botpool.decide(SEAT_BOT, "ddz3", seat, seed, view)
            assert text == bots.make(SEAT_BOT, "ddz3", seat, seed).act(view)
        game.apply(text, seat)
    return list(game.actions)


def test_a_pool_bot_answers_from_the_seed_and_its_view_only() -> None:
    """The pool keeps one bot per (bot, variant, seat, seed), so two entrants' tables of
    one deal share it: it must answer from the view alone, not from the other table's
    play it met before (a hall's duplicate event relies on it)."""
    seed = 20261207
    tuoguan = bots.make("tuoguan", "ddz3", 0)
    rng = random.Random(5)
    first = deal_played(seed, tuoguan.act)
    for _ in range(3):  # other play at seat 0 meets the same warm bots
        deal_played(seed, lambda view: rng.choice(view["legal"]) if view["legal"]
                    else tuoguan.act(view))
    assert deal_played(seed, tuoguan.act) == first


async def test_nobody_but_an_admin_watches_a_duplicate_events_table(db: Database) -> None:
    """A 复式 entrant who watched another play a deal before playing it would know every
    hand of it: its tables are closed to watchers (an outside attacker found them open)."""
    hall, inbox = await make_hall(db, DUP)
    try:
        players = await both_entered(hall, "dup")
        first = await inbox.next(players[0], State)
        stranger = await guest(hall)
        for watcher in (players[1], stranger):
            with pytest.raises(Forbidden, match="not watched while it runs"):
                await hall.handle(watcher, Watch(type="watch", table=first.table))
        admin = await guest(hall)
        await hall.handle(admin, Watch(type="watch", table=first.table), admin=True)
        assert (await inbox.next(admin, State)).seat == -1
    finally:
        await hall.close()
