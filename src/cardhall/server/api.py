"""The HTTP API: accounts, rooms, variants, finished games, leaderboard, economy, admin.

Every answer is JSON; every refusal is ``{"error": code, "message": text}`` with a
status that fits (``STATUS``), so a client can branch on ``error`` and show
``message``. Bodies are JSON objects of at most ``MAX_BODY`` bytes.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from cardhall.bots import SEATABLE
from cardhall.games import VARIANTS, reasons
from cardhall.hall.domain.errors import HallError
from cardhall.hall.domain.levels import title_for
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.domain.ratings import PROVISIONAL_GAMES, bot_name
from cardhall.hall.store import accounts, ledger, ratings, sessions
from cardhall.hall.store.leaderboard import leaderboard
from cardhall.hall.store.lockout import LockedOut
from cardhall.hall.store.models import Game, Player, Score
from cardhall.server import analyses, finished, metrics_access, params, watchable, words
from cardhall.server.connection import CLOSE_SESSION_ENDED
from cardhall.server.metrics import CONTENT_TYPE
from cardhall.server.reading import STATUS, ApiError
from cardhall.server.reading import authed as _authed
from cardhall.server.reading import bearer as _bearer
from cardhall.server.reading import caller as _player
from cardhall.server.reading import read_json as _body
from cardhall.server.reading import token as _token

if TYPE_CHECKING:
    from cardhall.server.app import Server

def error_response(code: str, message: str, status: int | None = None) -> JSONResponse:
    status = status or STATUS.get(code, 400)
    # A body refused unread (too large, too slow) leaves the connection mid-request:
    # it is closed rather than read to its end.
    headers = {"connection": "close"} if status in (408, 413) else None
    return JSONResponse({"error": code, "message": message}, status_code=status,
                        headers=headers)


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise ApiError("malformed", f"{key!r} is required and is text")
    return value


def _bool(data: dict[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise ApiError("malformed", f"{key!r} is required and is true or false")
    return value


async def _admin(request: Request) -> Player:
    player = await _player(request)
    if not player.is_admin:
        raise ApiError("forbidden", "only an admin may do this")
    return player


def _limit(request: Request, limiter: RateLimiter, what: str) -> None:
    key = request.client.host if request.client else "?"
    if not limiter.allow(key):
        wait = max(1, int(limiter.retry_after(key) + 0.999))
        raise ApiError("rate_limited", f"too many {what} from your address; "
                       f"try again in {wait} s")


def _login_json(login: accounts.Login, beans: int) -> dict[str, Any]:
    p = login.player
    return {"token": login.token,
            "player": {"id": p.id, "name": p.name, "beans": beans, "points": p.points,
                       "title": title_for(p.points), "guest": p.is_guest,
                       "admin": p.is_admin}}


# -- accounts ----------------------------------------------------------------------------


async def guest(request: Request) -> Response:
    server = _server(request)
    _limit(request, server.guest_limiter, "new guests")
    login = await accounts.create_guest(server.db, server.config.economy, agent=_agent(request))
    return JSONResponse(_login_json(login, await ledger.balance(server.db, login.player.id)),
                        status_code=201)


async def register(request: Request) -> Response:
    """A new account; with a guest's own token, that guest becomes the account (beans,
    record and games kept, the token goes on working). Any other token is ignored, as
    registering needs no login."""
    server = _server(request)
    _limit(request, server.login_limiter, "logins")
    data = await _body(request)
    name, password = _text(data, "name"), _text(data, "password")
    token = _bearer(request)
    holder = (await accounts.player_by_token(server.db, token, server.session_policy)
              if token else None)
    if token is not None and holder is not None and holder.is_guest:
        player = await accounts.claim_guest(server.db, token, name, password,
                                            policy=server.session_policy)
        done = accounts.Login(player, token)
    else:
        done = await accounts.register(server.db, name, password, server.config.economy,
                                       agent=_agent(request))
    return JSONResponse(_login_json(done, await ledger.balance(server.db, done.player.id)),
                        status_code=201)


def _agent(request: Request) -> str:
    """The client's User-Agent, as the session list shows it."""
    return request.headers.get("user-agent", "")[:sessions.AGENT_MAX]


