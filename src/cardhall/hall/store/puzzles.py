"""Puzzles in the database: the built-in set, mined puzzles, ratings and attempts.

An attempt moves ratings at most once: the update that ends it (``finish``) is
conditional on the attempt still being played and on the move count it read, and the
ratings move in that same transaction; a second end of the same attempt, or a racing
move, finds nothing to update and is refused. Only a player's first attempt at a
puzzle is rated: trying again after seeing the solution is practice. A player has at
most one open attempt at a puzzle (a partial unique index; starting again resumes it),
so no attempt of his is still open to be rated once another has shown the solution;
and ``finish`` rates none after another of his at the puzzle has ended, whatever its
flag says (attempts opened side by side before that index). A guest's attempt (or a
bot account's) rates him but leaves the puzzle as it was: a throwaway account must
not push a puzzle's rating (docs/rulings.md, "Puzzles").
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import and_, false, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.elements import ColumnElement

from cardhall.hall.domain.errors import Conflict, NotFound
from cardhall.hall.domain.puzzle_ratings import START_MU, START_SIGMA, Rating, rate, shown
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import SETTLED
from cardhall.hall.store.models import (
    Game,
    Player,
    PuzzleAttempt,
    PuzzleRating,
    PuzzleRow,
    utcnow,
)
from cardhall.puzzles.classic import CLASSIC, WINNING
from cardhall.puzzles.mine import Mined
from cardhall.puzzles.puzzle import daily_index

PLAYING, SOLVED, FAILED = "playing", "solved", "failed"
#: A built-in puzzle starts surer of its rating than a new player: its level says much.
CLASSIC_SIGMA = START_SIGMA / 2
#: A mined puzzle: one winning move in a real game's ending; rated as a middle level.
MINED_LEVEL = 3


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's puzzle rating and record."""

    rating: Rating
    attempts: int
    solved: int

    def to_json(self) -> dict[str, int]:
        return {"rating": self.rating.shown, "attempts": self.attempts, "solved": self.solved}


@dataclass(frozen=True, slots=True)
class Ended:
    """An attempt's end: the player's rating after it and how much the shown rating
    moved (0 for a practice attempt)."""

    standing: Standing
    change: int


async def ensure_classic(db: Database) -> None:
    """Insert the built-in puzzles the database does not have yet (at start-up; two
    processes doing it at once both succeed)."""
    async with db.read() as s:
        have = set((await s.execute(select(PuzzleRow.id).where(PuzzleRow.source == "classic")))
                   .scalars())
    missing = [p for p in CLASSIC if p.id not in have]
    for p in missing:
        try:
            async with db.transaction() as s:
                s.add(PuzzleRow(id=p.id, source="classic", rules=p.rules, hand=p.hand,
                                other=p.other, last=p.last, title=p.title, title_en=p.title_en,
                                level=p.level, winning=WINNING[p.id], mu=p.start_mu(),
                                sigma=CLASSIC_SIGMA, attempts=0, solved=0))
        except IntegrityError:
            continue  # another process inserted it first


async def add_mined(db: Database, game_id: str, mined: Sequence[Mined]) -> list[str]:
    """Store a finished game's mined puzzles (once per decision: a game mined twice adds
    nothing the second time); their ids."""
    ids = []
    for m in mined:
        pid = "m" + secrets.token_hex(8)
        try:
            async with db.transaction() as s:
                s.add(PuzzleRow(id=pid, source="mined", rules=m.rules, hand=m.hand,
                                other=m.other, last=m.last, title="实战残局",
                                title_en="From a real game", level=MINED_LEVEL, winning=1,
                                game_id=game_id, ply=m.ply, third=m.third,
                                landlord=m.landlord,
                                mu=START_MU, sigma=START_SIGMA, attempts=0, solved=0))
            ids.append(pid)
        except IntegrityError:
            continue
    return ids


async def get_puzzle(db: Database, puzzle_id: str) -> PuzzleRow:
    async with db.read() as s:
        row = await s.get(PuzzleRow, puzzle_id)
    if row is None:
        raise NotFound("no such puzzle")
    return row


