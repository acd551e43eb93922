"""Challenges and the bot ladder over HTTP (issue 23; docs/protocol.md, "Challenges and
the ladder").

- ``POST /api/challenges`` ``{"opponent", "variant", "deals"}``: the signed-in player
  challenges a competitor who opted in (by name) or an anchor (``planning``,
  ``search``); the match starts at once (``hall.events.matches``).
- ``GET /api/challenges/{id}``: a match's standings (the ``event`` message's shape:
  per-deal points and matchpoints, the games' ids once it is over) and, once over,
  its outcome and the ladder ratings it moved.
- ``POST /api/ladder/optin`` ``{"on": true|false}``: the signed-in competitor joins
  the ladder (accepts challenges, is paired by its rounds) or leaves it.
- ``GET /api/ladder/{variant}``: a variant's ladder, for anyone: ratings, matches and
  deals played, the latest matches with their games' ids (replays are open).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.games import VARIANTS
from cardhall.hall.domain.errors import Forbidden, NotFound
from cardhall.hall.events import challenge, ladder, store
from cardhall.hall.events.runner import state_of
from cardhall.hall.store.models import LadderMatch
from cardhall.server import params
from cardhall.server.reading import ApiError, caller, read_json

if TYPE_CHECKING:
    from cardhall.server.app import Server


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


class ChallengeBody(BaseModel):
    """``POST /api/challenges``'s body; a field the hall does not know is refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    opponent: Annotated[str, Field(min_length=1, max_length=32)]
    variant: Annotated[str, Field(min_length=1, max_length=32)] = "ddz3"
    deals: int | None = None


_B = TypeVar("_B", bound=BaseModel)


class OptInBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    on: bool


def _body(model: type[_B], data: dict[str, Any]) -> _B:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(x) for x in first["loc"])[:32]
        raise ApiError("malformed", f"{where!r}: {first['msg']}") from None


async def make(request: Request) -> Response:
    server = _server(request)
    me = await caller(request)
    body = _body(ChallengeBody, await read_json(request))
    deals = body.deals if body.deals is not None else server.config.ladder.deals
    event_id = await server.hall.challenges.challenge(me, body.opponent, body.variant, deals)
    return JSONResponse({"challenge": event_id}, status_code=201)


async def show(request: Request) -> Response:
    server = _server(request)
    event_id = params.identifier(request.path_params["challenge_id"], "challenge", 32)
    snap = await store.snapshot(server.db, event_id)
    if snap is None or not challenge.is_challenge(snap.kind.id):
        raise NotFound(f"no challenge {event_id}")
    out: dict[str, Any] = state_of(snap).model_dump()
    out["variant"] = snap.kind.variant
    out["anchors"] = list(snap.kind.bots)
    async with server.db.read() as s:
        match = await s.get(LadderMatch, event_id)
    out["outcome"] = None if match is None else {
        "score": match.score, "matchpoints": [match.a_points, match.b_points],
        "ratings": [{"before": match.a_before, "after": match.a_after},
                    {"before": match.b_before, "after": match.b_after}]}
    return JSONResponse(out)


async def opt_in(request: Request) -> Response:
    server = _server(request)
    me = await caller(request)
    if not ladder.is_competitor(me):
        raise Forbidden("only a competitor's account joins the ladder")
    body = _body(OptInBody, await read_json(request))
    await ladder.set_opt_in(server.db, me.id, body.on)
    return JSONResponse({"on": body.on})


async def board(request: Request) -> Response:
    server = _server(request)
    variant = request.path_params["variant"]
    if variant not in VARIANTS:
        raise NotFound(f"no variant {params.identifier(variant, 'variant', 32)}")
    lines, matches = await ladder.board(server.db, variant, server.config.ladder.anchors)
    return JSONResponse({"variant": variant, "ratings": [x.to_json() for x in lines],
                         "matches": matches})


ROUTES = [
    Route("/api/challenges", make, methods=["POST"]),
    Route("/api/challenges/{challenge_id}", show, methods=["GET"]),
    Route("/api/ladder/optin", opt_in, methods=["POST"]),
    Route("/api/ladder/{variant}", board, methods=["GET"]),
]
