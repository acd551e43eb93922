"""Private tables (好友房) play for points and titles, not beans (platform ruling 14):
no stake, no fee, no bean penalty; their points reach the player's record and level but
no leaderboard. The attack they stop: fresh guests escaping a friend's senior table to
hand him their beans and points."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from cardhall.hall.store import accounts, ledger
from cardhall.hall.store.db import Database, upgrade
from cardhall.hall.store.leaderboard import leaderboard
from cardhall.hall.store.models import Game
from cardhall.hall.store.ratings import ratings_of
from cardhall.protocol.messages import Invite, Join, Leave, Next, Private, Settled, Start, State
from tests.hall.test_tables import guest, make_hall, play_to_end, room

SENIOR = room("ddz3_happy", id="senior", N=500, A=50, min_beans=5_000, M0=2,
              bot_wait_seconds=None)


async def _boards(db: Database) -> list[str]:
    """Everyone on any leaderboard, all-time, daily, overall or by variant."""
    since = datetime.now(UTC) - timedelta(days=1)
    out: list[str] = []
    for by in ("points", "beans"):
        for variant in (None, "ddz3_happy"):
            for when in (None, since):
                out += [r.player_id for r in await leaderboard(db, by, variant, when)]
    return out


async def test_escaping_private_senior_tables_moves_no_beans_and_no_board_points(
        db: Database) -> None:
    hall, inbox = await make_hall(db, SENIOR)
    try:
        collector = await guest(hall)
        mules = [await guest(hall) for _ in range(3)]
        for mule in mules:
            await hall.handle(collector, Private(type="private", room="senior", bots=True))
            invite = await inbox.next(collector, Invite)
            await hall.handle(mule, Join(type="join", code=invite.code))
            await hall.handle(collector, Start(type="start", table=invite.table))
            state = await inbox.next(mule, State)
            while state.phase != "playing":
                state = await inbox.next(mule, State)
            await hall.handle(mule, Leave(type="leave", table=invite.table))
            settled = await inbox.next(collector, Settled)
            assert settled.result["ended"] == "escape"
            assert settled.beans == {"0": 0, "1": 0}  # said to everyone: no beans moved
            assert (await inbox.next(mule, Settled)).beans == settled.beans
        assert [await ledger.balance(db, p) for p in [collector, *mules]] == [10_000] * 4
        assert await _boards(db) == []  # no board counts a private game
        # The games count for the players' own record and level.
        mine = await accounts.profile(db, collector)
        assert mine.record["ddz3_happy"].games == 3
        assert mine.points > 0 and mine.record["ddz3_happy"].points == mine.points
        for m in mules:
            assert (await accounts.profile(db, m)).record["ddz3_happy"].games == 1
        async with db.read() as s:
            assert set((await s.execute(select(Game.private))).scalars()) == {True}
    finally:
        await hall.close()


async def test_a_private_game_played_out_scores_points_for_the_record_only(
        db: Database) -> None:
    hall, inbox = await make_hall(db, SENIOR)
    try:
        players = [await guest(hall) for _ in range(3)]
        await ledger.admin_adjust(db, players[2], -9_999)  # below the room's minimum: fine
        await hall.handle(players[0], Private(type="private", room="senior", bots=False))
        invite = await inbox.next(players[0], Invite)
        for p in players[1:]:
            await hall.handle(p, Join(type="join", code=invite.code))
        settled = (await play_to_end(hall, inbox, players, seed=2))[players[0]]
        assert settled.beans == {"0": 0, "1": 0, "2": 0}
        assert settled.ratings is None  # a private table never moves a rating
        assert [await ratings_of(db, p) for p in players] == [{}] * 3
        assert [await ledger.balance(db, p) for p in players] == [10_000, 10_000, 1]
        levels = [(await accounts.profile(db, p)).points for p in players]
        assert any(levels), "somebody won points"
        assert await _boards(db) == []
    finally:
        await hall.close()


async def test_a_private_table_rebuilt_after_a_restart_stays_private(db_url: str) -> None:
    await upgrade(db_url)
    db = Database.open(db_url)
    hall, inbox = await make_hall(db, SENIOR)
    players = [await guest(hall) for _ in range(3)]
    await hall.handle(players[0], Private(type="private", room="senior", bots=False))
    invite = await inbox.next(players[0], Invite)
    for p in players[1:]:
        await hall.handle(p, Join(type="join", code=invite.code))
    await play_to_end(hall, inbox, players, stop_after=3)
    await hall.close()  # the process dies mid-game
    await db.close()

    db = Database.open(db_url)
    try:
        again, inbox = await make_hall(db, SENIOR)
        table = again.lobby.table(invite.table)
        assert table.private
        for p in players:
            again.connected(p)
        settled = (await play_to_end(again, inbox, players, seed=6))[players[0]]
        assert settled.beans == {"0": 0, "1": 0, "2": 0}
        for p in players:  # the next game at the table is private too
            await again.handle(p, Next(type="next", table=invite.table))
        assert table.game_id is not None and table.game_id != settled.game
        async with db.read() as s:
            assert await s.scalar(select(Game.private).where(Game.id == table.game_id))
        assert [await ledger.balance(db, p) for p in players] == [10_000] * 3
        await again.close()
    finally:
        await db.close()
