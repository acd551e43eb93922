"""Games at tables: their start, their action log, and their settlement.

A live game is stored as its row (variant, seat → player) plus the append-only action
log; ``cardhall.games.replay`` of the record rebuilt from them gives the state back, so
a restarted server (or another process taking the table over) loses nothing. Each
action is appended with its sequence number, and the (game, seq) key refuses a second
action with the same number: two processes that both think they own a table cannot
both write.

Fencing: when several processes run the hall, the table's owner writes with its lease's
fencing token (``fence``); ``claim_games`` stores a newer token on a table's live games
when another process takes the table over, and every append and settlement compares
the writer's token with the stored one inside its own transaction (the game row is
read ``FOR SHARE``, so a takeover waits for an append in flight and no stale append
can commit after it). A refused writer gets ``Fenced``. A single process writes with
``fence=None``: nothing is compared and nothing is locked, as before.

Stakes are held (platform ruling 15). ``create_game`` holds, in its own transaction,
what each player may lose in the game (``holds``: the balance the game was dealt, the
floor of every loss); a purchase meanwhile finds those beans held; the settlement takes
each loss from the hold and the game's end, settled or dissolved, deletes the holds. So
a settled game's ledger sums to −fees whatever its players did while it ran. A private
table's game (``private``, ruling 14) holds nothing and moves no beans; its points go to
the players' records and levels but not to the leaderboards' ``ranked_`` values.

A finished game takes no more actions. The action that ends a game is appended with
``final=True``: in the same transaction its game row gets its end time (``ended``,
still ``live`` until settled), and every append, one by one or batched, refuses a game
that has ended, inside its own transaction. So nothing can follow the end in the log,
whatever the table does between the end and the settlement (which may be retried for
a while: the database may be locked, the process may die).

Settlement happens once. ``settle_game`` first flips the game from ``live`` to
``settled`` (an ``UPDATE … WHERE status = 'live'``, which on PostgreSQL locks the row
and on SQLite runs inside a write-locked transaction); only the call that flips it
writes beans, points and stats, all in that same transaction. A second call, even a
concurrent one, finds the game settled and changes nothing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, cast

from sqlalchemy import delete, func, select, text, update
from sqlalchemy.dialects import sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.games import VARIANTS
from cardhall.hall.domain.errors import (
    BadRequest,
    Conflict,
    Fenced,
    HallError,
    NotEnoughBeans,
    NotFound,
)
from cardhall.hall.domain.ratings import Change
from cardhall.hall.store import ratings
from cardhall.hall.store.accounts import new_id
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_reads import LIVE
from cardhall.hall.store.ledger import GOLDEN_EYE, add_entry, balances_in, held_of, lock_players
from cardhall.hall.store.log_thread import GameAt, LogRow, append_one, append_rows
from cardhall.hall.store.models import Action, Game, Hold, ItemEntry, Player, Score, Stat, utcnow
from cardhall.hall.store.ratings import Rated

SETTLED, DISSOLVED = "settled", "dissolved"


@dataclass(frozen=True)
class GameStart:
    """One game to record: ``create_game``'s arguments."""

    table_id: str
    room_id: str
    variant: str
    players: Sequence[str | None]
    seed: int
    options: Mapping[str, Any] | None = None
    game_id: str | None = None
    fence: int | None = None
    holds: Mapping[str, int] | None = None
    private: bool = False
    #: A private table's owner, and whether others than admins may watch it (观战).
    owner: str | None = None
    spectators: bool = True


async def create_game(db: Database, *, table_id: str, room_id: str, variant: str,
                      players: Sequence[str | None], seed: int,
                      options: Mapping[str, Any] | None = None, game_id: str | None = None,
                      now: datetime | None = None, fence: int | None = None,
                      holds: Mapping[str, int] | None = None, private: bool = False) -> str:
    """Record a new live game and return its id. ``players`` are player ids by seat
    (None for a bot seat); the record starts with the variant, options and seed.

    ``holds`` (player → beans) are held for the game in the same transaction: the
    balance its floors were computed on. NotEnoughBeans (nothing recorded) when a
    player no longer has that much free (he spent some since it was read): the caller
    reads the balances again. A ``private`` game holds nothing."""
    [made] = await create_games(db, [GameStart(
        table_id, room_id, variant, players, seed, options, game_id, fence, holds,
        private)], now)
    if isinstance(made, Exception):
        raise made
    return made


