"""Where each player sits, kept by the database: a player is seated at most once.

Two joins of one player racing (two sockets, two processes) must not both seat him:
every seat is claimed here first, as a ``seatings`` row keyed by the player, and the
database refuses a second row for him whatever process or task asks. A claim is for a
whole table's players at once and takes all or none of them; it is given back when the
player leaves the table or the table closes (``release``).

A table that ended without giving its rows back (its process was killed) leaves them
behind; the caller knows whether such a table still runs (a lease, a live game to
adopt) and a claim that finds a row of a table that does not is allowed to take it
over (``stale``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from datetime import datetime

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from cardhall.hall.store.db import Database
from cardhall.hall.store.models import Seating, utcnow

#: Is this table gone (no process runs it, nothing to adopt)? Its rows may be taken.
Stale = Callable[[str], Awaitable[bool]]


class _Taken(Exception):
    """Rolls a claim back: ``others`` maps each player seated elsewhere to his table."""

    def __init__(self, others: dict[str, str]) -> None:
        super().__init__(others)
        self.others = others


async def _try_claim(db: Database, table_id: str, players: list[str],
                     now: datetime) -> dict[str, str]:
    try:
        async with db.transaction() as s:
            await _insert(s, db.dialect, table_id, players, now)
            rows = await s.execute(select(Seating.player_id, Seating.table_id)
                                   .where(Seating.player_id.in_(players)))
            others = {str(p): str(t) for p, t in rows.all() if t != table_id}
            if others:
                raise _Taken(others)
    except _Taken as taken:
        return taken.others
    return {}


async def _insert(s: AsyncSession, dialect: str, table_id: str, players: list[str],
                  now: datetime) -> None:
    """One row per player, none where he has one already (the key keeps the old one)."""
    values = [{"player_id": p, "table_id": table_id, "created": now} for p in players]
    insert = pg_insert if dialect == "postgresql" else sqlite_insert
    await s.execute(insert(Seating).values(values).on_conflict_do_nothing(
        index_elements=["player_id"]))


async def claim(db: Database, table_id: str, players: Collection[str], stale: Stale,
                now: datetime | None = None) -> dict[str, str]:
    """Seat ``players`` at ``table_id``: all of them, or (when some sit elsewhere) none.

    Returns the players seated at another table that still runs, each with that table
    (empty: all are seated here). Claiming again for the same table changes nothing.
    A row of a table that ``stale`` says is gone is deleted and the claim tried again.
    """
    ids = sorted(set(players))
    if not ids:
        return {}
    now = now or utcnow()
    checked: set[str] = set()
    while True:
        others = await _try_claim(db, table_id, ids, now)
        gone = {p: t for p, t in others.items() if t not in checked and await stale(t)}
        checked.update(others.values())
        if not gone:
            return others
        async with db.transaction() as s:  # only the row we judged: a new one stays
            for player, table in gone.items():
                await s.execute(delete(Seating).where(Seating.player_id == player,
                                                      Seating.table_id == table))


async def release(db: Database, table_id: str, players: Collection[str]) -> None:
    """``players`` no longer sit at ``table_id`` (rows of other tables stay)."""
    if not players:
        return
    async with db.transaction() as s:
        await s.execute(delete(Seating).where(Seating.table_id == table_id,
                                              Seating.player_id.in_(sorted(set(players)))))


async def table_of(db: Database, player: str) -> str | None:
    """The table ``player`` is seated at, if any."""
    async with db.read() as s:
        return await s.scalar(select(Seating.table_id).where(Seating.player_id == player))


async def all_at(db: Database, table_id: str, players: Collection[str]) -> bool:
    """Is every one of ``players`` seated at ``table_id`` already? A read: a table
    rebuilt while the database is write-locked finds its seats as they were."""
    ids = set(players)
    if not ids:
        return True
    async with db.read() as s:
        rows = await s.scalars(select(Seating.player_id).where(
            Seating.table_id == table_id, Seating.player_id.in_(sorted(ids))))
        return set(rows.all()) == ids
