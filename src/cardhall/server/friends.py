"""Friends over HTTP (issue 22; docs/protocol.md, "Friends").

- ``GET /api/friends``: the caller's friends (each with where he is: online, at which
  table of which room), the requests asked of him and by him, whom he blocks.
- ``GET /api/friends/find?name=…``: registered players by exact name or name prefix
  (at most ``store.FIND_MAX``; never guests, never the caller, nothing private).
- ``POST /api/friends/{ask,accept,decline,remove,block,unblock}`` ``{"player": id}``.

Every route wants a registered player's token (a guest is ``forbidden``: minted in one
call, guests would make a request flood free; a bot account too: it has no friends),
and each is rate-limited per player (``hall.live.friends``). The live half (pushes,
``bring``) is the hall's.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.hall.domain.errors import Forbidden
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.live.friends import Friends
from cardhall.hall.store import friends as store
from cardhall.hall.store.models import Player
from cardhall.server import params
from cardhall.server.reading import ApiError, caller, read_json

if TYPE_CHECKING:
    from cardhall.server.app import Server

#: The longest name a search reads (a name is at most 32 characters).
SEARCH_MAX = 32


def _friends(request: Request) -> Friends:
    server: Server = request.app.state.server
    return server.hall.friends


async def _member(request: Request, limiter: RateLimiter | None, what: str) -> Player:
    """The registered caller, his ``what`` counted on ``limiter``."""
    player = await caller(request)
    if player.is_guest:
        raise Forbidden("register to have friends")
    if player.is_bot:  # a program has no friends to invite, nor to be asked by
        raise Forbidden("a bot account has no friends")
    if limiter is not None:
        Friends.limit(limiter, player.id, what)
    return player


class Target(BaseModel):
    """Every POST's body: ``{"player": id}`` and nothing else. A field the hall does not
    know is refused rather than ignored (an attacker's finding): a client that sends one
    believes it means something, and should hear that it does not."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    player: Annotated[str, Field(min_length=1, max_length=32, pattern=r"^[A-Za-z0-9_-]+$")]


async def _target(request: Request) -> str:
    try:
        return Target.model_validate(await read_json(request)).player
    except ValidationError as exc:
        first = exc.errors()[0]
        if first["type"] == "extra_forbidden":
            raise ApiError("malformed", f"unknown field {str(first['loc'][0])[:32]!r}: "
                           "the body is {\"player\": id}") from None
        raise ApiError("malformed", "'player' is a player's id") from None


def _people(rows: list[store.Someone]) -> list[dict[str, Any]]:
    return [r.to_json() for r in rows]


async def listing(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.lists, "listings")
    mine = await store.listing(friends.db, me.id)
    spots = await friends.whereabouts([f.id for f in mine.friends])
    return JSONResponse({
        "friends": [f.to_json() | spots[f.id].to_json() for f in mine.friends],
        "incoming": _people(mine.incoming), "outgoing": _people(mine.outgoing),
        "blocks": _people(mine.blocks),
        "limits": {"friends": store.FRIENDS_MAX, "pending": store.PENDING_MAX,
                   "blocks": store.BLOCKS_MAX}})


async def find(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.searches, "searches")
    text = (params.one(request, "name") or "").strip()
    if not text or len(text) > SEARCH_MAX or any(
            unicodedata.category(ch).startswith("C") for ch in text):
        raise ApiError("malformed", f"'name' is 1 to {SEARCH_MAX} visible characters")
    return JSONResponse({"players": _people(await store.find(friends.db, me.id, text))})


async def ask(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    outcome = await store.ask(friends.db, me, await _target(request))
    await friends.asked((await store.named(friends.db, [me.id]))[0], outcome)
    return JSONResponse({"player": outcome.other.to_json(),
                         "state": "friends" if outcome.friends else "asked"})


async def accept(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    asker = await _target(request)
    other = await store.accept(friends.db, me.id, asker)
    friends.accepted((await store.named(friends.db, [me.id]))[0], asker)
    return JSONResponse({"player": other.to_json(), "state": "friends"})


async def decline(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    await store.decline(friends.db, me.id, await _target(request))
    return JSONResponse({"ok": True})


async def remove(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    await store.remove(friends.db, me.id, await _target(request))
    return JSONResponse({"ok": True})


async def block(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    other = await store.block(friends.db, me.id, await _target(request))
    await friends.changed(me.id)
    return JSONResponse({"player": other.to_json(), "blocked": True})


async def unblock(request: Request) -> Response:
    friends = _friends(request)
    me = await _member(request, friends.asks, "friend requests")
    await store.unblock(friends.db, me.id, await _target(request))
    await friends.changed(me.id)
    return JSONResponse({"ok": True})


ROUTES = [
    Route("/api/friends", listing, methods=["GET"]),
    Route("/api/friends/find", find, methods=["GET"]),
    *(Route(f"/api/friends/{f.__name__}", f, methods=["POST"])
      for f in (ask, accept, decline, remove, block, unblock)),
]
