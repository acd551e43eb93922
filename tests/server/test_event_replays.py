"""A duplicate event's games are closed to replays until the event is over, over HTTP,
against a real hall: ``GET /api/games/{id}``, its replay and its analysis are 404 while
the event runs (an entrant must not see a deal he has not played yet), then open to
everyone (docs/rulings.md, "Events" 11)."""

from __future__ import annotations

import asyncio

import httpx
from sqlalchemy import update

from cardhall.hall.domain.config import EventKind
from cardhall.hall.events.store import table_id
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import create_game, dissolve_game
from cardhall.hall.store.models import Event, EventTable
from tests.server.conftest import HallProcess

KIND = EventKind(id="dup-http", format="duplicate", entrants=2, deals=1, prizes=(100,))


async def event_game(hall: HallProcess, status: str) -> tuple[str, str]:
    """(event id, a finished game at its table), written straight to the hall's
    database; the event is left ``status`` (open: the hall's runner has nothing to do)."""
    db = Database.open(hall.db_url)
    try:
        event_id = f"vdup{status}"
        table = table_id(event_id, 0, 0)
        async with db.transaction() as s:
            s.add(Event(id=event_id, kind=f"{KIND.id}-{status}", format="duplicate",
                        config=KIND.model_dump(by_alias=True, mode="json"), status=status,
                        round=0, seeds=[7]))
            await s.flush()
            s.add(EventTable(table_id=table, event_id=event_id, round=0, seats=[0]))
        gid = await create_game(db, table_id=table, room_id=KIND.room().id, variant="ddz3",
                                players=[None, None, None], seed=7)
        await dissolve_game(db, gid)
        return event_id, gid
    finally:
        await db.close()


async def set_done(hall: HallProcess, event_id: str) -> None:
    db = Database.open(hall.db_url)
    try:
        async with db.transaction() as s:
            await s.execute(update(Event).where(Event.id == event_id).values(status="done"))
    finally:
        await db.close()


def test_a_duplicate_events_games_open_only_once_it_is_over(hall: HallProcess) -> None:
    event_id, gid = asyncio.run(event_game(hall, "open"))
    paths = [f"/api/games/{gid}", f"/api/games/{gid}/replay",
             f"/api/games/{gid}/analysis?seat=0"]
    for path in paths:
        closed = httpx.get(hall.url + path)
        assert closed.status_code == 404, path
        assert "duplicate event" in closed.json()["message"]
    asyncio.run(set_done(hall, event_id))
    assert httpx.get(f"{hall.url}/api/games/{gid}").json()["id"] == gid
    assert httpx.get(f"{hall.url}/api/games/{gid}/replay").status_code == 200
