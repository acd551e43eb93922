"""Post-game analysis over HTTP: ask for it, follow its progress, read it; what-if lines.

    POST /api/games/{id}/analysis?seat=S   queue the analysis of seat S (or read it)
    GET  /api/games/{id}/analysis?seat=S   how far it has gone, or the analysis
    POST /api/games/{id}/whatif?ply=K&move=TEXT   another move there, the bots play on

An analysis is computed once, in the hall's analysis worker (``AnalysisPool``: never on
the event loop), and kept with the game; afterwards it is read from the store. Who may
ask: anyone for a game of a public table (its replay is public too), only the game's
players for a private table's. Without ``seat`` a player's own seat is meant. What the
answers look like: docs/protocol.md, "Post-game analysis".

Bounds per client address (``[limits]``): ``analyses_per_address`` places of the
queue (``AnalysisPool``), and ``whatifs_per_minute`` what-if lines: the worker's 8
lines at once are everyone's, and one address must not keep them all busy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from cardhall.analysis.report import VERSION
from cardhall.games import IllegalAction
from cardhall.hall.domain.errors import Conflict, NotFound
from cardhall.hall.events.store import is_event_table
from cardhall.hall.live.analysis_pool import Job
from cardhall.hall.store.analyses import get_analysis, put_analysis
from cardhall.hall.store.game_reads import StoredGame
from cardhall.server import params
from cardhall.server.finished import account_of, address_of, finished_game
from cardhall.server.params import BadParameter

if TYPE_CHECKING:
    from cardhall.server.app import Server

#: Longest move text a what-if takes (a plane with wings in two packs is ~30 characters).
MOVE_TEXT = 80


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


async def _visible(request: Request, server: Server) -> tuple[StoredGame, str | None]:
    """The finished game and the account asking (None: nobody signed in); a private
    table's game is unknown to anyone but its players (an event's table plays points
    only too, but its games are the event's: ``finished_game`` says when they open)."""
    stored = await finished_game(server, params.game_id(request))
    account = await account_of(request, server)
    if stored.private and not is_event_table(stored.table_id) \
            and (account is None or account not in stored.players):
        raise NotFound(f"no game {stored.id!r}")  # as its replay: not even its existence
    return stored, account


async def _game_and_seat(request: Request, server: Server) -> tuple[StoredGame, int, str]:
    """The finished game, the seat asked about and who asks (an account or an address)."""
    stored, account = await _visible(request, server)
    own = stored.players.index(account) if account is not None \
        and account in stored.players else None
    raw = params.one(request, "seat")
    if raw is None and own is None:
        raise BadParameter("seat is needed: which seat's decisions to analyse")
    seat = own if raw is None else params.integer(request, "seat", 0, 0,
                                                   len(stored.players) - 1)
    assert seat is not None
    return stored, seat, account or f"address:{address_of(request)}"


def _too_many_lines(server: Server, address: str) -> Response | None:
    """Count one what-if for ``address``; a 429 saying when to come back if it is over
    ``[limits] whatifs_per_minute``, else None."""
    limiter = server.whatif_limiter
    if limiter.allow(address):
        return None
    wait = max(1, int(limiter.retry_after(address) + 0.999))
    server.metrics.http_errors.labels("rate_limited").inc()
    return JSONResponse(
        {"error": "rate_limited",
         "message": f"too many what-if lines from your address (at most {limiter.limit} "
                    f"a minute); try again in {wait} s"},
        status_code=429, headers={"Retry-After": str(wait)})


def _progress(job: Job, ahead: int) -> dict[str, Any]:
    return {"status": "running" if job.running else "queued", "seat": job.key[1],
            "done": job.done, "total": job.total, "ahead": ahead}


async def _answer(server: Server, stored: StoredGame, seat: int) -> Response | None:
    """The stored analysis, or the job's progress; None if neither exists."""
    kept = await get_analysis(server.db, stored.id, seat)
    if kept is not None and kept.get("version") == VERSION:
        return JSONResponse({"status": "done", "seat": seat, "analysis": kept})
    job = server.analyses.job(stored.id, seat)
    if job is not None:
        return JSONResponse(_progress(job, server.analyses.ahead(job)), status_code=202)
    return None


async def request_analysis(request: Request) -> Response:
    """Queue the analysis of a seat, or join the one under way, or read the stored one."""
    server = _server(request)
    stored, seat, requester = await _game_and_seat(request, server)
    found = await _answer(server, stored, seat)
    if found is not None:
        return found

    async def save(body: dict[str, Any]) -> None:
        await put_analysis(server.db, stored.id, seat, body)

    job = server.analyses.submit(stored.id, seat, stored.record, requester, save,
                                 address=address_of(request))
    return JSONResponse(_progress(job, server.analyses.ahead(job)), status_code=202)


async def analysis_status(request: Request) -> Response:
    """How far the analysis of a seat has gone, or the analysis once done."""
    server = _server(request)
    stored, seat, _ = await _game_and_seat(request, server)
    found = await _answer(server, stored, seat)
    return found if found is not None else JSONResponse({"status": "none", "seat": seat})


async def what_if(request: Request) -> Response:
    """Another move at a decision and the bots' line from there (``analysis.what_if``)."""
    server = _server(request)
    stored, _ = await _visible(request, server)
    ply = params.integer(request, "ply", -1, 0, max(0, len(stored.record["actions"]) - 1))
    move = params.one(request, "move")
    if ply < 0 or not move or len(move) > MOVE_TEXT:
        raise BadParameter(f"ply and move are needed (a move is at most {MOVE_TEXT} "
                           "characters of action text)")
    refused = _too_many_lines(server, address_of(request))
    if refused is not None:
        return refused
    try:
        line = await server.analyses.what_if(stored.record, ply, move)
    except IllegalAction as exc:
        raise Conflict(f"{move!r} cannot be played there: {exc}") from None
    return JSONResponse(line)