def shown_mu(mu: float) -> int:
    """A puzzle's rating as players read it."""
    return shown(mu)


def daily_id(day: date) -> str:
    """The daily puzzle of ``day``: one of the built-in set, the same for everyone."""
    return CLASSIC[daily_index(day, len(CLASSIC))].id


async def _standing(s: AsyncSession, player_id: str) -> Standing:
    row = await s.get(PuzzleRating, player_id)
    if row is None:
        return Standing(Rating(START_MU, START_SIGMA), 0, 0)
    return Standing(Rating(row.mu, row.sigma), row.attempts, row.solved)


async def standing(db: Database, player_id: str) -> Standing:
    async with db.read() as s:
        return await _standing(s, player_id)


async def next_near(db: Database, player_id: str) -> PuzzleRow:
    """The puzzle nearest the player's rating that he has not tried; when he has tried
    them all, the nearest he tried longest ago."""
    async with db.read() as s:
        mu = (await _standing(s, player_id)).rating.mu
        tried = select(PuzzleAttempt.puzzle_id).where(PuzzleAttempt.player_id == player_id)
        row = (await s.execute(
            select(PuzzleRow).where(PuzzleRow.id.not_in(tried))
            .order_by(func.abs(PuzzleRow.mu - mu), PuzzleRow.id).limit(1))).scalar()
        if row is None:
            last = (select(PuzzleAttempt.puzzle_id, func.max(PuzzleAttempt.created).label("t"))
                    .where(PuzzleAttempt.player_id == player_id)
                    .group_by(PuzzleAttempt.puzzle_id).subquery())
            row = (await s.execute(
                select(PuzzleRow).join(last, last.c.puzzle_id == PuzzleRow.id)
                .order_by(last.c.t, PuzzleRow.id).limit(1))).scalar()
    if row is None:
        raise NotFound("there are no puzzles")
    return row


async def open_attempt(db: Database, player_id: str, puzzle_id: str) -> PuzzleAttempt | None:
    """The player's attempt at the puzzle that is still played, if he has one."""
    async with db.read() as s:
        return (await s.execute(select(PuzzleAttempt).where(
            PuzzleAttempt.player_id == player_id, PuzzleAttempt.puzzle_id == puzzle_id,
            PuzzleAttempt.status == PLAYING))).scalar()


async def start(db: Database, player_id: str, puzzle_id: str) -> PuzzleAttempt:
    """The player's open attempt at the puzzle if he has one (resumed, not another
    opened beside it: see the module's docstring), else a new one, rated if it is his
    first at this puzzle. The player's rating row is made here if he has none, so that
    ending an attempt only updates it."""
    resumed = await open_attempt(db, player_id, puzzle_id)
    if resumed is not None:
        return resumed
    async with db.read() as s:
        has = await s.get(PuzzleRating, player_id) is not None
    if not has:
        try:
            async with db.transaction() as s:
                s.add(PuzzleRating(player_id=player_id, mu=START_MU, sigma=START_SIGMA,
                                   attempts=0, solved=0))
        except IntegrityError:
            pass  # made by a racing start
    try:
        async with db.transaction() as s:
            if await s.get(PuzzleRow, puzzle_id) is None:
                raise NotFound("no such puzzle")
            before = await s.scalar(select(func.count()).select_from(PuzzleAttempt).where(
                PuzzleAttempt.player_id == player_id, PuzzleAttempt.puzzle_id == puzzle_id))
            attempt = PuzzleAttempt(id=secrets.token_hex(16), player_id=player_id,
                                    puzzle_id=puzzle_id, line=[], plies=0, status=PLAYING,
                                    rated=not before)
            s.add(attempt)
    except IntegrityError:  # a racing start opened one first: that one is his
        resumed = await open_attempt(db, player_id, puzzle_id)
        if resumed is None:
            raise Conflict("another attempt at this puzzle was started and ended "
                           "meanwhile; start again") from None
        return resumed
    return attempt