async def login(request: Request) -> Response:
    """A new session; ``device`` (optional) is a token this client had before for the
    account, which spares it the account's lockout (hall.store.lockout)."""
    server = _server(request)
    _limit(request, server.login_limiter, "logins")
    data = await _body(request)
    device = data.get("device")
    if device is not None and not isinstance(device, str):
        raise ApiError("malformed", "'device' is text (a token this client had before)")
    done = await accounts.login(server.db, _text(data, "name"), _text(data, "password"),
                                policy=server.lockout_policy, device=device,
                                agent=_agent(request))
    return JSONResponse(_login_json(done, await ledger.balance(server.db, done.player.id)))


async def _close_sessions(server: Server, player_id: str, ended: list[str],
                          reason: str) -> None:
    """Close the sockets that said hello with one of the ``ended`` sessions, in
    whichever process they are (4401)."""
    if ended:
        await server.hall.coord.disconnect(player_id, CLOSE_SESSION_ENDED, reason, ended)


async def logout(request: Request) -> Response:
    server = _server(request)
    ended = await accounts.revoke_token(server.db, _token(request))
    if ended is None:
        raise ApiError("bad_token", "that token is unknown or already logged out")
    await _close_sessions(server, ended[0], [ended[1]], "logged out")
    return JSONResponse({"ok": True})


async def list_sessions(request: Request) -> Response:
    """The caller's live sessions (never a token): id, created, last used, expires,
    the client that made it, whether it is the caller's own."""
    server = _server(request)
    authed = await _authed(request)
    rows = await sessions.live_sessions(server.db, authed.player, authed.session,
                                        server.session_policy)
    return JSONResponse({"sessions": [r.to_json() for r in rows]})


async def revoke_session(request: Request) -> Response:
    """End one of the caller's sessions (its socket closes with 4401)."""
    server = _server(request)
    authed = await _authed(request)
    sid = request.path_params["session_id"]
    if not 1 <= len(sid) <= 32:
        raise ApiError("not_found", "no such session")
    await sessions.revoke(server.db, authed.player.id, sid)
    await _close_sessions(server, authed.player.id, [sid], "this session was revoked")
    return JSONResponse({"ok": True, "current": sid == authed.session})


async def password(request: Request) -> Response:
    """Change the caller's password: ``old`` must be right; every other session of the
    account ends (their sockets close with 4401), this one goes on."""
    server = _server(request)
    _limit(request, server.login_limiter, "logins")
    authed = await _authed(request)
    data = await _body(request)
    ended = await accounts.change_password(server.db, authed.player, authed.session,
                                           _text(data, "old"), _text(data, "new"),
                                           policy=server.lockout_policy)
    await _close_sessions(server, authed.player.id, ended, "the password was changed")
    return JSONResponse({"ok": True, "ended": len(ended)})


async def me(request: Request) -> Response:
    server = _server(request)
    player = await _player(request)
    prof = (await accounts.profile(server.db, player.id)).to_json()
    prof["admin"] = player.is_admin
    prof["tables"] = await server.hall.lobby.all_tables_of(player.id)
    prof["relief_left"] = await ledger.relief_left(server.db, player.id, server.config.economy)
    return JSONResponse(prof)


# -- the hall ----------------------------------------------------------------------------


async def rooms(request: Request) -> Response:
    server = _server(request)
    counts = await server.hall.room_counts()
    out = []
    for room in server.config.rooms:
        live = counts.get(room.id, {"waiting": 0, "tables": 0})
        out.append({"id": room.id, "name": room.name, "name_en": room.name_en,
                    "variant": room.variant,
                    "players": VARIANTS[room.variant].players,
                    "options": {k: v for k, v in room.resolved_options().items()
                                if k not in VARIANTS[room.variant].secret_options},
                    "N": room.N, "A": room.A,
                    "M0": room.M0, "min_beans": room.min_beans,
                    "double_min_beans": room.double_min_beans,
                    "turn_seconds": room.turn_seconds,
                    "bot_wait_seconds": room.bot_wait_seconds,
                    "bot_seconds": room.bot_seconds, "bot": room.bot,
                    "bot_accounts": room.bot_accounts,
                    "waiting": live["waiting"], "tables": live["tables"]})
    return JSONResponse(out)


async def variants(request: Request) -> Response:
    return JSONResponse([v.describe() for v in VARIANTS.values()])


async def refusal_reasons(request: Request) -> Response:
    """The sentences for a game's refusals in zh and en (games.reasons): the browser says
    an ``error``'s ``reason`` and ``params`` in its player's language from these."""
    return JSONResponse(reasons.table())


