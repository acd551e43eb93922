"""Skill ratings in the database: the settlement's move of them, a player's ratings with
their history, and the rating leaderboard.

``apply`` runs inside ``game_rows.settle_game``'s transaction, after the game flipped
to ``settled``: so a settlement tried again, or redone after a crash, moves ratings
exactly once (only the call that flips the game gets here), and a settlement that
fails moves nothing. ``moved`` reads back what that one call wrote, for the
``settled`` message of a settlement that had committed before.

Rows are locked in (subject, variant) order, after the players (``lock_players``):
one order for every settlement, so no deadlocks. A bot's rows are shared by every
table it plays at; they are created by an insert that ignores a conflict, so two
settlements that rate a bot for the first time at once cannot fail each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.games import VARIANTS
from cardhall.games.sides import Standing
from cardhall.hall.domain.errors import BadRequest
from cardhall.hall.domain.levels import title_of
from cardhall.hall.domain.ratings import (
    MODEL,
    OVERALL,
    PROVISIONAL_GAMES,
    Change,
    Skill,
    bot_name,
    change,
    rate,
)
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Player, Rating, RatingEntry

#: Points a player's chart shows at most (the latest games).
HISTORY_LIMIT = 200


@dataclass(frozen=True, slots=True)
class Rated:
    """What a settlement rates: the subject in each seat (a player id, or a bot's
    identity) and the game's teams and ranks (``games.sides``)."""

    subjects: Sequence[str]
    standing: Standing


async def _lock(s: AsyncSession, subjects: Sequence[str],
                variants: Sequence[str]) -> dict[tuple[str, str], Rating]:
    """The rating rows of every (subject, variant), created fresh where missing, locked
    in (subject, variant) order."""
    keys = sorted({(subject, v) for subject in subjects for v in variants})
    values = [{"subject": subject, "variant": v, "mu": MODEL.mu, "sigma": MODEL.sigma,
               "games": 0} for subject, v in keys]
    dialect = s.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    await s.execute(insert(Rating).values(values).on_conflict_do_nothing())
    rows = (await s.execute(select(Rating).where(Rating.subject.in_(set(subjects)),
                                                 Rating.variant.in_(set(variants)))
                            .order_by(Rating.subject, Rating.variant)
                            .with_for_update())).scalars()
    return {(r.subject, r.variant): r for r in rows}


def _skill(row: Rating) -> Skill:
    return Skill(row.mu, row.sigma, row.games)


async def apply(s: AsyncSession, game_id: str, variant: str, subjects: Sequence[str],
                standing: Standing, now: datetime) -> dict[str, Change]:
    """Move the ratings a finished game moves (``domain.ratings.rate``), in the variant
    and overall, with one history row each; each moved seat's change in the variant,
    keyed by seat number as text (a seat whose rating stays, e.g. the others of an
    escape, is left out)."""
    rows = await _lock(s, subjects, (variant, OVERALL))
    moved: dict[str, Change] = {}
    for v in (variant, OVERALL):
        skills = {subject: _skill(rows[(subject, v)]) for subject in subjects}
        for subject, after in rate(subjects, skills, standing).items():
            before = skills[subject]
            row = rows[(subject, v)]
            row.mu, row.sigma, row.games, row.updated = after.mu, after.sigma, after.games, now
            s.add(RatingEntry(game_id=game_id, subject=subject, variant=v, mu=after.mu,
                              sigma=after.sigma, games=after.games, before=before.display,
                              after=after.display, created=now))
            if v == variant:
                moved[subject] = change(before, after)
    return {str(seat): moved[subject] for seat, subject in enumerate(subjects)
            if subject in moved}


async def _written(s: AsyncSession, game_id: str, variant: str) -> dict[str, Change]:
    """Each subject's change in the variant that ``apply`` wrote for this game."""
    rows = (await s.execute(select(RatingEntry).where(
        RatingEntry.game_id == game_id, RatingEntry.variant == variant))).scalars()
    return {r.subject: Change(r.before, r.after, r.games < PROVISIONAL_GAMES, r.games)
            for r in rows}


async def moved(s: AsyncSession, game_id: str, variant: str,
                subjects: Sequence[str]) -> dict[str, Change]:
    """What ``apply`` wrote for this game (empty if it rated nothing), keyed the same."""
    by = await _written(s, game_id, variant)
    return {str(seat): by[subject] for seat, subject in enumerate(subjects) if subject in by}


