"""Puzzles in the database: the built-in set is loaded once, an attempt moves both
ratings exactly once (solving up, failing down), a second attempt is practice, a raced
or repeated end is refused, the next puzzle is near the player's rating, and mined
puzzles are stored once per decision with their game. A player has one open attempt at
a puzzle, none rated once another has ended; a guest or a bot account moves no puzzle's
rating; private tables' games are not mined."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from argon2 import PasswordHasher
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from cardhall.hall.domain.config import Economy
from cardhall.hall.domain.errors import Conflict, NotFound
from cardhall.hall.domain.puzzle_ratings import shown
from cardhall.hall.store import accounts, bots, puzzles
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Game, PuzzleAttempt, PuzzleRow
from cardhall.puzzles.classic import CLASSIC
from cardhall.puzzles.mine import Mined
from cardhall.server.puzzles import PuzzleDesk, mine_settled
from tests.puzzles import built3
from tests.puzzles.test_mine import built_game


async def _guest(db: Database, economy: Economy) -> str:
    return (await accounts.create_guest(db, economy)).player.id


async def _registered(db: Database, economy: Economy, hasher: PasswordHasher,
                      name: str = "solver") -> str:
    return (await accounts.register(db, name, "secret-1", economy, hasher=hasher)).player.id


async def test_the_classic_set_is_loaded_once(db: Database) -> None:
    await puzzles.ensure_classic(db)
    await puzzles.ensure_classic(db)
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(PuzzleRow)) == len(CLASSIC)
    assert (await puzzles.get_puzzle(db, "c01")).hand == "466A"
    with pytest.raises(NotFound):
        await puzzles.get_puzzle(db, "nope")
    assert puzzles.daily_id(date(2026, 12, 7)) == puzzles.daily_id(date(2026, 12, 7))


@pytest.mark.parametrize("solved", [True, False])
async def test_an_attempt_moves_both_ratings_once(db: Database, economy: Economy,
                                                  hasher: PasswordHasher, solved: bool) -> None:
    await puzzles.ensure_classic(db)
    pid = await _registered(db, economy, hasher)
    before = (await puzzles.get_puzzle(db, "c05")).mu
    attempt = await puzzles.start(db, pid, "c05")
    assert attempt.rated
    ended = await puzzles.finish(db, attempt, ["play 3"], solved)
    assert (ended.change > 0) == solved and ended.change != 0
    assert ended.standing.rating.shown == shown(25.0) + ended.change
    assert ended.standing.attempts == 1 and ended.standing.solved == int(solved)
    puzzle = await puzzles.get_puzzle(db, "c05")
    after = puzzle.mu
    assert (after < before) == solved
    assert (puzzle.attempts, puzzle.solved) == (1, int(solved))
    with pytest.raises(Conflict):  # the same attempt ended again: nothing moves
        await puzzles.finish(db, attempt, ["play 3"], solved)
    assert (await puzzles.standing(db, pid)) == ended.standing
    again = await puzzles.start(db, pid, "c05")
    assert not again.rated
    practice = await puzzles.finish(db, again, ["play 3"], not solved)
    assert practice.change == 0 and practice.standing == ended.standing
    assert (await puzzles.get_puzzle(db, "c05")).mu == after


async def test_a_raced_move_is_refused(db: Database, economy: Economy) -> None:
    await puzzles.ensure_classic(db)
    pid = await _guest(db, economy)
    attempt = await puzzles.start(db, pid, "c01")
    await puzzles.advance(db, attempt, ["play 4", "play K"])
    with pytest.raises(Conflict):  # the same read, moved on by the first write
        await puzzles.advance(db, attempt, ["play 66", "play 77"])
    fresh = await puzzles.get_attempt(db, attempt.id, pid)
    assert fresh.line == ["play 4", "play K"] and fresh.plies == 2
    other = await _guest(db, economy)
    with pytest.raises(NotFound):  # another player's attempt is unknown to him
        await puzzles.get_attempt(db, attempt.id, other)


async def test_next_is_near_the_rating_and_untried(db: Database, economy: Economy) -> None:
    await puzzles.ensure_classic(db)
    pid = await _guest(db, economy)
    first = await puzzles.next_near(db, pid)
    assert first.level == 3  # a new player's rating is the middle of the scale
    await puzzles.finish(db, await puzzles.start(db, pid, first.id), [], True)
    second = await puzzles.next_near(db, pid)
    assert second.id != first.id
    assert second.mu >= 25.0  # after a solve, the nearest untried is not easier


async def test_mined_puzzles_are_stored_once_with_their_game(db: Database) -> None:
    async with db.transaction() as s:
        s.add(Game(id="g1", table_id="t", room_id="r", variant="ddz2", players=["a", "b"],
                   status="settled"))
    mined = [Mined("ddz2", "466A", "77K", None, 40, 0, "play 4", "play 66")]
    ids = await puzzles.add_mined(db, "g1", mined)
    assert len(ids) == 1 and await puzzles.add_mined(db, "g1", mined) == []
    row = await puzzles.get_puzzle(db, ids[0])
    assert (row.source, row.game_id, row.ply, row.rules) == ("mined", "g1", 40, "ddz2")


async def test_a_three_hand_puzzle_keeps_its_third_hand_and_landlord(db: Database) -> None:
    async with db.transaction() as s:
        s.add(Game(id="g3", table_id="t", room_id="r", variant="ddz3", players=["a", "b", "c"],
                   status="settled"))
    mined = [Mined("ddz3", "56778K", "336JQ", "33", 32, 1, "play 77", "pass", "4", 2)]
    ids = await puzzles.add_mined(db, "g3", mined)
    row = await puzzles.get_puzzle(db, ids[0])
    assert (row.hand, row.other, row.third, row.last, row.landlord) == \
        ("56778K", "336JQ", "4", "33", 2)
    await puzzles.ensure_classic(db)
    two = await puzzles.get_puzzle(db, "c01")  # a two-hand puzzle has neither
    assert (two.third, two.landlord) == (None, None)


async def test_the_miner_stores_a_settled_games_missed_win(db: Database) -> None:
    """A built ddz2 game with a missed single win, settled in the hall's database: the
    miner stores its puzzle with the game and moves on; mining again adds nothing."""
    record, made = built_game(seed=1, blunder=True)
    ended = datetime.now(UTC)
    async with db.transaction() as s:
        s.add(Game(id="g2", table_id="t", room_id="r", variant="ddz2", players=[None, None],
                   record=record, status="settled", ended=ended))
    desk = PuzzleDesk()
    since = ended - timedelta(seconds=1)
    after = await mine_settled(db, desk, since)
    assert after > ended
    async with db.read() as s:
        rows = (await s.execute(select(PuzzleRow).where(PuzzleRow.game_id == "g2"))).scalars().all()
    assert [(r.ply, r.source) for r in rows] == [(made[0][0], "mined")]
    assert await mine_settled(db, desk, after) == after
    await mine_settled(db, desk, since)  # again from the start: stored once
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(PuzzleRow)
                              .where(PuzzleRow.game_id == "g2")) == 1


async def test_the_miner_stores_a_three_hand_puzzle_of_a_ddz3_game(db: Database) -> None:
    """A built 三人斗地主 game in which a farmer missed his one win (built3, seed 62): the
    miner stores it as a three-hand puzzle, third hand and landlord's seat with it."""
    record, _ = built3.built_game(seed=62, wins=1, landlord=False)
    ended = datetime.now(UTC)
    async with db.transaction() as s:
        s.add(Game(id="g4", table_id="t", room_id="r", variant="ddz3",
                   players=[None, None, None], record=record, status="settled", ended=ended))
    await mine_settled(db, PuzzleDesk(), ended - timedelta(seconds=1))
    async with db.read() as s:
        rows = (await s.execute(select(PuzzleRow).where(PuzzleRow.game_id == "g4"))).scalars().all()
    assert [(r.ply, r.hand, r.other, r.third, r.last, r.landlord) for r in rows] == \
        [(32, "56778K", "336JQ", "4", "33", 2)]