async def hall_names(request: Request) -> Response:
    """The hall's own names (titles, bots, guests) in English (server/words.py): an
    English page shows them instead of the Chinese its messages carry."""
    return JSONResponse(words.names())


def _iso(when: datetime | None) -> str | None:
    return when.isoformat() if when else None


async def history(request: Request) -> Response:
    server = _server(request)
    player = await _player(request)
    limit = params.integer(request, "limit", 50, 1, 200)
    async with server.db.transaction() as s:
        rows = (await s.execute(
            select(Score, Game).join(Game, Game.id == Score.game_id)
            .where(Score.player_id == player.id)
            .order_by(Score.created.desc()).limit(limit))).all()
    return JSONResponse([
        {"game": g.id, "variant": g.variant, "room": g.room_id, "status": g.status,
         "seat": g.players.index(player.id) if player.id in g.players else None,
         "points": sc.points, "beans": sc.beans, "won": sc.won,
         "ended": _iso(g.ended)} for sc, g in rows])


def _period_start(period: str, now: datetime) -> datetime | None:
    day = now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "all":
        return None
    if period == "day":
        return day
    if period == "week":
        return day - timedelta(days=day.weekday())  # Monday, UTC
    raise ApiError("malformed", f"period is all, day or week, not {period[:16]!r}")


async def board(request: Request) -> Response:
    """A leaderboard by points, beans or skill rating (``by=rating``: the current,
    non-provisional ratings, bots' included, so all-time only)."""
    server = _server(request)
    by = params.choice(request, "by", "points", ("points", "beans", "rating"))
    variant = params.one(request, "variant") or None  # empty: every variant
    if variant is not None and variant not in VARIANTS:
        raise ApiError("malformed", f"unknown variant {variant[:32]!r}")
    period = params.choice(request, "period", "all", ("all", "day", "week"))
    limit = params.integer(request, "limit", 50, 1, 1000)
    if by == "rating":
        if period != "all":
            raise ApiError("malformed", "a rating board is all-time: period is all")
        ranked = await ratings.board(server.db, variant, limit)
        return JSONResponse({"variant": variant, "by": by, "period": period,
                             "rows": [r.to_json() for r in ranked]})
    since = _period_start(period, datetime.now(UTC))
    rows = await leaderboard(server.db, by, variant, since, limit)  # type: ignore[arg-type]
    return JSONResponse({"variant": variant, "by": by, "period": period,
                         "rows": [r.to_json() for r in rows]})


async def player_ratings(request: Request) -> Response:
    """A player's (or a bot's, ``bot:planning``) skill ratings by variant, ``all`` the
    overall one, each with its history; ``/api/ratings`` alone: the caller's own."""
    server = _server(request)
    if "subject" not in request.path_params:
        subject = (await _player(request)).id
    else:
        subject = params.subject(request)  # its form, before any query reads it
        bot = bot_name(subject)
        if bot is None and not await _exists(server, subject):
            raise ApiError("not_found", f"no player {subject!r}")
        if bot is not None and bot not in SEATABLE \
                and not await ratings.rated(server.db, subject):
            raise ApiError("not_found", f"no bot {bot!r} plays in this hall")
    return JSONResponse({"id": subject, "provisional_games": PROVISIONAL_GAMES,
                         "ratings": await ratings.ratings_of(server.db, subject)})


async def _exists(server: Server, player_id: str) -> bool:
    async with server.db.read() as s:
        return await s.get(Player, player_id) is not None


# -- economy -----------------------------------------------------------------------------


async def relief(request: Request) -> Response:
    server = _server(request)
    player = await _player(request)
    beans = await ledger.grant_relief(server.db, player.id, server.config.economy)
    left = await ledger.relief_left(server.db, player.id, server.config.economy)
    return JSONResponse({"beans": beans, "relief_left": left})


async def golden_eye(request: Request) -> Response:
    server = _server(request)
    player = await _player(request)
    data = await _body(request)
    count = data.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int):
        raise ApiError("malformed", "count is a whole number")
    bought = await ledger.buy_golden_eye(server.db, player.id, server.config.economy, count)
    return JSONResponse({"beans": bought.beans, "golden_eyes": bought.count})


# -- operators ---------------------------------------------------------------------------