async def get_attempt(db: Database, attempt_id: str, player_id: str) -> PuzzleAttempt:
    """The player's own attempt (another's is as unknown as a wrong id)."""
    async with db.read() as s:
        row = await s.get(PuzzleAttempt, attempt_id)
    if row is None or row.player_id != player_id:
        raise NotFound("no such attempt")
    return row


def _cas(attempt: PuzzleAttempt) -> ColumnElement[bool]:
    return and_(PuzzleAttempt.id == attempt.id, PuzzleAttempt.status == PLAYING,
                PuzzleAttempt.plies == attempt.plies)


async def advance(db: Database, attempt: PuzzleAttempt, line: list[str]) -> None:
    """The attempt goes on with ``line`` (the player's move and the defence's reply)."""
    async with db.transaction() as s:
        done = await s.execute(update(PuzzleAttempt).where(_cas(attempt))
                               .values(line=line, plies=len(line)))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict("this attempt has moved on or ended; reload it")


async def finish(db: Database, attempt: PuzzleAttempt, line: list[str], solved: bool) -> Ended:
    """End the attempt (solved or failed) and, if it is rated, move the ratings: once,
    in the transaction that ends it. It is practice after all when another attempt of
    the player at the puzzle has ended (its solution or its line was seen); a guest's
    (or a bot account's) moves only his own rating."""
    async with db.transaction() as s:
        done = await s.execute(update(PuzzleAttempt).where(_cas(attempt)).values(
            line=line, plies=len(line), status=SOLVED if solved else FAILED, ended=utcnow()))
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise Conflict("this attempt has moved on or ended; reload it")
        seen = attempt.rated and bool(await s.scalar(
            select(func.count()).select_from(PuzzleAttempt).where(
                PuzzleAttempt.player_id == attempt.player_id,
                PuzzleAttempt.puzzle_id == attempt.puzzle_id,
                PuzzleAttempt.id != attempt.id, PuzzleAttempt.status != PLAYING)))
        if seen:
            await s.execute(update(PuzzleAttempt).where(PuzzleAttempt.id == attempt.id)
                            .values(rated=False))
        if not attempt.rated or seen:
            return Ended(await _standing(s, attempt.player_id), 0)
        row = await s.get(PuzzleRating, attempt.player_id, with_for_update=True)
        puzzle = await s.get(PuzzleRow, attempt.puzzle_id, with_for_update=True)
        # A guest or a bot account (free to make again) rates himself, not the puzzle.
        who = (await s.execute(select(Player.is_guest, Player.bot_owner)
                               .where(Player.id == attempt.player_id))).one()
        throwaway = who.is_guest or who.bot_owner is not None
        assert row is not None and puzzle is not None  # made by start; a foreign key
        before = Standing(Rating(row.mu, row.sigma), row.attempts, row.solved)
        mine, its = rate(before.rating, Rating(puzzle.mu, puzzle.sigma), solved)
        if not throwaway:
            puzzle.mu, puzzle.sigma = its.mu, its.sigma
            puzzle.attempts += 1
            puzzle.solved += int(solved)
        row.mu, row.sigma, row.updated = mine.mu, mine.sigma, utcnow()
        row.attempts += 1
        row.solved += int(solved)
        change = mine.shown - before.rating.shown
        await s.execute(update(PuzzleAttempt).where(PuzzleAttempt.id == attempt.id)
                        .values(change=change))
        return Ended(Standing(mine, row.attempts, row.solved), change)


async def settled_since(db: Database, variants: Sequence[str], since: datetime,
                        limit: int) -> list[tuple[str, datetime]]:
    """(id, ended) of the settled games of ``variants`` that ended at or after
    ``since``, oldest first: what the miner reads next. A private table's (好友房) games
    are left out: they are for their players only, and a puzzle is shown to anyone."""
    async with db.read() as s:
        rows = (await s.execute(
            select(Game.id, Game.ended).where(Game.status == SETTLED,
                                              Game.variant.in_(list(variants)),
                                              Game.ended >= since,
                                              Game.private == false())
            .order_by(Game.ended, Game.id).limit(limit))).all()
    return [(gid, ended) for gid, ended in rows if ended is not None]
