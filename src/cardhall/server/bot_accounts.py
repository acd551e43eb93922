"""Bot accounts over HTTP (issue 23; docs/bots.md, docs/protocol.md "Bot accounts").

- ``POST /api/bots`` ``{"name": …}``: a new bot of the caller; its id, name and token
  (shown this once: only its hash is kept).
- ``GET /api/bots``: the caller's live bots and how many he may hold.
- ``POST /api/bots/{name}/token``: a new token; the old one is revoked at once and the
  bot's open connections close (4401).
- ``DELETE /api/bots/{name}``: retire the bot: it logs in no more, its connections
  close; its games, ratings and name stay.
- ``GET /api/players/{id}``: anyone's public profile (name, title, points, record), a
  bot's with its owner: how a person learns whom he plays.

The writes want a registered player's token (``hall.store.bots`` says who may own
bots) and are rate-limited per owner (``[limits] bot_changes_per_minute``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.hall.domain.errors import TooManyTries
from cardhall.hall.store import accounts, bots
from cardhall.hall.store.models import Player
from cardhall.server.connection import CLOSE_SESSION_ENDED
from cardhall.server.reading import ApiError, caller, read_json

if TYPE_CHECKING:
    from cardhall.server.app import Server


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def _owner(request: Request, write: bool) -> Player:
    """The caller; a write is counted against his bot changes a minute."""
    server = _server(request)
    player = await caller(request)
    if write and not server.bot_limiter.allow(player.id):
        wait = max(1, int(server.bot_limiter.retry_after(player.id) + 0.999))
        raise TooManyTries(f"too many bot account changes: try again in {wait} s")
    return player


def _name(request: Request) -> str:
    name = request.path_params["name"]
    if not 1 <= len(name) <= 64:
        raise ApiError("not_found", "no such bot")
    return str(name)


async def _closed(server: Server, ended: bots.Ended, reason: str) -> None:
    """Close the bot's sockets of the ended sessions, in whichever process (4401)."""
    if ended.sessions:
        await server.hall.coord.disconnect(ended.bot.id, CLOSE_SESSION_ENDED, reason,
                                           ended.sessions)


def _made(login: accounts.Login) -> dict[str, object]:
    return {"id": login.player.id, "name": login.player.name, "token": login.token,
            "bot": True}


async def create(request: Request) -> Response:
    server = _server(request)
    owner = await _owner(request, write=True)
    data = await read_json(request)
    made = await bots.create(server.db, owner, data.get("name"), server.config.economy,
                             server.config.accounts.bots_per_owner)
    return JSONResponse(_made(made), status_code=201)


async def listing(request: Request) -> Response:
    server = _server(request)
    owner = await _owner(request, write=False)
    return JSONResponse({"bots": [b.to_json() for b in await bots.mine(server.db, owner.id)],
                         "most": server.config.accounts.bots_per_owner})


async def new_token(request: Request) -> Response:
    server = _server(request)
    owner = await _owner(request, write=True)
    made, ended = await bots.new_token(server.db, owner, _name(request))
    await _closed(server, ended, "this bot's token was replaced")
    return JSONResponse(_made(made) | {"ended": len(ended.sessions)})


async def retire(request: Request) -> Response:
    server = _server(request)
    owner = await _owner(request, write=True)
    ended = await bots.retire(server.db, owner, _name(request))
    await _closed(server, ended, "this bot was retired")
    return JSONResponse({"id": ended.bot.id, "name": ended.bot.name, "retired": True})


async def player(request: Request) -> Response:
    """A player's public profile: never his beans, sessions or tables."""
    server = _server(request)
    await caller(request)  # players look each other up; nobody else
    player_id = request.path_params["player_id"]
    if not 1 <= len(player_id) <= 32:
        raise ApiError("not_found", "no such player")
    prof = (await accounts.profile(server.db, player_id)).to_json()
    public = ("id", "name", "guest", "bot", "owner", "title", "level", "points", "record")
    return JSONResponse({k: prof[k] for k in public})


ROUTES = [
    Route("/api/bots", create, methods=["POST"]),
    Route("/api/bots", listing, methods=["GET"]),
    Route("/api/bots/{name}/token", new_token, methods=["POST"]),
    Route("/api/bots/{name}", retire, methods=["DELETE"]),
    Route("/api/players/{player_id}", player, methods=["GET"]),
]