async def admin_tables(request: Request) -> Response:
    await _admin(request)
    return JSONResponse(await _server(request).hall.live_tables())


async def admin_kick(request: Request) -> Response:
    server = _server(request)
    await _admin(request)
    target = _text(await _body(request), "player")
    await accounts.get_player(server.db, target)  # NotFound for a wrong id
    tables = await server.hall.kick(target)
    connected = await server.hall.coord.disconnect(target, 4003, "kicked by an admin")
    return JSONResponse({"player": target, "tables": tables, "connected": connected})


async def admin_ban(request: Request) -> Response:
    server = _server(request)
    await _admin(request)
    data = await _body(request)
    target, banned = _text(data, "player"), _bool(data, "banned")
    its_bots = await accounts.set_banned(server.db, target, banned)
    tables = 0
    if banned:
        for who in (target, *its_bots):  # his bot accounts are banned with him
            tables += await server.hall.kick(who)
            await server.hall.coord.disconnect(who, 4003, "banned")
    return JSONResponse({"player": target, "banned": banned, "tables": tables})


# -- health ------------------------------------------------------------------------------


async def healthz(request: Request) -> Response:
    """The database answers, and how busy the process is. A read: it never queues for
    SQLite's write lock behind a settlement (a slow write is not an unhealthy hall), nor
    holds up the action log while it is probed."""
    server = _server(request)
    async with server.db.read() as s:
        await s.scalar(select(1))
    return JSONResponse({"ok": True, "tables": len(server.hall.lobby.tables),
                         "connections": len(server.registry.connections)})


async def metrics(request: Request) -> Response:
    """Prometheus text, to the holder of the metrics token only (metrics_access)."""
    server = _server(request)
    refused = metrics_access.refusal(server.metrics_token, _bearer(request))
    if refused is not None:
        raise ApiError(*refused)
    waiting = await server.hall.coord.queues.waiting()
    gate = getattr(request.app.state, "gate", None)  # the edge's, under cardhall serve
    return Response(server.metrics.render(server, waiting, gate.refused if gate else None),
                    media_type=CONTENT_TYPE)


def domain_error(exc: HallError) -> JSONResponse:
    response = error_response(exc.code, str(exc))
    if isinstance(exc, LockedOut):
        response.headers["Retry-After"] = str(exc.retry_after)
    return response


ROUTES = [
    Route("/api/guest", guest, methods=["POST"]),
    Route("/api/register", register, methods=["POST"]),
    Route("/api/login", login, methods=["POST"]),
    Route("/api/logout", logout, methods=["POST"]),
    Route("/api/me", me, methods=["GET"]),
    Route("/api/sessions", list_sessions, methods=["GET"]),
    Route("/api/sessions/{session_id}", revoke_session, methods=["DELETE"]),
    Route("/api/password", password, methods=["POST"]),
    Route("/api/rooms", rooms, methods=["GET"]),
    Route("/api/rooms/{room_id}/tables", watchable.room_tables, methods=["GET"]),
    Route("/api/variants", variants, methods=["GET"]),
    Route("/api/reasons", refusal_reasons, methods=["GET"]),
    Route("/api/names", hall_names, methods=["GET"]),
    Route("/api/games/{game_id}", finished.game, methods=["GET"]),
    Route("/api/games/{game_id}/replay", finished.game_replay, methods=["GET"]),
    Route("/api/games/{game_id}/analysis", analyses.request_analysis, methods=["POST"]),
    Route("/api/games/{game_id}/analysis", analyses.analysis_status, methods=["GET"]),
    Route("/api/games/{game_id}/whatif", analyses.what_if, methods=["POST"]),
    Route("/api/history", history, methods=["GET"]),
    Route("/api/leaderboard", board, methods=["GET"]),
    Route("/api/ratings", player_ratings, methods=["GET"]),
    Route("/api/ratings/{subject}", player_ratings, methods=["GET"]),
    Route("/api/relief", relief, methods=["POST"]),
    Route("/api/items/golden-eye", golden_eye, methods=["POST"]),
    Route("/api/admin/tables", admin_tables, methods=["GET"]),
    Route("/api/admin/kick", admin_kick, methods=["POST"]),
    Route("/api/admin/ban", admin_ban, methods=["POST"]),
    Route("/healthz", healthz, methods=["GET"]),
    Route("/metrics", metrics, methods=["GET"]),
]
