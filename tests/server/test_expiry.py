"""A session that ends while its socket is open is closed (4401) with the reason, at its
idle or absolute end, unless it was used meanwhile (``server.expiry``; clock injected,
a real SQLite database, the connection's real writer over a recording socket)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest
from argon2 import PasswordHasher

from cardhall.hall.domain.config import Accounts, Economy
from cardhall.hall.store import accounts, sessions
from cardhall.hall.store.db import Database
from cardhall.hall.store.sessions import SessionPolicy, Toucher
from cardhall.server.connection import CLOSE_SESSION_ENDED, Connection, ConnState, Registry
from cardhall.server.expiry import expire, expire_loop

T0 = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
POLICY = SessionPolicy.of(Accounts())  # 30 days from login, 7 unused; guests 90 unused
HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
ECONOMY = Economy(starting_beans=1_000)
DAY = timedelta(days=1)
WAIT = 10.0


class Recording:
    """A socket that keeps what is written to it and says when it is closed."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self.code: int | None = None
        self.closed = asyncio.Event()

    async def send_text(self, data: str) -> None:
        self.sent.append(json.loads(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.code = code
        self.closed.set()


@pytest.fixture
def db(sqlite_db: Database) -> Database:
    return sqlite_db


async def connected(db: Database, registry: Registry, token: str,
                    now: datetime) -> tuple[Connection, Recording]:
    """A connection that said hello with ``token`` at ``now`` (as ``ws._hello`` does)."""
    authed = await sessions.authenticate(db, token, POLICY, now)
    socket = Recording()
    conn = Connection(socket, "127.0.0.1", 10)
    conn.start()
    registry.add(conn)
    conn.transition(ConnState.AWAITING_HELLO, ConnState.READY)
    conn.player_id, conn.session, conn.session_ends = (authed.player.id, authed.session,
                                                       authed.ends)
    registry.attach(conn, authed.player.id)
    return conn, socket


async def closed_with(socket: Recording) -> str:
    """The error code the client was told before its 4401."""
    async with asyncio.timeout(WAIT):
        await socket.closed.wait()
    assert socket.code == CLOSE_SESSION_ENDED
    (error,) = [m for m in socket.sent if m["type"] == "error"]
    return str(error["code"])


async def test_an_idle_end_closes_the_socket_unless_the_session_was_used(
        db: Database) -> None:
    reg = await accounts.register(db, "idler", "secret-1", ECONOMY, hasher=HASHER, now=T0)
    registry = Registry()
    conn, socket = await connected(db, registry, reg.token, T0)
    assert conn.session_ends == T0 + 7 * DAY
    assert await expire(registry, db, POLICY, T0 + 6 * DAY) == 0
    await sessions.authenticate(db, reg.token, POLICY, T0 + 6 * DAY)  # an API call
    assert await expire(registry, db, POLICY, T0 + 7 * DAY) == 0  # used: moved on
    assert conn.is_open and conn.session_ends == T0 + 13 * DAY
    assert await expire(registry, db, POLICY, T0 + 13 * DAY) == 1
    assert await closed_with(socket) == "session_expired"
    assert not conn.is_open


async def test_the_absolute_end_closes_however_often_it_is_used(db: Database) -> None:
    reg = await accounts.register(db, "steady", "secret-1", ECONOMY, hasher=HASHER, now=T0)
    registry = Registry()
    conn, socket = await connected(db, registry, reg.token, T0)
    for day in range(6, 30, 6):  # used every 6 days: never idle for 7
        await sessions.authenticate(db, reg.token, POLICY, T0 + day * DAY)
        assert await expire(registry, db, POLICY, T0 + (day + 1) * DAY) == 0
        assert conn.is_open
    assert conn.session_ends == T0 + 30 * DAY  # the lifetime, not day 24 + 7
    assert await expire(registry, db, POLICY, T0 + 30 * DAY - timedelta(seconds=1)) == 0
    assert await expire(registry, db, POLICY, T0 + 30 * DAY) == 1
    assert await closed_with(socket) == "session_expired"


async def test_a_session_ended_otherwise_is_closed_as_ended(db: Database) -> None:
    """Revocation closes at once where it is announced; a socket it missed is still
    closed when its end comes, and told the session was ended, not that it expired."""
    guest = await accounts.create_guest(db, ECONOMY, now=T0)
    other = await accounts.create_guest(db, ECONOMY, now=T0)
    registry = Registry()
    conn, socket = await connected(db, registry, guest.token, T0)
    kept, _ = await connected(db, registry, other.token, T0)
    assert conn.session_ends == T0 + 90 * DAY
    assert conn.session is not None
    await sessions.revoke(db, guest.player.id, conn.session, now=T0 + DAY)
    assert await expire(registry, db, POLICY, T0 + 89 * DAY) == 0  # not due yet
    assert await expire(registry, db, POLICY, T0 + 90 * DAY) == 2
    assert await closed_with(socket) == "bad_token"
    assert not kept.is_open  # its own idle end: 90 days unused


async def test_the_servers_loop_closes_what_is_due_by_its_clock(db: Database) -> None:
    reg = await accounts.register(db, "looped", "secret-1", ECONOMY, hasher=HASHER, now=T0)
    registry = Registry()
    _, socket = await connected(db, registry, reg.token, T0)
    toucher = Toucher(db)
    loop = asyncio.get_running_loop().create_task(expire_loop(
        registry, db, POLICY, lambda: T0 + 8 * DAY, toucher, every=0.0))
    try:
        assert await closed_with(socket) == "session_expired"
    finally:
        loop.cancel()