async def create_games(db: Database, starts: Sequence[GameStart],
                       now: datetime | None = None) -> list[str | HallError]:
    """``create_game`` for several games in one transaction, in order (a hold counts
    against the games after it, as if each had its own transaction): each game's id, or
    why it was not recorded (BadRequest, NotFound, NotEnoughBeans; the others are).
    A fixed number of statements whatever the count (``store.starts`` gathers them)."""
    now = now or utcnow()
    made: list[str | HallError] = []
    for start in starts:
        try:
            _check_start(start)
            made.append(start.game_id or new_id())
        except BadRequest as exc:
            made.append(exc)
    kept = [i for i, m in enumerate(made) if isinstance(m, str)]
    humans = sorted({p for i in kept for p in starts[i].players if p is not None})
    holders = sorted({p for i in kept if starts[i].holds and not starts[i].private
                      for p in starts[i].holds or ()})
    have: dict[str, int] = {}
    held: dict[str, int] = {}
    async with db.transaction() as s:
        found = set((await s.execute(select(Player.id).where(Player.id.in_(humans))))
                    .scalars()) if humans else set()
        if holders:  # no purchase between the read and the holds (id order: no deadlock)
            await s.execute(select(Player.id).where(Player.id.in_(holders))
                            .order_by(Player.id).with_for_update())
            have, held = await balances_in(s, holders), await held_of(s, holders)
        rows: list[Game] = []
        holding: list[Hold] = []
        for i in kept:
            start, gid = starts[i], str(made[i])
            if missing := [p for p in start.players if p is not None and p not in found]:
                made[i] = NotFound(f"no player {missing[0]!r}")
                continue
            holds = start.holds if start.holds and not start.private else {}
            if short := [p for p in sorted(holds) if have[p] - held[p] < holds[p]]:
                made[i] = NotEnoughBeans(f"{short[0]} has {have[short[0]] - held[short[0]]} "
                                         f"beans free, not the {holds[short[0]]} the game "
                                         "was dealt")
                continue
            record = {"variant": start.variant, "version": VARIANTS[start.variant].version,
                      "options": dict(start.options or {}), "seed": start.seed, "actions": []}
            rows.append(Game(id=gid, table_id=start.table_id, room_id=start.room_id,
                             variant=start.variant, players=list(start.players), record=record,
                             status=LIVE, started=now, fence=start.fence or 0,
                             private=start.private, owner=start.owner,
                             spectators=start.spectators))
            for pid in sorted(holds):  # 0 too: a restart reads the balances it was dealt
                held[pid] += holds[pid]
                holding.append(Hold(game_id=gid, player_id=pid, amount=holds[pid],
                                    created=now))
        s.add_all(rows)
        await s.flush()  # the game rows first: the holds refer to them
        s.add_all(holding)
    return made


def _check_start(start: GameStart) -> None:
    """What makes a game unrecordable whatever the database holds (BadRequest)."""
    if start.variant not in VARIANTS:
        raise BadRequest(f"unknown variant {start.variant!r}")
    if len(start.players) != VARIANTS[start.variant].players:
        raise BadRequest(f"{start.variant} seats {VARIANTS[start.variant].players} players, "
                         f"not {len(start.players)}")
    humans = [p for p in start.players if p is not None]
    if len(set(humans)) != len(humans):
        raise BadRequest("a player can take only one seat in a game")
    if start.holds and not start.private:
        if bad := sorted(set(start.holds) - set(humans)):
            raise BadRequest(f"holds: player {bad[0]!r} is not seated in this game")
        for pid, amount in start.holds.items():
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise BadRequest(f"holds: {pid!r} has {amount!r}, not a count of beans")


async def dealt_balances(db: Database, game_id: str) -> dict[str, int]:
    """The balances a live game was dealt (its holds), by player; empty for a game that
    holds nothing (a private one, or one started before holds existed)."""
    async with db.read() as s:
        rows = await s.execute(select(Hold.player_id, Hold.amount)
                               .where(Hold.game_id == game_id))
        return {str(p): int(x) for p, x in rows.all()}


async def claim_games(db: Database, table_id: str, fence: int) -> int:
    """Store ``fence`` on the table's live games (a process took the table over); from
    its commit on, writes with an older token are refused. Returns how many games."""
    async with db.transaction() as s:
        done = await s.execute(update(Game).where(Game.table_id == table_id,
                                                  Game.status == LIVE, Game.fence < fence)
                               .values(fence=fence))
        return int(done.rowcount)  # type: ignore[attr-defined]


