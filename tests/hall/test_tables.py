"""The hall's runtime in one process, on a real database: matchmaking, tables, timers,
托管, leaving, settlement and rebuilding live tables after a crash.

The server layer is tested through real sockets in tests/server; here the hall is
driven through its own entry point (``Hall.handle``) with an outbox that hands each
player's messages to the test as they are sent.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select

from cardhall import bots
from cardhall.games import replay
from cardhall.hall.domain.config import Economy, HallConfig, Room
from cardhall.hall.domain.errors import Refused
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.commands import Resume
from cardhall.hall.live.seats import Seat
from cardhall.hall.live.table import QUEUE_LIMIT, Table
from cardhall.hall.service import ADOPT_AT_ONCE, Hall
from cardhall.hall.store import accounts, ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.game_reads import get_game
from cardhall.hall.store.game_rows import append_action
from cardhall.hall.store.models import Game, RatingEntry
from cardhall.hall.store.ratings import ratings_of
from cardhall.protocol.messages import (
    Act,
    Join,
    Leave,
    Next,
    ServerMessage,
    Settled,
    State,
)
from cardhall.protocol.peer import TableCall
from tests.games.test_resolve import counting

WAIT = 20.0  # seconds a test waits for a message before failing


class Inbox:
    """An Outbox that queues each player's messages for the test to await."""

    def __init__(self) -> None:
        self.queues: dict[str, asyncio.Queue[ServerMessage]] = {}
        self.forgotten: list[tuple[str, str]] = []  # (watcher, table) of tables closed
        self._arrived = asyncio.Event()

    def send(self, player_id: str, message: ServerMessage) -> None:
        self.queue(player_id).put_nowait(message)
        self._arrived.set()

    async def arrival(self) -> None:
        """Until a message arrives for anyone since the last ``arrival`` (at once if one
        did): a test draining several players' queues waits on this, not on a clock."""
        await self._arrived.wait()
        self._arrived.clear()

    def closed(self, player_id: str, table: str) -> None:
        self.forgotten.append((player_id, table))

    def queue(self, player_id: str) -> asyncio.Queue[ServerMessage]:
        return self.queues.setdefault(player_id, asyncio.Queue())

    async def next(self, player_id: str, kind: type[Any]) -> Any:
        async with asyncio.timeout(WAIT):
            while True:
                msg = await self.queue(player_id).get()
                if isinstance(msg, kind):
                    return msg


def room(variant: str = "ddz3", **kw: Any) -> Room:
    base: dict[str, Any] = {"id": "r1", "name": "test", "variant": variant, "N": 10, "A": 1,
                            "min_beans": 0, "turn_seconds": 5.0, "bot_wait_seconds": 0.0}
    base.update(kw)
    return Room(**base)


async def make_hall(db: Database, *rooms: Room, grace: float = 30.0) -> tuple[Hall, Inbox]:
    inbox = Inbox()
    config = HallConfig(rooms=rooms or (room(),), economy=Economy(starting_beans=10_000))
    hall = Hall(config, db, inbox, BotPool(workers=2, processes=False), grace_seconds=grace)
    await hall.open()
    return hall, inbox


async def guest(hall: Hall) -> str:
    login = await accounts.create_guest(hall.db, hall.config.economy)
    return login.player.id


async def joined(hall: Hall) -> list[str]:
    """Three new guests, each joined to room ``r1`` in turn: a full table."""
    players = [await guest(hall) for _ in range(3)]
    for p in players:
        await hall.handle(p, Join(type="join", room="r1"))
    return players


async def dealt(hall: Hall, inbox: Inbox) -> tuple[list[str], State, Table]:
    """Three guests joined (``joined``), their first ``state`` and their table."""
    players = await joined(hall)
    first = await inbox.next(players[0], State)
    return players, first, hall.lobby.table(first.table)


