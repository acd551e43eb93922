"""The Starlette application: its lifespan, routes, error handlers and static files.

``create_app`` builds nothing heavy: the lifespan applies the migrations, opens
the database, builds the ``Hall`` with the connection registry as its outbox and
rebuilds every live table before the first request is served; on shutdown it
closes the connections, stops the tables and closes the database.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import datetime
from importlib.resources import files
from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from cardhall.bots.split import native as native_loop
from cardhall.hall.cluster.coordinator import Coordinator
from cardhall.hall.domain.config import HallConfig
from cardhall.hall.domain.errors import HallError, Refused
from cardhall.hall.domain.limits import RateLimiter
from cardhall.hall.live.analysis_pool import AnalysisPool
from cardhall.hall.live.botpool import BotPool
from cardhall.hall.live.table import GRACE_SECONDS
from cardhall.hall.live.timers import LEASE_SECONDS, REDIS_POOL
from cardhall.hall.service import Hall
from cardhall.hall.store import puzzles as puzzle_store
from cardhall.hall.store.db import POOL, Database, upgrade
from cardhall.hall.store.lockout import LockoutPolicy
from cardhall.hall.store.models import utcnow
from cardhall.hall.store.sessions import SessionPolicy, Toucher
from cardhall.server import api, bot_accounts, events, expiry, friends, ladder, puzzles, ws
from cardhall.server.connection import CLOSE_SHUTDOWN, Registry
from cardhall.server.finished import FinishedGames
from cardhall.server.headers import GZIP, HallApp
from cardhall.server.metrics import Metrics
from cardhall.server.metrics_access import read_token
from cardhall.server.params import BadParameter
from cardhall.server.reading import ApiError
from cardhall.server.refusals import wire_error
from cardhall.server.watchable import Census

log = logging.getLogger("cardhall.server")


@dataclass
class Server:
    """What every request handler reaches through ``request.app.state.server``."""

    config: HallConfig
    db_url: str
    redis_url: str | None = None
    lease_seconds: float = LEASE_SECONDS
    db_pool: int = POOL
    redis_pool: int = REDIS_POOL
    grace_seconds: float = GRACE_SECONDS
    bot_workers: int = 1
    registry: Registry = field(default_factory=Registry)
    metrics: Metrics = field(default_factory=Metrics)
    _db: Database | None = None
    _hall: Hall | None = None
    _analyses: AnalysisPool | None = None
    toucher: Toucher | None = None
    #: The wall clock sessions' ends are compared with (``expiry``).
    clock: Callable[[], datetime] = utcnow
    _watch: asyncio.Task[None] | None = None
    #: The hall's tables as the lobby's list of tables to watch last saw them.
    census: Census = field(default_factory=Census)
    _expiry: asyncio.Task[None] | None = None
    _miner: asyncio.Task[None] | None = None

    def __post_init__(self) -> None:
        self.metrics_token = read_token(self.config.metrics.token_file)
        limits = self.config.limits
        self.finished = FinishedGames(limits.replay_cache_mb * 2**20, limits.replays_per_minute)
        self.guest_limiter = RateLimiter(limits.guests_per_minute, 60.0)
        self.login_limiter = RateLimiter(limits.logins_per_minute, 60.0)
        self.whatif_limiter = RateLimiter(limits.whatifs_per_minute, 60.0)
        self.bot_limiter = RateLimiter(limits.bot_changes_per_minute, 60.0)  # per owner
        self.session_policy = SessionPolicy.of(self.config.accounts)
        self.lockout_policy = LockoutPolicy.of(self.config.accounts)
        self.puzzles = puzzles.PuzzleDesk()

    @property
    def db(self) -> Database:
        assert self._db is not None, "the server has not started"
        return self._db

    @property
    def analyses(self) -> AnalysisPool:
        """The post-game analysis worker and its queue, started at the first request."""
        if self._analyses is None:
            self._analyses = AnalysisPool(
                per_address=self.config.limits.analyses_per_address)
        return self._analyses

    @property
    def hall(self) -> Hall:
        assert self._hall is not None, "the server has not started"
        return self._hall

    async def open(self) -> None:
        await upgrade(self.db_url)
        self._db = Database.open(self.db_url, pool=self.db_pool)
        self.toucher = Toucher(self._db)
        await puzzle_store.ensure_classic(self._db)
        coordinator: Coordinator | None = None
        if self.redis_url is not None:
            from cardhall.hall.cluster.redis_coordinator import RedisCoordinator  # noqa: PLC0415 (with --redis)
            coordinator = RedisCoordinator(self.redis_url, self.registry,
                                           lease_seconds=self.lease_seconds,
                                           pool=self.redis_pool)
        bots = BotPool(self.bot_workers)
        # Started now, before the first player (spawned: they own none of his sockets).
        workers_native = await bots.warm()
        hall = Hall(self.config, self._db, self.registry, bots,
                    grace_seconds=self.grace_seconds, coordinator=coordinator,
                    connections=self.registry)
        hall.lobby.latency_hook = self.metrics.action
        hall.store.journal.batch_hook = self.metrics.log_batch
        hall.lobby.settled_hook = self.metrics.settlements.inc
        rebuilt = await hall.open()
        self._hall = hall
        self._watch = asyncio.get_running_loop().create_task(self.metrics.watch_loop(),
                                                             name="loop-lag")
        self._miner = asyncio.get_running_loop().create_task(
            puzzles.mine_loop(self._db, self.puzzles,
                              hall.coord.job(puzzles.MINE_JOB, puzzles.MINE_HOLD_SECONDS),
                              utcnow()), name="puzzle-miner")
        self._expiry = asyncio.get_running_loop().create_task(expiry.expire_loop(
            self.registry, self._db, self.session_policy, self.clock, self.toucher),
            name="session-expiry")
        # Whether the bots' split search runs in C (an install without a C compiler falls
        # back to the Python loop, many times slower: an operator should see it).
        log.info("hall open", extra={"event": "open", "rebuilt": rebuilt,
                                     "rooms": len(self.config.rooms),
                                     "bot_search": "c" if native_loop.NATIVE and workers_native
                                     else "python"})

    async def close(self) -> None:
        for task in (self._watch, self._expiry, self._miner):
            if task is not None:
                task.cancel()
        self.registry.close_all(CLOSE_SHUTDOWN, "the server is shutting down")
        if self._analyses is not None:
            await self._analyses.close()
        if self._hall is not None:
            await self._hall.close()
        if self.toucher is not None:
            await self.toucher.close()
        if self._db is not None:
            await self._db.close()
        log.info("hall closed", extra={"event": "close"})


#: The collector's thresholds while serving (Python's defaults: 700, 10, 10). A young or
#: middle collection walks what was made, or survived, since the last one: connections
#: that live a few seconds (an idle flood closed by the hello deadline) fill those
#: generations, and at (10 000, 5) each middle pass stopped the loop for up to 40 ms and
#: each young one for up to 15 ms under benchmarks/abuse_bench.py's flood; at (2 000, 5)
#: for at most 10 and 6 ms, five times as often. The last keeps full collections, which
#: walk everything, as rare as before: every 2 000 × 5 × 5 000 allocations.
GC_THRESHOLDS = (2_000, 5, 5_000)


def tune_gc() -> None:
    """Short pauses, rare full collections: a full one walks every live object (a
    thousand connections make ~300 000) and stops the event loop for ~0.2 s on a small
    machine, which every player then waits for. What exists at start (modules, config,
    rebuilt tables) is frozen out of the collector's sight; young collections run every
    2 000 allocations, full ones every 50 million (docs/operations.md, "Memory and
    GC")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def web_root() -> Path | None:
    """The browser client's files shipped in the package, if they are there."""
    root = Path(str(files("cardhall") / "web"))
    return root if (root / "index.html").is_file() else None


async def _hall_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HallError)
    request.app.state.server.metrics.http_errors.labels(exc.code).inc()
    return api.domain_error(exc)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    request.app.state.server.metrics.http_errors.labels(exc.code).inc()
    return api.error_response(exc.code, str(exc), exc.status)