async def test_a_guests_attempt_rates_him_but_not_the_puzzle(db: Database, economy: Economy,
                                                             hasher: PasswordHasher) -> None:
    """Throwaway guests cannot push a puzzle's rating: only registered players' first
    attempts move it; the guest's own rating moves as anyone's."""
    await puzzles.ensure_classic(db)
    before = await puzzles.get_puzzle(db, "c05")
    guest = await _guest(db, economy)
    ended = await puzzles.finish(db, await puzzles.start(db, guest, "c05"), ["play 3"], True)
    assert ended.change > 0 and ended.standing.attempts == 1
    same = await puzzles.get_puzzle(db, "c05")
    assert (same.mu, same.sigma, same.attempts, same.solved) == \
        (before.mu, before.sigma, before.attempts, before.solved)
    member = await _registered(db, economy, hasher)
    await puzzles.finish(db, await puzzles.start(db, member, "c05"), ["play 3"], True)
    moved = await puzzles.get_puzzle(db, "c05")
    assert moved.mu < before.mu and (moved.attempts, moved.solved) == (1, 1)


async def test_a_bot_accounts_attempt_rates_it_but_not_the_puzzle(
        db: Database, economy: Economy, hasher: PasswordHasher) -> None:
    """An attack trial: a bot account's first attempt moved the puzzle, as a registered
    player's; an owner making and retiring bots could push a puzzle's rating as
    throwaway guests could, and a solver program would make every puzzle look easy. A
    bot rates itself only, as a guest."""
    await puzzles.ensure_classic(db)
    before = await puzzles.get_puzzle(db, "c05")
    owner = (await accounts.register(db, "owner", "secret-1", economy, hasher=hasher)).player
    bot = (await bots.create(db, owner, "solver_bot", economy, 5)).player.id
    ended = await puzzles.finish(db, await puzzles.start(db, bot, "c05"), ["play 3"], True)
    assert ended.change > 0 and ended.standing.attempts == 1
    same = await puzzles.get_puzzle(db, "c05")
    assert (same.mu, same.sigma, same.attempts, same.solved) == \
        (before.mu, before.sigma, before.attempts, before.solved)


