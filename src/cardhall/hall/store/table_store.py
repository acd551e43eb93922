"""The tables' storage over the hall database: action log, settlement, balances.

``DbStore`` is the one ``TableStore`` the hall runs on: a game row when a game
starts (its record without actions), one row per accepted action (group-committed
with other tables' actions by ``journal.ActionJournal``), and the
settlement of beans, points and stats in one transaction with the game's end.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from cardhall.games import GameState, standing
from cardhall.hall.domain.levels import title_of
from cardhall.hall.domain.ratings import Change, bot_subject
from cardhall.hall.store import game_rows as stored
from cardhall.hall.store import seatings
from cardhall.hall.store.db import Database
from cardhall.hall.store.journal import ActionJournal
from cardhall.hall.store.ledger import GOLDEN_EYE, balances_in, held_of, items_of
from cardhall.hall.store.models import Player
from cardhall.hall.store.ratings import Rated
from cardhall.hall.store.starts import GameStarts

if TYPE_CHECKING:
    from cardhall.hall.live.table import Table


log = logging.getLogger("cardhall.hall.store")


def _points(x: Any) -> int:
    """Whole points for the player's record (癞子's quarter points round half up)."""
    return int(x + 0.5) if x >= 0 else -int(-x + 0.5)


def _rated(table: Table, result: dict[str, Any]) -> Rated | None:
    """What the game rates (hall.domain.ratings): nothing at a private table (ruling
    14) or for a game not played to a score; else each seat's subject, a bot seat's
    being the fixed identity of the bot the room seats (``Room.bot``). A result whose
    sides cannot be read rates nothing (logged): a rating must never hold a game's
    settlement up."""
    if table.private:
        return None
    try:
        seen = standing(result)
    except (KeyError, IndexError, TypeError, ValueError):
        log.exception("game %s: no sides in its result; it rates nobody", table.game_id)
        return None
    if seen is None:
        return None
    bot = bot_subject(table.room.bot)
    return Rated([s.player if s.player is not None else bot for s in table.seats], seen)


class DbStore:
    def __init__(self, db: Database, gather: float = 0.0) -> None:
        self.db = db
        self.journal = ActionJournal(db, gather=gather)
        self.starts = GameStarts(db)

    async def start_game(self, table: Table, game: GameState) -> str:
        """Record the game; unless the table is private, hold each player's balance the
        game was dealt (``Seat.balance``): what its floors let him lose."""
        players = [s.player for s in table.seats]
        holds = None if table.private else {
            s.player: s.balance for s in table.seats if s.player is not None}
        return await self.starts.start(stored.GameStart(
            table_id=table.id, room_id=table.room.id, variant=game.variant.id,
            players=players, seed=game.seed, options=game.options, fence=table.fence,
            holds=holds, private=table.private, owner=table.owner,
            spectators=table.spectators))

    async def append(self, game_id: str, seq: int, action: str, seat: int | None,
                     fence: int | None = None, final: bool = False) -> None:
        await self.journal.append(game_id, seq, action, seat, fence, final)

    async def close(self) -> None:
        """Commit the actions and starts still pending; afterwards no append is taken."""
        await self.starts.close()
        await self.journal.close()

    async def settle(self, table: Table, game: GameState, beans: list[int],
                     fees: list[int] | None = None) -> dict[str, Any]:
        result = game.result()
        assert result is not None and table.game_id is not None
        humans = {s.player: i for i, s in enumerate(table.seats) if s.player is not None}
        record = game.record()
        totals: dict[str, int] = {}
        balances: dict[str, int] = {}
        rated: dict[str, Change] = {}
        if result["ended"] in ("unscored", "dissolved"):
            applied = await stored.dissolve_game(self.db, table.game_id, result=result,
                                                 record=record, fence=table.fence)
            by_seat = {str(i): 0 for i in humans.values()}
        else:
            deltas = {p: beans[i] for p, i in humans.items()}
            points = {p: _points(result["points"][i] + result["penalties"][i])
                      for p, i in humans.items()}
            winners = [p for p, i in humans.items() if i in result["winners"]]
            uses = getattr(game, "eye_uses", None)  # 欢乐/癞子's Golden Eye (黄金眼)
            used = {p: uses[i] for p, i in humans.items() if uses and uses[i]}
            done = await stored.settle_game(
                self.db, table.game_id, deltas, points, game.variant.id, result=result,
                record=record, winners=winners, items_used=used,
                fees_by_player=None if fees is None else {p: fees[i] for p, i in humans.items()},
                reason="escape" if result["ended"] == "escape" else "game",
                rated=_rated(table, result), fence=table.fence)
            applied, by_seat, rated = done.applied, done.beans, done.ratings
            totals, balances = done.totals, done.balances
        if len(totals) < len(humans):  # no points changed here: read the players' titles
            async with self.db.read() as s:
                rows = await s.execute(select(Player.id, Player.points).where(
                    Player.id.in_(list(humans))))
                totals = {str(p): int(x) for p, x in rows.all()}
                # nothing moved (or it had before): the balances as they stand
                balances = await balances_in(s, list(humans))
        async with self.db.read() as s:  # bot accounts' title is a bot's, whatever points
            bots = set(await s.scalars(select(Player.id).where(
                Player.id.in_(list(humans)), Player.bot_owner.is_not(None))))
        titles = {str(i): title_of(totals[p], p in bots) for p, i in humans.items()
                  if p in totals}
        # ``applied``: this call committed the game's end (False: it had been before,
        # e.g. a game rebuilt after a crash that had settled it), so it is counted once.
        return {"beans": by_seat, "titles": titles, "applied": applied,
                "points": {str(i): result["points"][i] for i in humans.values()},
                "balances": {str(i): balances[p] for p, i in humans.items() if p in balances},
                "ratings": {seat: c.to_json() for seat, c in rated.items()}}

    async def abandon(self, table: Table, game: GameState) -> None:
        """End a game that can never be played out (every seat on 托管, redealing)."""
        assert table.game_id is not None
        await stored.dissolve_game(self.db, table.game_id, record=game.record(),
                                   fence=table.fence)

    async def set_spectators(self, game_id: str, on: bool, fence: int | None) -> None:
        """Keep the owner's 观战 choice with the live game (``game_rows.set_spectators``)."""
        await stored.set_spectators(self.db, game_id, on, fence)

    async def golden_eyes(self, players: list[str]) -> dict[str, int]:
        """How many Golden Eyes each player holds: a 欢乐 game may spend them."""
        async with self.db.read() as s:
            return await items_of(s, players, GOLDEN_EYE)

    async def balances(self, players: list[str]) -> dict[str, int]:
        """What each player can stake: his balance less what live games hold of it (a
        player who escaped a game still running plays on with the rest)."""
        async with self.db.read() as s:
            have = await balances_in(s, players)
            held = await held_of(s, players)
            return {p: have[p] - held.get(p, 0) for p in have}

    async def person_of(self, player: str) -> str:
        """Who is behind the account: a bot account's owner, else the player himself
        (quick match keeps one person's accounts apart: ``coordinator.kept_apart``)."""
        async with self.db.read() as s:
            owner = await s.scalar(select(Player.bot_owner).where(Player.id == player))
        return owner or player

    async def claim_seats(self, table_id: str, players: list[str],
                          stale: seatings.Stale) -> dict[str, str]:
        """Seat ``players`` at the table (all or none); those seated elsewhere, with
        their tables (``seatings.claim``)."""
        return await seatings.claim(self.db, table_id, players, stale)

    async def release_seats(self, table_id: str, players: list[str]) -> None:
        await seatings.release(self.db, table_id, players)

    async def seats_held(self, table_id: str, players: list[str]) -> bool:
        """Does ``table_id`` hold every one of ``players``' seats already (a read)?"""
        return await seatings.all_at(self.db, table_id, players)

    async def seated_at(self, player: str) -> str | None:
        """The table the database seats ``player`` at, if any."""
        return await seatings.table_of(self.db, player)

    async def names(self, players: list[str]) -> dict[str, tuple[str, str]]:
        """Each player's name and title, for the seats."""
        async with self.db.read() as s:
            rows = (await s.execute(select(Player).where(Player.id.in_(players)))).scalars()
            return {p.id: (p.name, title_of(p.points, p.is_bot)) for p in rows}
