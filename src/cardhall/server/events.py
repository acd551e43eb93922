"""比赛场 over HTTP: what events there are, and one event's standings.

- ``GET /api/events``: every event kind with its rules (fee, places' prizes, chips,
  rounds, stakes) and its open event's entrants so far.
- ``GET /api/events/{id}``: an event's standings, the ``event`` message's shape.

Both are reads anyone may make (the standings name no card); entering and withdrawing
are WebSocket messages (``enter``, ``withdraw``: docs/protocol.md, "Events").
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.hall.domain.errors import NotFound
from cardhall.hall.events import store
from cardhall.hall.events.runner import kinds_listing, state_of
from cardhall.server import params
from cardhall.server.api import _server


async def listing(request: Request) -> Response:
    server = _server(request)
    kinds = list(server.config.events)
    found = await store.open_or_running(server.db, [k.id for k in kinds])
    return JSONResponse(kinds_listing(kinds, found))


async def standings(request: Request) -> Response:
    server = _server(request)
    event_id = params.identifier(request.path_params["event_id"], "event", 32)
    snap = await store.snapshot(server.db, event_id)
    if snap is None:
        raise NotFound(f"no event {event_id}")
    return JSONResponse(state_of(snap).model_dump())


ROUTES = [
    Route("/api/events", listing, methods=["GET"]),
    Route("/api/events/{event_id}", standings, methods=["GET"]),
]