async def play_to_end(hall: Hall, inbox: Inbox, players: list[str], seed: int = 0,
                      states: list[State] | None = None,
                      stop_after: int | None = None,
                      choose: Callable[[str, State, random.Random], str] | None = None,
                      ) -> dict[str, Settled]:
    """Every player answers its turns with a seeded choice from its view until settled
    (or ``choose(player, state, rng)``'s); a turn whose view lists no action (a free
    lead from a big hand) gets the 托管 policy's."""
    rng = random.Random(seed)
    settled: dict[str, Settled] = {}
    acted = 0
    async with asyncio.timeout(120):
        while len(settled) < len(players):
            for p in players:
                q = inbox.queue(p)
                while not q.empty():
                    msg = q.get_nowait()
                    if isinstance(msg, Settled):
                        settled[p] = msg
                    elif isinstance(msg, State) and msg.view is not None:
                        if states is not None:
                            states.append(msg)
                        view = msg.view
                        # A free lead from a big hand lists no plays (legal_complete is
                        # false): that turn too is answered, or 托管 would take it.
                        if (msg.seat in view["acting"] and msg.phase == "playing"
                                and (view["legal"] or not view["legal_complete"])):
                            if stop_after is not None and acted >= stop_after:
                                return settled
                            action = (bots.make("tuoguan", view["variant"],
                                                msg.seat).act(view) if not view["legal"]
                                      else choose(p, msg, rng) if choose is not None
                                      else rng.choice(view["legal"]))
                            try:
                                await hall.handle(p, Act(type="act", table=msg.table,
                                                         action=action, seq=msg.seq))
                                acted += 1
                            except Refused as exc:
                                assert exc.code in ("stale", "not_your_turn"), exc
            await asyncio.sleep(0)  # let the tables take their queues
    return settled


