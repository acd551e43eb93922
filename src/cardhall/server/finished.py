"""Finished games over HTTP: ``GET /api/games/{id}`` and ``GET /api/games/{id}/replay``.

A finished game never changes, and rendering it is the costly part (its replay
steps through every action with all hands: ~150 ms of CPU for a long game). So each
rendering is kept, in a least-recently-used cache bounded by bytes (``ByteCache``),
and served again from memory: the game's JSON as it is, with an ``ETag`` and
``Cache-Control: immutable``; the replay's frames spliced after a fresh head (the
seats' names and titles, which can change: a guest registers, a player levels up),
with an ``ETag`` the browser revalidates (a 304 costs one names query).

What cannot be served from the cache is rate-limited, per client address and, with a
valid session token, per account too (``[limits] replays_per_minute``): a refusal is
a 429 that says when to come back, in its sentence and in ``Retry-After``. Reading a
cached game again is never refused. Two requests for the same game that is not yet
cached render it once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardhall.games import IllegalAction
from cardhall.hall.domain import replays
from cardhall.hall.domain.errors import Conflict, NotFound
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.events.store import is_event_table, replay_closed
from cardhall.hall.live.seats import BOT_NAMES, BOT_TITLE
from cardhall.hall.store import accounts, ratings
from cardhall.hall.store.game_reads import LIVE, StoredGame, get_game, private_players
from cardhall.server import params

if TYPE_CHECKING:
    from cardhall.server.app import Server

#: The game's own answer may be kept by anyone, for ever: it cannot change.
IMMUTABLE = "public, max-age=31536000, immutable"
#: The replay's head can (names, titles): keep it, but ask again (a 304 when unchanged).
REVALIDATE = "no-cache"
#: A private table's game: its players' browsers may keep it, no shared cache may.
PRIVATE = "private, no-cache"


def dumps(value: Any) -> bytes:
    """JSON as Starlette's JSONResponse writes it."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, indent=None,
                      separators=(",", ":")).encode("utf-8")


def etag(body: bytes) -> str:
    """A weak validator (the same body goes out gzipped or not)."""
    return f'W/"{hashlib.blake2b(body, digest_size=16).hexdigest()}"'


class ByteCache:
    """Bodies by key, at most ``max_bytes`` in all: the least recently used go first.
    A body larger than an eighth of the whole is not kept (it would evict the rest)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self._items: OrderedDict[str, bytes] = OrderedDict()

    def get(self, key: str) -> bytes | None:
        body = self._items.get(key)
        if body is not None:
            self._items.move_to_end(key)
        return body

    def put(self, key: str, body: bytes) -> None:
        if len(body) > self.max_bytes // 8:
            return
        old = self._items.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._items[key] = body
        self.size += len(body)
        while self.size > self.max_bytes:
            _, dropped = self._items.popitem(last=False)
            self.size -= len(dropped)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True, slots=True)
class Limited:
    """A refusal: try again in ``seconds`` (whole, at least 1)."""

    seconds: int
    who: str


class ReplayGate:
    """The rate limits on rendering: one window per address, one per account."""

    def __init__(self, per_minute: int, clock: Callable[[], float] | None = None) -> None:
        kw = {} if clock is None else {"clock": clock}
        self.by_address = RateLimiter(per_minute, 60.0, **kw)
        self.by_account = RateLimiter(per_minute, 60.0, **kw)

    def check(self, address: str, account: str | None) -> Limited | None:
        """Count one rendering for ``address`` (and ``account``); None if allowed."""
        for limiter, key, who in ((self.by_address, address, "your address"),
                                  (self.by_account, account, "your account")):
            if key is not None and not limiter.allow(key):
                return Limited(max(1, int(limiter.retry_after(key) + 0.999)), who)
        return None


class FinishedGames:
    """The cache of rendered finished games and the gate in front of rendering."""

    def __init__(self, max_bytes: int, per_minute: int,
                 clock: Callable[[], float] | None = None) -> None:
        self.cache = ByteCache(max_bytes)
        self.gate = ReplayGate(per_minute, clock)
        self._pending: dict[str, asyncio.Future[bytes]] = {}

    async def body(self, key: str, render: Callable[[], Awaitable[bytes]]) -> bytes:
        """The cached body for ``key``, else ``render()``'s (once, however many ask at
        the same time), kept."""
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        pending = self._pending.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending[key] = future
        try:
            body = await render()
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: nobody else may be waiting
            raise
        finally:
            del self._pending[key]
        future.set_result(body)
        self.cache.put(key, body)
        return body


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def address_of(request: Request) -> str:
    return request.client.host if request.client else "?"


async def account_of(request: Request, server: Server) -> str | None:
    """The account a valid Bearer token names, if any (an invalid one counts as none)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    player = await accounts.player_by_token(server.db, token.strip())
    return None if player is None else player.id