async def set_spectators(db: Database, game_id: str, on: bool,
                         fence: int | None = None) -> None:
    """Store whether others than admins may watch the live game's table (观战): what a
    table rebuilt from the log keeps. A game no longer live takes nothing (the table's
    next game is recorded with the setting); Fenced for a stale owner."""
    async with db.transaction() as s:
        where = [Game.id == game_id, Game.status == LIVE]
        if fence is not None:
            where.append(Game.fence == fence)
        done = await s.execute(update(Game).where(*where).values(spectators=on))
        if not done.rowcount and fence is not None:  # type: ignore[attr-defined]
            stored = await s.scalar(select(Game.fence).where(Game.id == game_id))
            if stored is not None:
                _check_fence(game_id, stored, fence)


def _check_fence(game_id: str, stored: int, fence: int | None) -> None:
    if fence is not None and stored != fence:
        raise Fenced(f"game {game_id} is owned under fence {stored}, not {fence}: "
                     "this process lost the table")


async def append_action(db: Database, game_id: str, seq: int, action: str,
                        seat: int | None, now: datetime | None = None,
                        fence: int | None = None, final: bool = False) -> None:
    """Append the ``seq``-th accepted action (1 for the first) of a live game.

    ``final``: this action ends the game; the game is marked ended in the same
    transaction, and takes no action after it.

    Conflict when the game is not live or has ended, or ``seq`` is not the next
    number (the action was already written, perhaps by another process): the caller's
    view is stale. Fenced when ``fence`` is given and is not the game's.
    """
    if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
        raise BadRequest(f"seq counts from 1, not {seq!r}")
    now = now or utcnow()

    def check(found: GameAt | None, last: int) -> None:
        """The append's refusals, read inside its transaction (before the insert)."""
        if found is None:
            raise NotFound(f"no game {game_id!r}")
        _check_fence(game_id, found.fence, fence)
        if found.status != LIVE:
            raise Conflict(f"game {game_id} is {found.status}")
        if found.ended:
            raise Conflict(f"game {game_id} is over: it takes no more actions")
        if seq != last + 1:
            raise Conflict(f"game {game_id} has {last} actions; seq {seq} is stale")

    try:
        if db.dialect == "sqlite":  # one call on the log's thread (``log_thread``)
            row: LogRow = (game_id, seq, seat, action, _created_on_sqlite(now))
            await db.write_log(lambda conn: append_one(conn, row, check, final=final))
            return
        async with db.transaction(urgent=True) as s:
            query = select(Game.status, Game.fence, Game.ended).where(Game.id == game_id)
            if fence is not None or final:
                query = query.with_for_update(read=not final)
            stored = (await s.execute(query)).one_or_none()
            found = None if stored is None else GameAt(stored[0], stored[1], stored[2] is not None)
            last = 0 if found is None else await s.scalar(
                select(func.coalesce(func.max(Action.seq), 0)).where(Action.game_id == game_id))
            check(found, int(last or 0))
            s.add(Action(game_id=game_id, seq=seq, seat=seat, action=action, created=now))
            if final:
                await s.execute(update(Game).where(Game.id == game_id).values(ended=now))
    except (IntegrityError, sqlite3.IntegrityError):
        raise Conflict(f"game {game_id} already has action {seq}") from None


#: PostgreSQL: a batch of the action log as one statement, whatever its size (the rows
#: come as arrays, so the statement is prepared once): each row is written only if its
#: game is live and not over (``ended``: its final action is logged) and, when it
#: carries a token, the game's token is that one. The game
#: rows are read FOR SHARE (when fenced), so a takeover's claim waits for the insert in
#: flight, and a claim that commits first makes the insert see the new token.
_PG_APPEND = """
INSERT INTO actions (game_id, seq, seat, action, created)
SELECT v.game_id, v.seq, v.seat, v.action, v.created
FROM unnest(CAST(:games AS varchar[]), CAST(:seqs AS integer[]), CAST(:seats AS integer[]),
            CAST(:actions AS text[]), CAST(:created AS timestamptz[]),
            CAST(:fences AS bigint[])) AS v(game_id, seq, seat, action, created, fence)
JOIN games g ON g.id = v.game_id
WHERE g.status = 'live' AND g.ended IS NULL AND (v.fence IS NULL OR g.fence = v.fence)
RETURNING game_id, seq
"""

ActionRow = tuple[str, int, str, int | None, datetime, int | None]