async def test_three_players_match_play_and_settle_once(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players = await joined(hall)
        states: list[State] = []
        settled = await play_to_end(hall, inbox, players, states=states)
        game_id = settled[players[0]].game
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status in ("settled", "dissolved")
        # Every view a player got is the engine's view at that point of the record.
        for msg in states[:: max(1, len(states) // 40)]:
            if msg.game != game_id:
                continue
            partial = {**stored.record, "actions": stored.record["actions"][:msg.seq]}
            assert replay(partial).observe(msg.seat) == msg.view
        # Beans: each seat's change is in the ledger once; the house took the fees.
        for seat, p in enumerate(stored.players):
            assert p is not None
            assert await ledger.balance(db, p) - 10_000 == settled[p].beans[str(seat)]
        assert sum(settled[players[0]].beans.values()) <= 0
    finally:
        await hall.close()


async def test_bots_fill_a_quick_match_and_the_game_settles(db: Database) -> None:
    hall, inbox = await make_hall(db)
    try:
        p = await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        settled = await play_to_end(hall, inbox, [p])
        assert settled[p].result["ended"] in ("finished", "escape", "unscored")
        stored = await get_game(db, settled[p].game)
        assert stored is not None
        seat = stored.players.index(p)
        assert await ledger.balance(db, p) == 10_000 + settled[p].beans[str(seat)]
    finally:
        await hall.close()


async def test_a_move_is_read_and_checked_once(db: Database) -> None:
    """The table resolves a player's move once (``GameState.resolve``), logs its text
    and applies that very action: the engine does not read and check it again."""
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players, _, table = await dealt(hall, inbox)
        game = table.game
        assert game is not None
        calls = counting(game)
        mover = next(p for p in players if table.seat_of(p) == game.to_act)
        text = game.legal_actions(game.to_act)[0].text
        await hall.handle(mover, Act(type="act", table=table.id, action=text, seq=table.seq))
        assert game.actions[-1] == text and calls[0] == 1
    finally:
        await hall.close()


async def test_bad_actions_are_refused_and_change_nothing(db: Database) -> None:
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players, _, table = await dealt(hall, inbox)
        seq = table.seq
        acting = table.game.acting if table.game else []
        idle = next(p for p in players if table.seat_of(p) not in acting)
        with pytest.raises(Refused) as err:
            await hall.handle(idle, Act(type="act", table=table.id, action="pass", seq=seq))
        assert err.value.code == "not_your_turn"
        mover = next(p for p in players if table.seat_of(p) in acting)
        with pytest.raises(Refused) as err:
            await hall.handle(mover, Act(type="act", table=table.id, action="pass",
                                         seq=seq + 5))
        assert err.value.code == "stale"
        with pytest.raises(Refused) as err:
            await hall.handle(mover, Act(type="act", table=table.id, action="play 33Z",
                                         seq=seq))
        assert err.value.code == "illegal"
        stranger = await guest(hall)
        with pytest.raises(Refused) as err:
            await hall.handle(stranger, Act(type="act", table=table.id, action="pass",
                                            seq=seq))
        assert err.value.code == "not_seated"
        assert table.seq == seq
        # A stranger's flood, all at once, takes no room in the table's queue (else it
        # would fill up and the seats' own actions be refused as busy).
        flood = [hall.lobby.run_call(TableCall(table=table.id, kind="act", player=stranger,
                                               text="pass", seq=seq))
                 for _ in range(QUEUE_LIMIT + 10)]
        answers = await asyncio.gather(*flood, return_exceptions=True)
        assert {a.code for a in answers if isinstance(a, Refused)} == {"not_seated"}
        assert len(answers) == QUEUE_LIMIT + 10 and table.queue.empty()
        with pytest.raises(Refused) as err:
            await hall.handle(idle, Act(type="act", table=table.id, action="pass", seq=seq))
        assert err.value.code == "not_your_turn"  # heard by the table, not refused as busy
    finally:
        await hall.close()


async def test_a_player_who_does_not_act_goes_on_auto_and_the_game_goes_on(
        db: Database) -> None:
    hall, inbox = await make_hall(db, room(turn_seconds=0.2))
    try:
        p = await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        settled = await inbox.next(p, Settled)  # never acts: 托管 plays the game out
        stored = await get_game(db, settled.game)
        assert stored is not None
        seat = stored.players.index(p)
        assert f"@{seat} auto on" in stored.record["actions"]
    finally:
        await hall.close()


async def test_leaving_mid_game_is_an_escape(db: Database) -> None:
    hall, inbox = await make_hall(db)
    try:
        p = await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        state = await inbox.next(p, State)
        await hall.handle(p, Leave(type="leave", table=state.table))
        settled = await inbox.next(p, Settled)
        assert settled.result["ended"] == "escape"
        assert settled.beans[str(state.seat)] <= 0
        # Rated as the rules score it: the escaper's loss, and nobody else's rating moves.
        assert settled.ratings is not None and set(settled.ratings) == {str(state.seat)}
        change = settled.ratings[str(state.seat)]
        assert change.after < change.before and change.games == 1
    finally:
        await hall.close()


async def test_live_tables_are_rebuilt_after_a_crash_and_settle_once(db_url: str) -> None:
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    players = await joined(hall)
    await play_to_end(hall, inbox, players, stop_after=6)
    table_id = next(iter(hall.lobby.tables))
    before = hall.lobby.tables[table_id].seq
    await hall.close()  # the process dies: nothing is settled, the log is all there is
    await db.close()

    db = Database.open(db_url)
    try:
        again, inbox = await make_hall(db, room(bot_wait_seconds=None))
        table = again.lobby.table(table_id)
        assert table.seq == before
        for p in players:
            again.connected(p)
        settled = await play_to_end(again, inbox, players, seed=1)
        game = settled[players[0]].game
        stored = await get_game(db, game)
        assert stored is not None and stored.status == "settled"
        assert replay(stored.record).result() == settled[players[0]].result
        async with db.read() as s:  # the ratings moved once, with that one settlement
            rated = (await s.execute(select(RatingEntry.subject).where(
                RatingEntry.game_id == game, RatingEntry.variant == "ddz3"))).scalars().all()
        assert sorted(rated) == sorted(players)
        total = sum([await ledger.balance(db, p) for p in players])
        assert total <= 30_000
        await again.close()
    finally:
        await db.close()


async def test_every_orphaned_table_is_rebuilt_and_a_bad_record_stops_only_its_own(
        db_url: str) -> None:
    """Several tables rebuilt in one look (concurrently, ADOPT_AT_ONCE at a time); a game
    whose record cannot be replayed is voided (no transfer), its players freed and told
    (``left``, reason ``void``, kept for their next hello), and every other table is
    rebuilt all the same."""
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None, turn_seconds=60.0))
    for _ in range(ADOPT_AT_ONCE + 2):  # more tables than are rebuilt at once
        players = await joined(hall)
        await inbox.next(players[0], State)  # its game has started (and is logged)
    seqs = {t.id: t.seq for t in hall.lobby.tables.values()}
    games = {t.id: t.game_id for t in hall.lobby.tables.values()}
    await hall.close()  # the process dies: the log is all there is
    bad = sorted(seqs)[0]
    async with db.transaction() as s:  # a record of a version no cardhall knows
        stored = await s.get(Game, games[bad])
        assert stored is not None
        stored.record = {**(stored.record or {}), "version": 999}
    try:
        again, _ = await make_hall(db, room(bot_wait_seconds=None, turn_seconds=60.0))
        assert {t.id: t.seq for t in again.lobby.tables.values()} == {
            t: seq for t, seq in seqs.items() if t != bad}
        kept = await get_game(db, games[bad] or "")
        assert kept is not None and kept.status == "dissolved" and kept.beans is None
        for player in kept.players:
            assert player is not None
            assert [(m.type, m.table, m.reason) for m in again.lobby.notes[player]] == [
                ("left", bad, "void")]
            assert await ledger.balance(db, player) == 10_000
        await again.close()
    finally:
        await db.close()


async def test_a_rebuilt_game_settled_before_settles_again_but_is_counted_once(
        db: Database) -> None:
    """A table rebuilt from a game that was settled meanwhile (a process adopted it as its
    first owner committed the end) settles it again: nothing is applied twice, its
    players hear the same result, and ``settled_hook`` (``cardhall_settlements``) counts
    the game once, not once per table that settled it."""
    counted: list[str] = []
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    hall.lobby.settled_hook = lambda: counted.append("first owner")
    try:
        players = await joined(hall)
        first = (await play_to_end(hall, inbox, players))[players[0]]
        assert counted == ["first owner"]
        stored = await get_game(db, first.game)
        assert stored is not None and stored.status in ("settled", "dissolved")
        balances = {p: await ledger.balance(db, p) for p in players}
        seats = [Seat(player=p, name=str(p)) for p in stored.players]
        rebuilt = Table("t-rebuilt", hall.lobby.rooms["r1"], seats, hall.store, inbox,
                        hall.bots)
        rebuilt.settled_hook = lambda: counted.append("rebuilt")
        rebuilt.restore(first.game, stored.record)
        rebuilt.start()
        await rebuilt.call(Resume(frozenset(players)))
        again = await inbox.next(players[0], Settled)
        assert (again.game, again.beans) == (first.game, first.beans)
        assert counted == ["first owner"]
        assert {p: await ledger.balance(db, p) for p in players} == balances
        await rebuilt.stop()
    finally:
        await hall.close()


async def test_after_a_game_players_play_on_at_the_same_table(db: Database) -> None:
    hall, inbox = await make_hall(db)
    try:
        p = await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        settled = await play_to_end(hall, inbox, [p])
        if settled[p].dissolved:
            return
        await hall.handle(p, Next(type="next", table=settled[p].table))
        state = await inbox.next(p, State)
        assert state.table == settled[p].table and state.game != settled[p].game
    finally:
        await hall.close()


async def test_a_game_logged_to_its_end_but_not_settled_settles_once_on_restart(
        db_url: str) -> None:
    """The crash between the last action's commit and the settlement: the log is complete."""
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    players = await joined(hall)
    await inbox.next(players[0], State)
    table = next(iter(hall.lobby.tables.values()))
    rng = random.Random(2)
    last: tuple[str, int] | None = None
    async with asyncio.timeout(60):
        while last is None:
            game = table.game
            assert game is not None and not game.over
            seat = game.acting[0]
            for action in game.legal_actions(seat):
                twin = game.clone()
                twin.apply(action, seat)
                if twin.over:
                    last = (game.canonical(action, seat), seat)
                    break
            else:
                player = table.seats[seat].player
                assert player is not None
                await hall.handle(player, Act(type="act", table=table.id,
                                              action=rng.choice(game.legal_actions(seat)).text,
                                              seq=table.seq))
    game_id, seq = table.game_id, table.seq
    assert game_id is not None
    await hall.close()
    await append_action(db, game_id, seq + 1, *last)  # committed; the process dies here
    await db.close()

    db = Database.open(db_url)
    try:
        again, inbox = await make_hall(db, room(bot_wait_seconds=None))
        settled = await inbox.next(players[0], Settled)  # the rebuilt table settles at once
        assert settled.game == game_id
        stored = await get_game(db, game_id)
        assert stored is not None and stored.status in ("settled", "dissolved")
        assert replay(stored.record).over and len(stored.record["actions"]) == seq + 1
        for seat_no, p in enumerate(stored.players):
            assert p is not None
            change = (stored.beans or {}).get(str(seat_no), 0)
            assert await ledger.balance(db, p) == 10_000 + change
        await again.close()
        third, _ = await make_hall(db, room(bot_wait_seconds=None))  # nothing left to rebuild
        assert third.lobby.tables == {}
        await third.close()
    finally:
        await db.close()


async def test_a_golden_eye_held_is_offered_and_spent_once_with_the_settlement(
        db: Database) -> None:
    hall, inbox = await make_hall(db, room("ddz3_happy", bot_wait_seconds=None))
    try:
        players = [await guest(hall) for _ in range(3)]
        await ledger.buy_golden_eye(db, players[0], hall.config.economy)
        assert await ledger.items(db, players[0]) == 1
        for p in players:
            await hall.handle(p, Join(type="join", room="r1"))
        used = False

        def use_eye_first(p: str, msg: State, rng: random.Random) -> str:
            nonlocal used
            legal = (msg.view or {})["legal"]
            eye = next((a for a in legal if a.startswith("eye")), None)
            if eye is not None and not used:
                assert p == players[0], "only the holder is offered the Golden Eye"
                used = True
                return str(eye)
            return str(rng.choice([a for a in legal if not a.startswith("eye")] or legal))

        await play_to_end(hall, inbox, players, seed=4, choose=use_eye_first)
        assert used, "the holder was never offered the Golden Eye"
        assert await ledger.items(db, players[0]) == 0
        assert [await ledger.items(db, p) for p in players[1:]] == [0, 0]
    finally:
        await hall.close()


async def test_a_table_all_on_auto_that_never_bids_is_dissolved_not_redealt_for_ever(
        db: Database) -> None:
    from cardhall.hall.live.table import MAX_AUTO_DEALS  # noqa: PLC0415
    from cardhall.protocol.messages import Left  # noqa: PLC0415

    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players, first, table = await dealt(hall, inbox)
        for p in players:
            state = table.state_for(p)
            await hall.handle(p, Act(type="act", table=table.id, action="auto on",
                                     seq=state.seq))
        left = await inbox.next(players[0], Left)  # 托管 passes every bid: deal after deal
        assert left.reason == "dissolved"
        stored = await get_game(db, first.game or "")
        assert stored is not None and stored.status == "dissolved"
        assert replay(stored.record).deals > MAX_AUTO_DEALS  # type: ignore[attr-defined]
        assert [await ledger.balance(db, p) for p in players] == [10_000] * 3
        assert [await ratings_of(db, p) for p in players] == [{}] * 3  # nothing rated
    finally:
        await hall.close()


async def test_a_closed_tables_watcher_is_told_left_and_stops_watching(db: Database) -> None:
    """A watcher hears the table close as its seats do (``left`` with their reason), so
    his client leaves the table and his connection forgets it; the table keeps none."""
    from cardhall.protocol.messages import Left, Watch  # noqa: PLC0415

    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players, _, table = await dealt(hall, inbox)
        admin = await guest(hall)
        await hall.handle(admin, Watch(type="watch", table=table.id), admin=True)
        assert (await inbox.next(admin, State)).table == table.id
        for p in players:
            await hall.handle(p, Act(type="act", table=table.id, action="auto on",
                                     seq=table.state_for(p).seq))
        assert (await inbox.next(players[0], Left)).reason == "dissolved"
        assert (await inbox.next(admin, Left)).reason == "dissolved"
        assert table.watchers == set()
    finally:
        await hall.close()


async def test_a_spectator_sees_only_what_every_seat_sees(db: Database) -> None:
    """An admin watching a 五人 table must not learn the hidden landlord from seat 0's role."""
    from cardhall.protocol.messages import Watch  # noqa: PLC0415

    hall, inbox = await make_hall(db, room("ddz5", bot_wait_seconds=0.0))
    try:
        p, admin = await guest(hall), await guest(hall)
        await hall.handle(p, Join(type="join", room="r1"))
        state = await inbox.next(p, State)
        table = hall.lobby.table(state.table)
        await hall.handle(admin, Watch(type="watch", table=table.id), admin=True)
        watched = await inbox.next(admin, State)
        assert watched.seat == -1 and watched.view is not None
        assert watched.view["hand"] == [] and watched.view["legal"] == []
        game = table.game
        assert game is not None
        views = [game.observe(s) for s in range(5)]
        for i, role in enumerate(watched.view["roles"]):
            if role is not None:
                assert all(v["roles"][i] == role for v in views), "a role only some seats know"
        for key in ("counts", "played", "table", "multiplier"):
            assert all(v[key] == watched.view[key] for v in views) or watched.view[key] is None
    finally:
        await hall.close()


async def test_a_command_queued_before_the_table_is_dropped_is_told_busy(db: Database) -> None:
    """A table dropped (another process owns it now) while a command waits in its queue
    answers it ``busy`` (try again: the command goes to the new owner), not as if the
    game had ended here."""
    hall, inbox = await make_hall(db, room(bot_wait_seconds=None))
    try:
        players, first, table = await dealt(hall, inbox)
        # The command is in the table's queue; the drop comes before the table runs.
        waiting = asyncio.ensure_future(hall.lobby.call(TableCall(
            table=first.table, kind="act", player=players[0], text="pass", seq=first.seq)))
        await asyncio.sleep(0)
        assert table.queue.qsize() == 1
        hall.drop(first.table)
        with pytest.raises(Refused) as refused:
            await waiting
        assert refused.value.code == "busy", refused.value
        assert first.table not in hall.lobby.tables
    finally:
        await hall.close()


async def test_an_answer_in_a_window_is_not_made_stale_by_another_seats(db: Database) -> None:
    """欢乐's 开始/明牌开始: all three answer at once. The second to answer acted on the
    state before the first's answer, which changed nothing he could answer: accepted. A
    state older than the window, or a window that has closed, is still stale."""
    hall, inbox = await make_hall(db, room("ddz3_happy", bot_wait_seconds=None))
    try:
        players, first, table = await dealt(hall, inbox)
        game = table.game
        assert game is not None and sorted(game.acting) == [0, 1, 2]
        opened = table.seq
        by_seat = sorted(players, key=lambda p: table.seat_of(p) or 0)
        await hall.handle(by_seat[0], Act(type="act", table=table.id, action="start",
                                          seq=opened))
        assert table.seq == opened + 1
        await hall.handle(by_seat[1], Act(type="act", table=table.id, action="start",
                                          seq=opened))  # acted on the state he saw
        assert table.seq == opened + 2
        with pytest.raises(Refused) as err:  # a state the table never reached
            await hall.handle(by_seat[2], Act(type="act", table=table.id, action="start",
                                              seq=table.seq + 1))
        assert err.value.code == "stale"
        await hall.handle(by_seat[2], Act(type="act", table=table.id, action="start",
                                          seq=opened))
        assert game.phase != "ready"  # the window closed
        mover = next(p for p in players if table.seat_of(p) in game.acting)
        legal = game.legal_actions(table.seat_of(mover))
        with pytest.raises(Refused) as err:  # the window's state is old now
            await hall.handle(mover, Act(type="act", table=table.id, action=str(legal[0]),
                                         seq=opened))
        assert err.value.code == "stale"
        assert first.seq == opened
    finally:
        await hall.close()