async def _bad_parameter(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, BadParameter)
    request.app.state.server.metrics.http_errors.labels(exc.code).inc()
    return api.error_response(exc.code, str(exc))


async def _refused(request: Request, exc: Exception) -> Response:
    """A table's or the lobby's refusal reached through HTTP (an admin's kick): the
    wire's code for it, as a WebSocket client would get (``server.refusals``)."""
    assert isinstance(exc, Refused)
    error = wire_error(exc)
    request.app.state.server.metrics.http_errors.labels(error.code).inc()
    return api.error_response(error.code, str(error))


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    request.app.state.server.metrics.http_errors.labels(code).inc()
    return JSONResponse({"error": code, "message": str(exc.detail)},
                        status_code=exc.status_code, headers=exc.headers)


async def _internal(request: Request, exc: Exception) -> Response:
    log.exception("internal error on %s", request.url.path, exc_info=exc,
                  extra={"event": "internal", "path": request.url.path})
    request.app.state.server.metrics.http_errors.labels("internal").inc()
    return api.error_response("internal", "the server failed; the error is logged")


def _unrouted(api_routes: list[BaseRoute]) -> Route:
    """``/api/...`` that no route takes: 405 when a route has the path for other methods
    (a GET on a POST-only one), else 404, both as JSON. Without it such a request fell
    through to the static files, whose 404 does not say the method is what is wrong."""

    async def answer(request: Request) -> Response:
        scope = {**request.scope, "method": "OPTIONS"}  # a method no API route takes
        if any(r.matches(scope)[0] == Match.PARTIAL for r in api_routes):
            raise HTTPException(405, f"{request.method} is not allowed on {request.url.path}")
        raise HTTPException(404, f"no such resource: {request.url.path}")

    return Route("/api/{rest:path}", answer, methods=["GET", "HEAD", "POST", "PUT", "PATCH",
                                                     "DELETE", "OPTIONS"])


