"""Leaderboards (排行榜) per variant and overall, by points or by beans (by skill
rating: ``store.ratings.board``).

The ordering follows the platform rules (docs/rules-platform.md, leaderboard): the
larger value first; on a tie, the player with fewer games; then the one who reached
his value earlier; then, so that a board never reorders between two reads, the name.
Only scored games count: dissolved and unscored games write no scores, so they can
never lift anyone. Private tables' games (好友房) do not count either (ruling 14):
friends choose their opponents, so a board they could feed could be farmed. Their
points reach the player's record and level (``Stat.points``, ``Player.points``), but
the boards read the ``ranked_`` columns and the scores of games that are not private.
Banned players are left off, and so is anyone without a scored
game in the board's scope.

What the value is:

- ``by="points"``: all-time per variant, the signed sum of X in that variant; all-time
  overall, the cumulative points (floored at 0) of the ranked games; with ``since``
  (a daily or weekly board), the sum of X in games settled since then.
- ``by="beans"``: all-time overall, the current balance; per variant or with
  ``since``, the net beans won in those games (fees included).

Sums go through ``total_of``: SQLite's ``SUM`` fails the whole query ("integer
overflow") when one player's rows pass 2^63, so one absurd row (written before
amounts were bounded, ``ledger.MAX_BEANS``) would take the board down for everyone;
PostgreSQL's ``SUM`` of a bigint is a numeric and cannot overflow.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import BigInteger, Select, and_, func, select
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import InstrumentedAttribute
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import GenericFunction

from cardhall.games import VARIANTS
from cardhall.hall.domain.errors import BadRequest
from cardhall.hall.domain.levels import title_of
from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Game, LedgerEntry, Player, Score, Stat

By = Literal["points", "beans"]
Col = ColumnElement[Any] | InstrumentedAttribute[Any]


@dataclass(frozen=True, slots=True)
class Row:
    rank: int
    player_id: str
    name: str
    value: int
    games: int
    title: str
    #: A bot account's row (docs/bots.md): it ranks with the people, marked.
    bot: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "id": self.player_id, "name": self.name,
                "value": self.value, "games": self.games, "title": self.title,
                "bot": self.bot}


#: What each row says of its player: id, name, points (his title), owner (a bot's).
_WHO = (Player.id, Player.name, Player.points, Player.bot_owner)


class total_of(GenericFunction[int]):
    """``SUM`` that never overflows: PostgreSQL's own (numeric for a bigint); SQLite's
    ``TOTAL``, a float, exact while the sum stays within 2^53 (``MAX_BEANS`` keeps
    real balances there) and never an error."""

    type = BigInteger()
    inherit_cache = True


@compiles(total_of)
def _sum(element: total_of, compiler: SQLCompiler, **kw: Any) -> str:
    return f"sum({compiler.process(element.clauses, **kw)})"


@compiles(total_of, "sqlite")
def _total(element: total_of, compiler: SQLCompiler, **kw: Any) -> str:
    return f"total({compiler.process(element.clauses, **kw)})"


def _board(by: By, variant: str | None, since: datetime | None) -> Select[Any]:
    """(player id, name, points, value, games, reached-at) rows in board order."""
    value: Col
    games: Col
    at: Col
    if since is not None or (by == "beans" and variant is not None):
        conds = [Score.created >= since] if since is not None else []
        if variant is not None:
            conds.append(Score.variant == variant)
        agg = (select(Score.player_id.label("pid"),
                      total_of(Score.points if by == "points" else Score.beans).label("value"),
                      func.count().label("games"), func.max(Score.created).label("at"))
               .join(Game, Game.id == Score.game_id)
               .where(*conds, Game.private.is_(False)).group_by(Score.player_id).subquery())
        value, games, at = agg.c.value, agg.c.games, agg.c.at
        q = select(*_WHO, value, games).join(
            agg, agg.c.pid == Player.id)
    elif variant is not None:  # all-time points in one variant
        value, games, at = Stat.ranked_points, Stat.ranked_games, Stat.ranked_points_at
        q = select(*_WHO, value, games).join(
            Stat, and_(Stat.player_id == Player.id, Stat.variant == variant))
    else:
        totals = (select(Stat.player_id.label("pid"),
                         func.sum(Stat.ranked_games).label("games"))
                  .group_by(Stat.player_id).subquery())
        games = totals.c.games
        if by == "points":
            value, at = Player.ranked_points, Player.ranked_points_at
            q = select(*_WHO, value, games)
        else:
            money = (select(LedgerEntry.player_id.label("pid"),
                            total_of(LedgerEntry.delta).label("value"),
                            func.max(LedgerEntry.created).label("at"))
                     .group_by(LedgerEntry.player_id).subquery())
            value, at = money.c.value, money.c.at
            q = select(*_WHO, value, games).join(
                money, money.c.pid == Player.id)
        q = q.join(totals, totals.c.pid == Player.id)
    # NULL "reached at" (a value never changed) counts as earliest on both backends.
    reached = func.coalesce(at, Player.created)
    return (q.where(Player.banned.is_(False), games > 0)
            .order_by(value.desc(), games.asc(), reached.asc(), Player.name_key.asc()))


async def leaderboard(db: Database, by: By = "points", variant: str | None = None,
                      since: datetime | None = None, limit: int = 50) -> list[Row]:
    """The top ``limit`` players; ``variant`` None for overall, ``since`` None for
    all-time."""
    if by not in ("points", "beans"):
        raise BadRequest(f"a leaderboard is by points or beans, not {by!r}")
    if variant is not None and variant not in VARIANTS:
        raise BadRequest(f"unknown variant {variant!r}")
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 1000:
        raise BadRequest(f"a leaderboard shows 1 to 1000 rows, not {limit!r}")
    if since is not None and since.tzinfo is None:
        raise BadRequest("since must be a UTC-aware time")
    async with db.transaction() as s:
        rows = (await s.execute(_board(by, variant, since).limit(limit))).all()
    return [Row(i + 1, pid, name, int(value), int(games), title_of(points, owner is not None),
                owner is not None)
            for i, (pid, name, points, owner, value, games) in enumerate(rows)]