async def append_actions(db: Database, rows: Sequence[ActionRow]) -> list[ActionRow]:
    """Append many actions, of any games, at once; returns the rows it did not write.

    ``rows`` are (game, seq, action, seat, created, fence). A row is written when its
    game is live and not over (no final action: see ``append_action``) and its fence
    (if any) is the game's; the others are returned, for the
    caller to write with ``append_action``, which says why each is refused (Fenced,
    Conflict, NotFound). The (game, seq) key refuses an action that was already written:
    then nothing is written and the batch raises Conflict. Unlike ``append_action`` it
    does not look up each game's last seq: its caller (the table, through
    ``journal.ActionJournal``) knows it, and the key refuses a second writer of the
    same number.

    On PostgreSQL that is one statement and one round trip (``_PG_APPEND``, committed
    by itself); on SQLite one transaction that reads the games, then inserts, run on
    the log's own thread in one call (``log_thread``).
    """
    if not rows:
        return []
    try:
        if db.dialect == "postgresql":
            written = await _append_pg(db, rows, fenced=any(r[5] is not None for r in rows))
        else:
            written = await _append_sqlite(db, rows)
    except (IntegrityError, sqlite3.IntegrityError):
        raise Conflict("an action of this batch was already written") from None
    return [r for r in rows if (r[0], r[1]) not in written]


async def _append_pg(db: Database, rows: Sequence[ActionRow],
                     fenced: bool) -> set[tuple[str, int]]:
    sql = _PG_APPEND.replace("RETURNING", "FOR SHARE OF g\nRETURNING") if fenced else \
        _PG_APPEND
    params = {"games": [r[0] for r in rows], "seqs": [r[1] for r in rows],
              "actions": [r[2] for r in rows], "seats": [r[3] for r in rows],
              "created": [r[4] for r in rows], "fences": [r[5] for r in rows]}
    async with (db.log or db.engine).connect() as conn:  # the log's own connection
        auto = await conn.execution_options(isolation_level="AUTOCOMMIT")
        done = await auto.execute(text(sql), params)
        return {(str(g), int(q)) for g, q in done.all()}


async def _append_sqlite(db: Database, rows: Sequence[ActionRow]) -> set[tuple[str, int]]:
    values = [(g, seq, seat, action, _created_on_sqlite(created))
              for g, seq, action, seat, created, _ in rows]
    fences = [r[5] for r in rows]
    return await db.write_log(lambda conn: append_rows(conn, values, fences))


def _sqlite_stamp() -> Callable[[datetime], str]:
    """How the engine stores an action's time on SQLite (the log's thread writes it as
    the engine would, so every reader parses it the same)."""
    stamp = Action.__table__.c.created.type.bind_processor(sqlite.dialect())
    assert stamp is not None
    return cast(Callable[[datetime], str], stamp)


_created_on_sqlite = _sqlite_stamp()


async def _finish(s: AsyncSession, game_id: str, status: str, now: datetime,
                  result: Mapping[str, Any] | None, record: Mapping[str, Any] | None,
                  fence: int | None = None, release: bool = True) -> bool:
    """Flip a live game to ``status``; False if it was not live. Fenced if ``fence`` is
    given and is not the game's (then nothing changes, whatever its status). The
    game's holds are deleted with the flip (``release``; a settlement that reads them
    first deletes them itself)."""
    values: dict[str, Any] = {"status": status, "ended": now}
    if result is not None:
        values["result"] = dict(result)
    if record is not None:
        values["record"] = dict(record)
    where = [Game.id == game_id, Game.status == LIVE]
    if fence is not None:
        where.append(Game.fence == fence)
    done = await s.execute(update(Game).where(*where).values(**values))
    if done.rowcount:  # type: ignore[attr-defined]
        if release:
            await s.execute(delete(Hold).where(Hold.game_id == game_id))
        return True
    if fence is not None:
        stored = await s.scalar(select(Game.fence).where(Game.id == game_id))
        if stored is not None:
            _check_fence(game_id, stored, fence)
    return False


