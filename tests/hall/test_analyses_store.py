"""A game's analyses are kept with it, one per seat; a newer one replaces the older."""

from __future__ import annotations

from cardhall.hall.store import game_rows
from cardhall.hall.store.analyses import get_analysis, put_analysis
from cardhall.hall.store.db import Database


async def test_an_analysis_is_kept_per_seat_and_replaced(db: Database) -> None:
    game = await game_rows.create_game(db, table_id="t1", room_id="ddz3-novice",
                                       variant="ddz3", players=[None, None, None], seed=7)
    assert await get_analysis(db, game, 0) is None
    await put_analysis(db, game, 0, {"version": 1, "accuracy": 80.0})
    await put_analysis(db, game, 2, {"version": 1, "accuracy": 60.0})
    assert await get_analysis(db, game, 0) == {"version": 1, "accuracy": 80.0}
    await put_analysis(db, game, 0, {"version": 2, "accuracy": 81.0})
    assert await get_analysis(db, game, 0) == {"version": 2, "accuracy": 81.0}
    assert await get_analysis(db, game, 2) == {"version": 1, "accuracy": 60.0}
    assert await get_analysis(db, game, 1) is None
