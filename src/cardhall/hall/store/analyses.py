"""Finished games' analyses, kept with the game (``models.GameAnalysis``).

An analysis is computed once per (game, seat) and read back after: the game cannot
change, so neither can what was said about it, until the analysis itself changes (its
``version``): the server then computes it again and the new one replaces the row. Two
processes of one hall that both computed it write the same analysis (it is
deterministic given its seed): the last write stays.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

from cardhall.hall.store.db import Database
from cardhall.hall.store.models import GameAnalysis


async def get_analysis(db: Database, game_id: str, seat: int) -> dict[str, Any] | None:
    """The stored analysis of ``seat`` in the game, if there is one."""
    async with db.read() as s:
        row = await s.get(GameAnalysis, (game_id, seat))
        return None if row is None else dict(row.body)


async def put_analysis(db: Database, game_id: str, seat: int, body: dict[str, Any]) -> None:
    """Keep an analysis with its game, in place of an older one of that seat."""
    try:
        async with db.transaction() as s:
            await s.merge(GameAnalysis(game_id=game_id, seat=seat, body=body))
    except IntegrityError:  # written by another process between the read and the write
        return
