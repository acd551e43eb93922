"""A game's rows as the hall reads them back: one game whole (its record with every
logged action, replayable), the live ones a restarting process rebuilds, a private
game's readers, a table's fence. Reads only (``db.read``): they take no write lock,
so a locked database does not stop an adoption or a replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Action, Game

#: A game's status while it is played (``game_rows`` writes the others).
LIVE = "live"


async def actions(db: Database, game_id: str) -> list[str]:
    """The game's accepted actions, in order."""
    async with db.transaction() as s:
        return list((await s.execute(select(Action.action).where(Action.game_id == game_id)
                                     .order_by(Action.seq))).scalars())


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A game as stored; ``record`` includes every logged action (replayable)."""

    id: str
    table_id: str
    room_id: str
    variant: str
    players: list[str | None]
    record: dict[str, Any]
    result: dict[str, Any] | None
    beans: dict[str, int] | None
    status: str
    started: datetime
    ended: datetime | None
    fence: int = 0
    private: bool = False
    #: The fee in each seat's ``beans`` (None: settled before the hall kept it).
    fees: dict[str, int] | None = None
    #: A private table's owner, and whether others than admins may watch it (观战).
    owner: str | None = None
    spectators: bool = True

    def to_json(self) -> dict[str, Any]:
        """The shape of ``GET /api/games/{id}``."""
        return {"id": self.id, "table": self.table_id, "room": self.room_id,
                "variant": self.variant, "players": self.players, "record": self.record,
                "result": self.result, "beans": self.beans, "status": self.status,
                "started": self.started.isoformat(),
                "ended": self.ended.isoformat() if self.ended else None}


async def _stored(s: AsyncSession, game: Game) -> StoredGame:
    record = dict(game.record or {})
    if game.status == LIVE or not record.get("actions"):
        record["actions"] = list((await s.execute(
            select(Action.action).where(Action.game_id == game.id).order_by(Action.seq)))
            .scalars())
    return StoredGame(game.id, game.table_id, game.room_id, game.variant, list(game.players),
                      record, game.result, game.beans, game.status, game.started, game.ended,
                      game.fence, game.private, game.fees, game.owner, game.spectators)


async def get_game(db: Database, game_id: str) -> StoredGame | None:
    """Any game, live or finished (the server decides what it may show)."""
    async with db.read() as s:
        game = await s.get(Game, game_id)
        return None if game is None else await _stored(s, game)


async def private_players(db: Database, game_id: str
                          ) -> tuple[str, frozenset[str]] | None:
    """A game played at a private table (``Game.private``: points only): its table and
    its players; None for any other game, or none by that id (one indexed read: asked
    before a cached game is served)."""
    async with db.read() as s:
        row = (await s.execute(select(Game.private, Game.players, Game.table_id)
                               .where(Game.id == game_id))).one_or_none()
    if row is None or not row.private:
        return None
    return row.table_id, frozenset(p for p in row.players if p is not None)


async def live_games(db: Database) -> list[StoredGame]:
    """Every live game with its logged actions: what a restarting server rebuilds (a
    read: it takes no write lock, so a locked database does not stop the adoption)."""
    async with db.read() as s:
        games = (await s.execute(select(Game).where(Game.status == LIVE)
                                 .order_by(Game.started))).scalars().all()
        return [await _stored(s, g) for g in games]


async def live_game_of(db: Database, table_id: str) -> StoredGame | None:
    """The table's live game with its logged actions, if it has one (a read)."""
    async with db.read() as s:
        game = (await s.execute(select(Game).where(Game.table_id == table_id,
                                                   Game.status == LIVE)
                                .order_by(Game.started.desc()).limit(1))).scalar_one_or_none()
        return None if game is None else await _stored(s, game)


async def has_live_game(db: Database, table_id: str) -> bool:
    async with db.read() as s:
        return await s.scalar(select(Game.id).where(Game.table_id == table_id,
                                                    Game.status == LIVE).limit(1)) is not None


async def game_fence(db: Database, game_id: str) -> int | None:
    """The token stored on a game (its owner's), or None if there is no such game."""
    async with db.read() as s:
        fence = await s.scalar(select(Game.fence).where(Game.id == game_id))
        return None if fence is None else int(fence)


async def live_tables(db: Database) -> list[str]:
    """The tables that have a live game (each needs an owner)."""
    async with db.read() as s:
        return list((await s.execute(select(Game.table_id).where(Game.status == LIVE)
                                     .distinct())).scalars())
