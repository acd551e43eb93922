"""``GET /api/rooms/{room}/tables``: a room's live tables that may be watched (观战).

The list comes from the hall's census (every process's tables: ``Coordinator.census``,
a round trip to each process when several run), which a stranger must not make the
hall take at will: one census serves every request for ``FRESH_SECONDS`` (requests
that come while it runs wait for it), and an answer holds at most ``LIMIT`` tables.
A private table closed to spectators is never listed; one open to them is, marked.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardhall.hall.domain.errors import UnknownRoom
from cardhall.server.reading import ApiError, caller

if TYPE_CHECKING:
    from cardhall.server.app import Server

#: Seconds one census of the hall's tables answers every request.
FRESH_SECONDS = 2.0
#: Tables one answer lists at most (the most watched first, then the furthest on).
LIMIT = 50


class Census:
    """The hall's live tables, taken at most once per ``FRESH_SECONDS``."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._taken = -FRESH_SECONDS
        self._rows: list[dict[str, Any]] = []
        self._running: asyncio.Task[list[dict[str, Any]]] | None = None

    async def rows(self, server: Server) -> list[dict[str, Any]]:
        if self.clock() - self._taken < FRESH_SECONDS:
            return self._rows
        if self._running is None:
            self._running = asyncio.get_running_loop().create_task(self._take(server))
        return await asyncio.shield(self._running)

    async def _take(self, server: Server) -> list[dict[str, Any]]:
        try:
            rows = await server.hall.live_tables()
            self._rows, self._taken = rows, self.clock()
            return rows
        finally:
            self._running = None


def listed(rows: list[dict[str, Any]], room: str) -> list[dict[str, Any]]:
    """The rows of ``room`` a player may watch, as the endpoint shows them. A table's
    ``seq`` orders them but is not shown: a live count of its actions, polled, would tell
    a stranger when each seat acts (how long each one thinks), which 观战's delay hides."""
    rows = sorted((r for r in rows if r["room"] == room and r.get("spectators", True)
                   and r["phase"] != "closed"),
                  key=lambda r: (r["phase"] != "playing", -int(r.get("watchers") or 0),
                                 -int(r.get("seq") or 0), str(r["id"])))
    return [{"id": r["id"], "variant": r["variant"], "phase": r["phase"],
             "players": list(r.get("names") or []), "watchers": int(r.get("watchers") or 0),
             "private": bool(r["private"])} for r in rows[:LIMIT]]


async def room_tables(request: Request) -> Response:
    server: Server = request.app.state.server
    await caller(request)  # players only: the names at the tables are the hall's
    room_id = request.path_params["room_id"]
    try:
        room = server.hall.lobby.room(room_id)
    except UnknownRoom as exc:
        raise ApiError("not_found", str(exc)) from None
    rows = await server.census.rows(server)
    tables = listed(rows, room.id)
    return JSONResponse({"room": room.id, "tables": tables})