async def of_game(db: Database, game_id: str, variant: str,
                  players: Sequence[str | None]) -> dict[str, Change]:
    """What a settled game moved, by seat (as ``moved``): a replay shows it. ``players``
    as the game row has them (None: a bot seat). Which bot sat there is read from the
    game's own rows, not from the room: every empty seat of a game is its room's one
    bot, so a bot's row of the game is theirs, whatever the room seats today. (No bot
    row: the bot was not rated, e.g. it sat on both sides.)"""
    async with db.read() as s:
        by = await _written(s, game_id, variant)
    bots = [subject for subject in by if bot_name(subject) is not None]
    bot = bots[0] if len(bots) == 1 else None
    return {str(seat): by[subject] for seat, subject in
            enumerate(p if p is not None else bot for p in players)
            if subject is not None and subject in by}


async def rated(db: Database, subject: str) -> bool:
    """Has ``subject`` a rating row (a bot the hall once seated, whatever seats now)?"""
    async with db.read() as s:
        found = await s.execute(select(Rating.subject).where(Rating.subject == subject)
                                .limit(1))
        return found.first() is not None


@dataclass(frozen=True, slots=True)
class Point:
    """One game on a player's chart: the rating after it."""

    game_id: str
    at: datetime
    rating: int

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_id, "at": self.at.isoformat(), "rating": self.rating}


async def ratings_of(db: Database, subject: str,
                     limit: int = HISTORY_LIMIT) -> dict[str, dict[str, Any]]:
    """The subject's ratings by variant (``all``: overall), each with its last
    ``limit`` games oldest first; variants without a rated game are left out."""
    async with db.read() as s:
        rows = (await s.execute(select(Rating).where(Rating.subject == subject,
                                                     Rating.games > 0))).scalars().all()
        out: dict[str, dict[str, Any]] = {}
        for row in sorted(rows, key=lambda r: (r.variant != OVERALL, r.variant)):
            skill = _skill(row)
            entries = (await s.execute(
                select(RatingEntry.game_id, RatingEntry.created, RatingEntry.after)
                .where(RatingEntry.subject == subject, RatingEntry.variant == row.variant)
                .order_by(RatingEntry.created.desc(), RatingEntry.games.desc())
                .limit(limit))).all()
            history = [Point(g, at, after).to_json() for g, at, after in reversed(entries)]
            out[row.variant] = {"rating": skill.display, "provisional": skill.provisional,
                                "games": skill.games, "history": history}
        return out


@dataclass(frozen=True, slots=True)
class Ranked:
    """A row of the rating leaderboard (the shape of ``leaderboard.Row``'s JSON)."""

    rank: int
    subject: str
    name: str
    value: int
    games: int
    title: str
    bot: bool

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "id": self.subject, "name": self.name,
                "value": self.value, "games": self.games, "title": self.title,
                "bot": self.bot}


async def board(db: Database, variant: str | None = None, limit: int = 50) -> list[Ranked]:
    """The top ``limit`` non-provisional ratings of ``variant`` (None: overall), bots
    included (a player sees where he stands against them), banned players left off.
    Only matched tables' games are ever rated, so the board needs no other filter."""
    if variant is not None and variant not in VARIANTS:
        raise BadRequest(f"unknown variant {variant!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise BadRequest(f"a leaderboard shows 1 to 1000 rows, not {limit!r}")
    q = (select(Rating, Player.name, Player.points, Player.bot_owner)
         .outerjoin(Player, Player.id == Rating.subject)
         .where(Rating.variant == (variant or OVERALL), Rating.games >= PROVISIONAL_GAMES,
                (Player.banned.is_(False)) | (Player.id.is_(None) & Rating.subject.like("bot:%")))
         .order_by(Rating.mu.desc(), Rating.games.asc(), Rating.subject.asc())
         .limit(limit))
    async with db.read() as s:
        rows = (await s.execute(q)).all()
    out = []
    for i, (row, name, points, owner) in enumerate(rows):
        bot = bot_name(row.subject)
        out.append(Ranked(i + 1, row.subject, bot if bot is not None else str(name),
                          _skill(row).display, row.games,
                          "" if bot is not None else title_of(int(points), owner is not None),
                          bot is not None or owner is not None))
    return out


__all__ = ["HISTORY_LIMIT", "Point", "Ranked", "Rated", "apply", "board", "moved", "of_game",
           "rated", "ratings_of"]
