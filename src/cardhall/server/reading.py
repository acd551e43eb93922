"""Reading a request: its JSON body (capped in size and time) and its caller (the
player whose session the Bearer token names), each refused as an ``ApiError``.

Every module that serves the HTTP API (``api``, ``puzzles``) reads its requests with
these, so a body and a token are checked the same way, and refused with the same
codes, on every route.
"""

from __future__ import annotations

import asyncio
import json
from typing import TYPE_CHECKING, Any

from starlette.requests import Request

from cardhall.hall.store import sessions
from cardhall.hall.store.models import Player

if TYPE_CHECKING:
    from cardhall.server.app import Server

MAX_BODY = 16 * 1024

#: HTTP status for each refusal code (anything else: 400).
STATUS = {
    "not_authenticated": 401, "auth_failed": 401, "bad_token": 401, "banned": 403,
    "forbidden": 403, "not_found": 404, "name_taken": 409, "not_enough_beans": 409,
    "relief_refused": 409, "no_item": 409, "conflict": 409, "rate_limited": 429,
    "too_large": 413, "internal": 500, "busy": 503, "not_seated": 409, "unknown_table": 404,
    "request_timeout": 408, "stale": 409, "unavailable": 409,
    "session_expired": 401, "locked_out": 429, "too_many_bots": 409,
    "bots_not_allowed": 403,
}


class ApiError(Exception):
    """A refusal of this layer (HallError covers the domain's)."""

    def __init__(self, code: str, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.status = status or STATUS.get(code, 400)


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object ({} when empty); ``malformed`` if it is not one."""
    raw = await read_capped(request, _server(request).config.limits.body_seconds)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ApiError("malformed", "the body is not JSON") from None
    if not isinstance(data, dict):
        raise ApiError("malformed", "the body is a JSON object")
    return data


async def read_capped(request: Request, seconds: float) -> bytes:
    """The body, read as it streams in and refused (413) as soon as it passes
    ``MAX_BODY``, or before any of it is read when its Content-Length says so: memory
    never holds more than the cap, whatever a client sends. It must arrive within
    ``seconds`` (408): a body trickled a byte at a time holds no request for long."""
    too_large = ApiError("too_large", f"a request body is at most {MAX_BODY} bytes")
    declared = request.headers.get("content-length", "")
    if declared.isascii() and declared.isdigit() and int(declared) > MAX_BODY:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(seconds):
            async for chunk in request.stream():
                size += len(chunk)
                if size > MAX_BODY:
                    raise too_large
                chunks.append(chunk)
    except TimeoutError:
        raise ApiError("request_timeout", f"the request body did not arrive whole "
                       f"within {seconds:g} s") from None
    return b"".join(chunks)


def bearer(request: Request) -> str | None:
    """The Bearer token sent, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def token(request: Request) -> str:
    """The Bearer token; ``not_authenticated`` without one."""
    found = bearer(request)
    if found is None:
        raise ApiError("not_authenticated", "send Authorization: Bearer <token>")
    return found


async def authed(request: Request) -> sessions.Authed:
    """The caller's player and session; 401 ``bad_token`` (unknown, revoked, banned) or
    ``session_expired`` (sessions.TokenRefused) when the token does not work."""
    server = _server(request)
    return await sessions.authenticate(server.db, token(request), server.session_policy,
                                       toucher=server.toucher)


async def caller(request: Request) -> Player:
    """The player whose session the request's token names."""
    return (await authed(request)).player