def _refused(server: Server, limited: Limited) -> Response:
    server.metrics.http_errors.labels("rate_limited").inc()
    return JSONResponse(
        {"error": "rate_limited",
         "message": f"too many games rendered for {limited.who}; try again in "
                    f"{limited.seconds} s (games already served come back at once)"},
        status_code=429, headers={"Retry-After": str(limited.seconds)})


async def finished_game(server: Server, game_id: str) -> StoredGame:
    """The finished game; a live game is not found (only its players see it, through
    the WebSocket, each his own cards)."""
    stored = await get_game(server.db, game_id)
    if stored is None:
        raise NotFound(f"no game {game_id!r}")
    if stored.status == LIVE:
        raise NotFound(f"game {game_id} is still being played: only finished games are "
                       "served (its players see it through the WebSocket)")
    if await replay_closed(server.db, stored.table_id):
        raise NotFound(f"game {game_id} is a deal of a duplicate event still being played: "
                       "its games are shown to everyone once the event is over")
    return stored


async def _private(request: Request, server: Server, game_id: str) -> bool:
    """Whether the game was played at a private table (好友房). Only its players read
    such a game (its owner may have closed the table to spectators, and what friends
    play among themselves is theirs); anyone else is told there is no such game, as for
    an id that names none, so that its existence is not confirmed either. An event's
    tables play points only too, but their games are the event's, shown as its rules say
    (``replay_closed``), not a private table's."""
    found = await private_players(server.db, game_id)
    if found is None or is_event_table(found[0]):
        return False
    if await account_of(request, server) not in found[1]:
        raise NotFound(f"no game {game_id!r}")
    return True


async def _gated(request: Request, server: Server, key: str,
                 render: Callable[[], Awaitable[bytes]]) -> bytes | Response:
    """The body for ``key``: from the cache, or rendered if the gate lets it through."""
    finished = server.finished
    cached = finished.cache.get(key)
    if cached is not None:
        return cached
    limited = finished.gate.check(address_of(request), await account_of(request, server))
    if limited is not None:
        return _refused(server, limited)
    return await finished.body(key, render)


def _answer(request: Request, body: bytes, cache_control: str) -> Response:
    tag = etag(body)
    headers = {"ETag": tag, "Cache-Control": cache_control}
    if tag in (t.strip() for t in request.headers.get("if-none-match", "").split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


async def game(request: Request) -> Response:
    server = _server(request)
    game_id = params.game_id(request)
    private = await _private(request, server, game_id)

    async def render() -> bytes:
        stored = await finished_game(server, game_id)
        server.metrics.replay_renders.labels("game").inc()
        return dumps(stored.to_json())

    body = await _gated(request, server, f"game:{game_id}", render)
    return body if isinstance(body, Response) \
        else _answer(request, body, PRIVATE if private else IMMUTABLE)


async def game_replay(request: Request) -> Response:
    """Every step of a finished game with all hands (cardhall.hall.domain.replays)."""
    server = _server(request)
    game_id = params.game_id(request)
    private = await _private(request, server, game_id)

    async def render() -> bytes:
        stored = await finished_game(server, game_id)
        try:
            frames = await asyncio.to_thread(replays.frames, stored.record)
        except IllegalAction:  # a record of another rules version than this hall's
            raise Conflict(f"this hall cannot replay game {stored.id}: it was played "
                           "under rules this version does not play") from None
        server.metrics.replay_renders.labels("replay").inc()
        moved = await ratings.of_game(server.db, stored.id, stored.variant, stored.players)
        head = {"id": stored.id, "variant": stored.variant, "room": stored.room_id,
                "status": stored.status, "players": stored.players,
                "result": stored.result, "beans": stored.beans, "fees": stored.fees,
                "ratings": {seat: c.to_json() for seat, c in moved.items()},
                "ended": stored.ended.isoformat() if stored.ended else None}
        return dumps(head) + b"\n" + await asyncio.to_thread(dumps, frames)

    kept = await _gated(request, server, f"replay:{game_id}", render)
    if isinstance(kept, Response):
        return kept
    head_bytes, _, frames_bytes = kept.partition(b"\n")
    head = json.loads(head_bytes)
    players: list[str | None] = head.pop("players")
    names = await server.hall.store.names([p for p in players if p])
    # A bot account's title is a bot's (its names): it is a bot's seat too.
    seats = [{"seat": i, "id": p,
              "bot": p is None or names.get(p, ("", ""))[1] == BOT_TITLE,
              "name": names.get(p, ("", ""))[0] if p else BOT_NAMES[i % len(BOT_NAMES)],
              "title": names.get(p, ("", ""))[1] if p else BOT_TITLE}
             for i, p in enumerate(players)]
    body = (dumps({"id": head["id"], "variant": head["variant"], "room": head["room"],
                   "status": head["status"], "seats": seats, "result": head["result"],
                   "beans": head["beans"], "fees": head.get("fees"),
                   "ratings": head.get("ratings") or {}, "ended": head["ended"]})[:-1]
            + b',"frames":' + frames_bytes + b"}")
    return _answer(request, body, PRIVATE if private else REVALIDATE)