async def dissolve_game(db: Database, game_id: str, result: Mapping[str, Any] | None = None,
                        record: Mapping[str, Any] | None = None,
                        now: datetime | None = None, fence: int | None = None) -> bool:
    """End a game without scoring it (void, dissolved, or every seat on 托管): no beans,
    no fee, no points; it never counts on a leaderboard. False if it had already
    ended (nothing changes); Fenced for a stale owner."""
    async with db.transaction() as s:
        if await _finish(s, game_id, DISSOLVED, now or utcnow(), result, record, fence):
            return True
        if await s.get(Game, game_id) is None:
            raise NotFound(f"no game {game_id!r}")
        return False


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a settlement did. ``applied`` is False when the game had been settled
    before (then ``beans`` repeats what the first settlement stored)."""

    game_id: str
    applied: bool
    beans: dict[str, int]           # seat (as text) → bean change, as in the `settled` message
    deltas: dict[str, int]          # player id → bean change actually applied
    #: Player id → cumulative points after it (the titles to show), read in the same
    #: transaction; empty when ``applied`` is False.
    totals: dict[str, int] = field(default_factory=dict)
    #: Player id → bean balance after it, read in the same transaction (what a
    #: settlement shows as "before → after"); empty when ``applied`` is False.
    balances: dict[str, int] = field(default_factory=dict)
    #: Seat (as text) → its rating change in the variant (``store.ratings.apply``): the
    #: seats the game rated, also when ``applied`` is False (read back then).
    ratings: dict[str, Change] = field(default_factory=dict)


def _check_players(what: str, given: Mapping[str, int], seated: set[str]) -> None:
    extra = sorted(set(given) - seated)
    if extra:
        raise BadRequest(f"{what}: player {extra[0]!r} is not seated in this game")
    missing = sorted(seated - set(given))
    if missing:
        raise BadRequest(f"{what}: no value for seated player {missing[0]!r}")
    for pid, v in given.items():
        if isinstance(v, bool) or not isinstance(v, int):
            raise BadRequest(f"{what}: {pid!r} has {v!r}, not a whole number")


async def _lock_stats(s: AsyncSession, player_ids: Collection[str],
                      variant: str) -> dict[str, Stat]:
    """The players' stats rows of ``variant`` that exist, locked (in id order)."""
    rows = (await s.execute(select(Stat).where(Stat.player_id.in_(sorted(player_ids)),
                                               Stat.variant == variant)
                            .order_by(Stat.player_id).with_for_update())).scalars()
    return {st.player_id: st for st in rows}


def _add_score(s: AsyncSession, player: Player, stat: Stat | None, game_id: str,
               variant: str, points: int, beans: int, won: bool, now: datetime,
               ranked: bool = True) -> None:
    """The game in the player's record and level; in his ``ranked_`` values (the
    leaderboards') only if ``ranked`` (not a private table's game)."""
    s.add(Score(game_id=game_id, player_id=player.id, variant=variant, points=points,
                beans=beans, won=won, created=now))
    if stat is None:
        stat = Stat(player_id=player.id, variant=variant, games=0, wins=0, points=0, beans=0,
                    ranked_games=0, ranked_points=0)
        s.add(stat)
    _count(stat, player, points, now, "")
    if ranked:
        _count(stat, player, points, now, "ranked_")
    stat.wins += int(won)
    stat.beans += beans


def _count(stat: Stat, player: Player, points: int, now: datetime,
           columns: Literal["", "ranked_"]) -> None:
    """One more game worth ``points`` in one set of counters: the record's (``""``) or
    the leaderboards' (``"ranked_"``), which have the same shape: the variant's games,
    points and when they last changed, and the player's total and when it last changed.
    The total is floored at 0 at every step (a loss at 0 banks no debt)."""
    games, sum_, sum_at = f"{columns}games", f"{columns}points", f"{columns}points_at"
    setattr(stat, games, getattr(stat, games) + 1)
    if points:
        setattr(stat, sum_, getattr(stat, sum_) + points)
        setattr(stat, sum_at, now)
    before: int = getattr(player, sum_)
    total = max(0, before + points)
    if total != before:
        setattr(player, sum_, total)
        setattr(player, sum_at, now)