def create_app(config: HallConfig, db_url: str, *, grace_seconds: float = GRACE_SECONDS,
               bot_workers: int = 1, on_ready: Callable[[], None] | None = None,
               redis_url: str | None = None,
               lease_seconds: float = LEASE_SECONDS, db_pool: int = POOL,
               redis_pool: int = REDIS_POOL) -> HallApp:
    """The hall's ASGI app over the database at ``db_url`` (migrated on start); with
    ``redis_url``, one of several processes sharing the hall through Redis."""
    server = Server(config, db_url, redis_url=redis_url, lease_seconds=lease_seconds,
                    db_pool=db_pool, redis_pool=redis_pool, grace_seconds=grace_seconds,
                    bot_workers=bot_workers)

    @asynccontextmanager
    async def lifespan(app: HallApp) -> AsyncIterator[None]:
        await server.open()
        if on_ready is not None:
            on_ready()
        try:
            yield
        finally:
            await server.close()

    api_routes: list[BaseRoute] = [*api.ROUTES, *puzzles.ROUTES, *events.ROUTES, *friends.ROUTES,
                                   *ladder.ROUTES,
                                   *bot_accounts.ROUTES]
    routes = [*api_routes, _unrouted(api_routes), WebSocketRoute("/ws", ws.endpoint)]
    root = web_root()
    if root is not None:
        routes.append(Mount("/", StaticFiles(directory=root, html=True), name="web"))
    app = HallApp(routes=routes, lifespan=lifespan, middleware=[GZIP], exception_handlers={
        HallError: _hall_error, ApiError: _api_error, Refused: _refused,
        HTTPException: _http_error, BadParameter: _bad_parameter, Exception: _internal})
    app.state.server = server
    return app