async def test_one_open_attempt_per_puzzle(db: Database, economy: Economy) -> None:
    """Starting again while an attempt is open resumes it (a practice attempt beside the
    rated one could be failed on purpose to show its solution); the database refuses a
    second open one; once it has ended, the next is a new, unrated one."""
    await puzzles.ensure_classic(db)
    pid = await _guest(db, economy)
    first = await puzzles.start(db, pid, "c24")
    assert first.rated
    again = await puzzles.start(db, pid, "c24")
    assert again.id == first.id
    assert (await puzzles.open_attempt(db, pid, "c24")) is not None
    assert (await puzzles.open_attempt(db, pid, "c01")) is None
    with pytest.raises(IntegrityError):
        async with db.transaction() as s:
            s.add(PuzzleAttempt(id="x" * 32, player_id=pid, puzzle_id="c24", line=[],
                                plies=0, status=puzzles.PLAYING, rated=False))
    await puzzles.finish(db, first, ["play 3"], False)
    practice = await puzzles.start(db, pid, "c24")
    assert practice.id != first.id and not practice.rated


async def test_no_rated_end_after_another_attempt_ended(db: Database, economy: Economy) -> None:
    """Two attempts opened side by side (as before one open attempt was enforced): once
    one has ended and shown the solution, the other ends as practice, whatever its flag
    says, and no rating moves."""
    await puzzles.ensure_classic(db)
    pid = await _guest(db, economy)
    rated = await puzzles.start(db, pid, "c24")
    async with db.transaction() as s:
        s.add(PuzzleAttempt(id="p" * 32, player_id=pid, puzzle_id="c24", line=["play 3"],
                            plies=1, status=puzzles.FAILED, rated=False))
    before = await puzzles.standing(db, pid)
    ended = await puzzles.finish(db, rated, ["play 8"], True)
    assert ended.change == 0 and ended.standing == before
    fresh = await puzzles.get_attempt(db, rated.id, pid)
    assert not fresh.rated and fresh.change is None and fresh.status == puzzles.SOLVED


async def test_the_miner_skips_private_tables_games(db: Database) -> None:
    """A private table's (好友房) game is for its players: nothing of it is mined."""
    record, made = built_game(seed=1, blunder=True)
    assert made
    ended = datetime.now(UTC)
    async with db.transaction() as s:
        s.add(Game(id="g3", table_id="t", room_id="r", variant="ddz2", players=[None, None],
                   record=record, status="settled", ended=ended, private=True))
    since = ended - timedelta(seconds=1)
    assert await puzzles.settled_since(db, ("ddz2",), since, 10) == []
    await mine_settled(db, PuzzleDesk(), since)
    async with db.read() as s:
        assert await s.scalar(select(func.count()).select_from(PuzzleRow)
                              .where(PuzzleRow.game_id == "g3")) == 0
