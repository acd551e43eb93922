"""The bodies of ``cardhall serve`` and ``admin create`` (see cardhall.server.cli; a
password comes from cardhall.secret_input, never from argv).

Imported only when one of them runs: they need the ``server`` extra.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

import uvicorn
from sqlalchemy import update

from cardhall.hall.domain.config import ConfigError, Economy, load_config
from cardhall.hall.domain.errors import HallError, NameTaken
from cardhall.hall.store import accounts
from cardhall.hall.store.db import Database, DatabaseError, async_url, upgrade
from cardhall.hall.store.models import Player
from cardhall.secret_input import SecretError, read_secret, refuse_argv
from cardhall.server import edge, logs
from cardhall.server.app import create_app, tune_gc
from cardhall.server.metrics_access import read_token


def serve(args: argparse.Namespace) -> None:


    try:
        config = load_config(args.config)
        read_token(config.metrics.token_file)  # a missing or weak token: refused now
        if args.redis is not None and async_url(args.db).get_backend_name() != "postgresql":
            raise DatabaseError("--redis shares the hall between processes: give a "
                                "postgresql:// --db (SQLite is one process's)")
        if args.lease <= 0:
            raise DatabaseError(f"--lease must be positive, not {args.lease}")
        if args.db_pool < 1 or args.redis_pool < 2:
            raise DatabaseError("--db-pool needs 1 connection at least, --redis-pool 2")
        async_url(args.db)
    except (ConfigError, DatabaseError) as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    logs.setup(args.log_level, config.limits.log_repeats, config.limits.log_repeat_seconds)
    files = edge.raise_file_limit()
    # Once the hall is open (its live tables rebuilt): fewer, shorter GC pauses.
    app = create_app(config, args.db, grace_seconds=args.grace, bot_workers=args.bot_workers,
                     on_ready=tune_gc, redis_url=args.redis, lease_seconds=args.lease,
                     db_pool=args.db_pool, redis_pool=args.redis_pool)

    class Server(uvicorn.Server):
        async def startup(self, sockets: Any = None) -> None:
            # The hall binds its socket itself, as uvicorn's workers are given theirs, so
            # that the edge accepts on it and drops a flood before it costs a transport.
            listening = self.config.bind_socket()
            listening.set_inheritable(False)  # no child process holds the hall's port
            await super().startup([listening])
            for served in self.servers:
                edge.widen_backlog(served.sockets)
            if self.started:
                self.screen = edge.Screen(listening, self.servers[0], gate, self.protocol,
                                          rate=config.limits.accepts_per_second)
                port = self.servers[0].sockets[0].getsockname()[1] if self.servers else args.port
                print(f"cardhall: the hall is open at http://{args.host}:{port}/", flush=True)

        def protocol(self) -> asyncio.Protocol:
            """A connection's protocol, as uvicorn's own listener makes it."""
            return self.config.http_protocol_class(  # type: ignore[call-arg]
                config=self.config, server_state=self.server_state,
                app_state=self.lifespan.state)

    # One worker: the tables live in this process (more processes share a hall with
    # --redis, docs/deploy.md). The connection edge's bounds: cardhall.server.edge.
    uvconfig, gate = edge.uvicorn_config(app, args.host, args.port, config.limits, files)
    app.state.gate = gate  # ws.py charges a socket closed for no hello to its address
    server = Server(uvconfig)
    server.run()
    if not server.started:
        raise SystemExit(1)


def admin_create(args: argparse.Namespace) -> None:
    try:
        if args.password is not None:
            raise refuse_argv("password", "--password-file")
        password = read_secret("password", file=args.password_file, env="CARDHALL_PASSWORD",
                               confirm=True)
    except SecretError as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    asyncio.run(make_admin(args.db, args.name, password))


async def make_admin(db_url: str, name: str, password: str) -> str:
    """Register ``name`` as an admin, or promote it (its password must match)."""


    await upgrade(db_url)
    db = Database.open(db_url)
    try:
        try:
            login = await accounts.register(db, name, password, Economy())
            what = "created"
        except NameTaken:
            login = await accounts.login(db, name, password)
            what = "promoted"
        async with db.transaction() as s:
            await s.execute(update(Player).where(Player.id == login.player.id)
                            .values(is_admin=True))
    except HallError as exc:
        raise SystemExit(f"cardhall: {exc}") from None
    finally:
        await db.close()
    print(f"admin {login.player.name} {what} (id {login.player.id})")
    return login.player.id