async def settle_game(db: Database, game_id: str, deltas_by_player: Mapping[str, int],
                      points_by_player: Mapping[str, int], variant: str, *,
                      result: Mapping[str, Any] | None = None,
                      record: Mapping[str, Any] | None = None,
                      winners: Collection[str] | None = None, reason: str = "game",
                      items_used: Mapping[str, int] | None = None,
                      fees_by_player: Mapping[str, int] | None = None,
                      rated: Rated | None = None,
                      now: datetime | None = None, fence: int | None = None) -> Settlement:
    """Apply a finished game's beans, points and stats exactly once, in one transaction
    with marking it settled.

    ``deltas_by_player`` are the bean changes the game computed (fee included) and
    ``points_by_player`` each player's X, both for exactly the seated players (bots
    have no account). ``winners`` defaults to the players with positive points;
    ``reason`` is ``game``, or ``escape`` for a game ended by a player leaving. A loss
    is taken from what the game holds of the loser (``create_game``'s ``holds``, the
    balance its floors were computed on, which nothing could spend meanwhile), so the
    ledger of the game sums to −fees; the holds are released in the same transaction.
    A loser with no hold (a game started before holds existed) loses at most his
    balance. A private game moves no beans, whatever it is given; its points reach the
    players' records and levels but not the leaderboards' ``ranked_`` values.
    ``rated`` (None: the game moves no rating) moves the skill ratings, in the same
    transaction (``store.ratings``); a private game moves none, whatever it is given.

    Bad input (unknown game or player, a variant that is not the game's) raises and
    changes nothing. A second call, even a concurrent one, changes nothing and returns
    ``applied=False``.
    """
    if reason not in ("game", "escape"):
        raise BadRequest(f"a settlement's reason is game or escape, not {reason!r}")
    now = now or utcnow()
    async with db.transaction() as s:
        flipped = await _finish(s, game_id, SETTLED, now, result, record, fence,
                                release=False)
        game = await s.get(Game, game_id)
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        if not flipped:
            if game.status == DISSOLVED:
                raise Conflict(f"game {game_id} was dissolved; it cannot be settled")
            again = {} if rated is None else await ratings.moved(
                s, game_id, game.variant, rated.subjects)
            return Settlement(game_id, False, dict(game.beans or {}), {}, ratings=again)
        if variant != game.variant:
            raise BadRequest(f"game {game_id} is {game.variant}, not {variant}")
        seats = {pid: seat for seat, pid in enumerate(game.players) if pid is not None}
        _check_players("beans", deltas_by_player, set(seats))
        _check_players("points", points_by_player, set(seats))
        won = set(winners) if winners is not None else {
            p for p, x in points_by_player.items() if x > 0}
        if bad := won - set(seats):
            raise BadRequest(f"winner {sorted(bad)[0]!r} is not seated in this game")
        applied: dict[str, int] = {}
        totals: dict[str, int] = {}
        # A few statements for the whole table, not a few per player: the players
        # locked (in id order, as every settlement: no deadlocks), the losers' balances,
        # their stats for the variant.
        players = await lock_players(s, seats)
        held = {str(p): int(x) for p, x in (await s.execute(
            select(Hold.player_id, Hold.amount).where(Hold.game_id == game_id))).all()}
        have = await balances_in(s, [p for p in seats
                                     if deltas_by_player[p] < 0 and p not in held])
        await s.execute(delete(Hold).where(Hold.game_id == game_id))
        stats = await _lock_stats(s, seats, variant)
        for pid in sorted(seats):
            player = players[pid]
            delta = 0 if game.private else deltas_by_player[pid]
            if delta < 0:
                delta = max(delta, -held[pid] if pid in held else -have[pid])
            applied[pid] = delta
            used = (items_used or {}).get(pid, 0)
            if used:  # the Golden Eyes the game spent, once, with the game's settlement
                s.add(ItemEntry(player_id=pid, kind=GOLDEN_EYE, delta=-used, reason="use",
                                game_id=game_id, created=now))
            if delta:
                add_entry(s, pid, delta, reason, game_id=game_id, now=now)
            _add_score(s, player, stats.get(pid), game_id, variant, points_by_player[pid],
                       delta, pid in won, now, ranked=not game.private)
            totals[pid] = player.points
        beans = {str(seats[pid]): applied[pid] for pid in sorted(seats, key=seats.__getitem__)}
        game.beans = beans
        if fees_by_player is not None:  # kept for the replay's account of the settlement
            game.fees = {str(seats[pid]): 0 if game.private else int(fees_by_player[pid])
                         for pid in sorted(seats, key=seats.__getitem__)}
        moved = {} if rated is None or game.private else await ratings.apply(
            s, game_id, variant, rated.subjects, rated.standing, now)
        try:
            await s.flush()
        except IntegrityError:
            # The ledger's (game, player, reason) key: entries for this game exist,
            # which only a settlement can write. Refuse rather than pay twice.
            raise Conflict(f"game {game_id} already has ledger entries") from None
        after = await balances_in(s, seats)
        return Settlement(game_id, True, beans, applied, totals, after, moved)
