"""Opening the hall's database, one code path for SQLite and PostgreSQL.

URLs are the ones an operator writes (``sqlite:///hall.db``,
``postgresql://user@host/db``); they are mapped to the async drivers (aiosqlite,
asyncpg) here so nobody has to know SQLAlchemy's driver names.

SQLite is set up for a hall in one process: WAL (readers do not wait for the writer),
foreign keys on, a busy timeout, and every transaction begins IMMEDIATE, i.e. takes the
write lock at its start. Without that, two transactions that both read and then write
(two settlements of one game, two relief claims) deadlock and one fails with
"database is locked"; with it the second simply waits its turn. PostgreSQL gets the
same guarantees from row locks (``SELECT … FOR UPDATE``, ``UPDATE … WHERE``).

Waiting its turn inside SQLite means its busy handler: sleeps of up to 100 ms between
tries, with no order among the waiters, so under load one writer (the action log) can
be starved for a second. So on SQLite the writers of this process also queue on one
lock before ``BEGIN IMMEDIATE`` (``WriteLock``: in order, the action log first): they
take the write lock in turn and nobody sleeps in the busy handler (which is left for
other processes, e.g. ``cardhall admin``). Read-only work uses ``read()``: a plain
deferred transaction, which in WAL mode neither waits for the writer nor holds it up.

On PostgreSQL the connection pool is sized for the hall (``pool``, ``cardhall serve
--db-pool``): it bounds the settlements, logins and reads that run at once; a task past
it waits up to ``POOL_WAIT`` seconds for a connection. The action log is not among
them: its one writer (``journal.ActionJournal``, one batch in flight) has a connection
of its own (``log``), so a burst of settlements holding the pool (many games end
together) cannot make every table's next action wait for a connection, or for one to
be opened past the pool (measured: up to 0.9 s at 1,000 clients when it shared it). Every connection
carries ``idle_in_transaction_session_timeout``: a connection left idle inside a
transaction (a bug: every unit of work here is one ``async with``) is ended by the
server instead of holding its locks, and is named ``cardhall`` in
``pg_stat_activity`` so an operator finds it.

On SQLite each statement is one call on aiosqlite's thread (``sqlite_driver``: its
plain adapter makes four), and the action log, the busiest writer, has a connection
and a thread of its own on which a whole batch is one call (``log_thread``).

``await upgrade(url)`` applies the migrations shipped inside the package; the server
calls it on start, and running it again changes nothing.
"""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from cardhall.hall.store import sqlite_driver
from cardhall.hall.store.log_thread import LogThread

T = TypeVar("T")

DEFAULT_URL = "sqlite:///hall.db"
#: The PostgreSQL advisory lock a migration holds (``upgrade``): any fixed number.
MIGRATION_LOCK = 0x63617264  # "card"

#: PostgreSQL connections one process keeps open (``--db-pool``); as many again may be
#: opened for a burst.
POOL = 20
#: Seconds a unit of work waits for a pooled connection before it fails.
POOL_WAIT = 30.0
#: Milliseconds a connection may sit idle inside a transaction before PostgreSQL ends it.
IDLE_IN_TRANSACTION_MS = 60_000
#: Milliseconds a write waits for a lock another connection holds before it fails
#: (SQLite's busy timeout, PostgreSQL's ``lock_timeout``): a settlement that fails so
#: is tried again later (``settlement.py``), instead of holding a connection for ever.
LOCK_WAIT_MS = 30_000
#: ``application_name`` of the hall's connections (``pg_stat_activity``).
APPLICATION = "cardhall"

#: An execution option: the transaction only reads (SQLite begins it DEFERRED).
READ_ONLY = "cardhall_read_only"

_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


class WriteLock:
    """SQLite's write lock as this process's writers take it: in arrival order, but the
    action log first.

    Every table's next action waits for the log's batch, and everything else that
    writes (a game's start, a settlement, a login) can wait a little: when a thousand
    players quick-match at once, hundreds of games start together, and a batch queued
    behind all their inserts held every table's next action for seconds (measured: a
    log batch over 2.5 s at 1,000 clients). The log has one batch in flight at a time,
    so the others still get the lock between two of its batches.
    """

    def __init__(self) -> None:
        self._held = False
        self._urgent: deque[asyncio.Future[None]] = deque()
        self._others: deque[asyncio.Future[None]] = deque()

    @asynccontextmanager
    async def hold(self, urgent: bool = False) -> AsyncIterator[None]:
        if self._held or self._urgent or self._others:
            waiter = asyncio.get_running_loop().create_future()
            (self._urgent if urgent else self._others).append(waiter)
            try:
                await waiter  # handed the lock by release()
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._release()  # handed over as we were cancelled: pass it on
                elif waiter in (queue := self._urgent if urgent else self._others):
                    queue.remove(waiter)  # release() skips it otherwise, as it is done
                raise
        else:
            self._held = True
        try:
            yield
        finally:
            self._release()

    def _release(self) -> None:
        for queue in (self._urgent, self._others):
            while queue:
                waiter = queue.popleft()
                if not waiter.done():
                    waiter.set_result(None)  # the lock passes to it, still held
                    return
        self._held = False


class DatabaseError(ValueError):
    """A database URL the hall cannot use."""


class DatabaseClosed(RuntimeError):
    """Work asked of a ``Database`` after ``close``: refused, because the engine's pool
    would open a new connection that nothing ever closes."""


def async_url(url: str | URL) -> URL:
    """``url`` with its async driver: sqlite → aiosqlite, postgresql → asyncpg."""
    try:
        u = make_url(url)
    except ArgumentError:
        raise DatabaseError(f"not a database URL: {str(url)!r}") from None
    backend = u.get_backend_name()
    if backend not in _DRIVERS:
        raise DatabaseError(f"database {backend!r} is not supported (use sqlite:// or "
                            "postgresql://)")
    if u.drivername not in (backend, _DRIVERS[backend]):
        raise DatabaseError(f"driver {u.drivername!r}: give a plain {backend}:// URL")
    if backend == "sqlite" and u.database in (None, "", ":memory:"):
        # Every pooled connection would get its own empty in-memory database.
        raise DatabaseError("SQLite needs a file (sqlite:///hall.db), not an in-memory database")
    return u.set(drivername=_DRIVERS[backend])


def _sqlite_setup(engine: AsyncEngine, lock_wait_ms: int) -> None:
    sync = engine.sync_engine

    @event.listens_for(sync, "connect")
    def _connect(dbapi_conn: Any, _record: Any) -> None:
        # Hand transaction control to us (pysqlite's own BEGIN is deferred).
        dbapi_conn.isolation_level = None
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(lock_wait_ms)}")
        cur.close()

    @event.listens_for(sync, "begin")
    def _begin(conn: Connection) -> None:
        read_only = conn.get_execution_options().get(READ_ONLY, False)
        conn.exec_driver_sql("BEGIN" if read_only else "BEGIN IMMEDIATE")


def make_engine(url: str | URL = DEFAULT_URL, *, pool: int = POOL,
                lock_wait_ms: int = LOCK_WAIT_MS, **kwargs: Any) -> AsyncEngine:
    """An async engine for a plain sqlite:// or postgresql:// URL (on PostgreSQL with a
    pool of ``pool`` connections, see the module doc); a write waits ``lock_wait_ms``
    for a lock held elsewhere, then fails."""
    u = async_url(url)
    if u.get_backend_name() == "postgresql":
        if pool < 1:
            raise DatabaseError(f"the database pool needs a connection at least, not {pool}")
        kwargs = {"pool_size": pool, "max_overflow": pool, "pool_timeout": POOL_WAIT,
                  "connect_args": {"server_settings": {
                      "application_name": APPLICATION,
                      "lock_timeout": str(int(lock_wait_ms)),
                      "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS)}},
                  **kwargs}
    if u.get_backend_name() == "sqlite":
        kwargs = {"module": sqlite_driver.DBAPI, **kwargs}
    engine = create_async_engine(u, **kwargs)
    if u.get_backend_name() == "sqlite":
        _sqlite_setup(engine, lock_wait_ms)
    return engine


@dataclass(frozen=True)
class Database:
    """An engine and its session factory: what every hall service is given.

    ``transaction()`` is the unit of work: everything done inside it commits together
    or not at all, which is how a settlement is one transaction.
    """

    engine: AsyncEngine
    sessions: async_sessionmaker[AsyncSession]
    readers: async_sessionmaker[AsyncSession] | None = None
    #: PostgreSQL: the action log's own connection (a pool of one; see the module doc).
    log: AsyncEngine | None = None
    #: SQLite: the action log's own connection and thread (``log_thread``).
    log_thread: LogThread | None = None
    #: SQLite: this process's writers take the write lock in turn (see the module doc).
    _writers: WriteLock = field(default_factory=WriteLock, compare=False, repr=False)
    _closed: bool = field(default=False, compare=False, repr=False)

    @classmethod
    def open(cls, url: str | URL = DEFAULT_URL, **kwargs: Any) -> Database:
        engine = make_engine(url, **kwargs)
        log = log_thread = None
        if engine.dialect.name == "postgresql":  # connects when the log first writes
            log = make_engine(url, **{**kwargs, "pool": 1, "max_overflow": 0})
        else:  # connects when the log first writes
            log_thread = LogThread(str(engine.url.database),
                                   kwargs.get("lock_wait_ms", LOCK_WAIT_MS))
        reading: dict[str, Any] = {READ_ONLY: True}
        if log is not None:  # PostgreSQL: see ``read``
            reading["isolation_level"] = "AUTOCOMMIT"
        return cls(engine, async_sessionmaker(engine, expire_on_commit=False),
                   async_sessionmaker(engine.execution_options(**reading),
                                      expire_on_commit=False), log, log_thread)

    @asynccontextmanager
    async def transaction(self, urgent: bool = False) -> AsyncIterator[AsyncSession]:
        """``urgent``: the action log's (on SQLite it takes the write lock first)."""
        self._check_open()
        if self.dialect != "sqlite":
            async with self.sessions() as session, session.begin():
                yield session
            return
        async with self._writers.hold(urgent), self.sessions() as session, session.begin():
            yield session

    async def write_log(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """SQLite: ``work`` on the action log's own connection and thread, holding this
        process's write lock first as the log does (``urgent``)."""
        if self.log_thread is None:
            raise DatabaseError("the action log's thread is SQLite's")
        async with self._writers.hold(urgent=True):
            return await self.log_thread.run(work)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncSession]:
        """Work that only reads, each statement on one snapshot (on SQLite a deferred
        transaction: it takes no write lock, so it never waits for the writers).

        On PostgreSQL it runs in autocommit: under READ COMMITTED a transaction gives
        each statement a snapshot of its own anyway, so ``BEGIN`` and ``COMMIT`` around
        the hall's reads (one statement each) were two round trips that bought nothing,
        and a game's start reads balances and names several times. Work that needs
        one snapshot across statements, or reads before it writes, uses
        ``transaction()``."""
        self._check_open()
        async with (self.readers or self.sessions)() as session, session.begin():
            yield session

    def _check_open(self) -> None:
        if self._closed:
            raise DatabaseClosed("the database is closed (the hall is stopping)")

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def close(self) -> None:
        # Work still running after this is refused, not connected (frozen: set once).
        object.__setattr__(self, "_closed", True)
        await self.engine.dispose()
        if self.log is not None:
            await self.log.dispose()
        if self.log_thread is not None:
            await self.log_thread.close()


def alembic_config() -> Config:
    """Alembic's configuration for the migrations shipped in this package."""
    cfg = Config()
    cfg.set_main_option("script_location", str(files("cardhall.hall.store") / "migrations"))
    return cfg


def _upgrade_on(conn: Connection, revision: str) -> None:
    cfg = alembic_config()
    cfg.attributes["connection"] = conn
    command.upgrade(cfg, revision)


async def upgrade(url: str | URL | AsyncEngine = DEFAULT_URL, revision: str = "head") -> None:
    """Bring the database at ``url`` (or behind an engine) up to ``revision``.

    Idempotent: on an up-to-date database it does nothing. Runs on one connection in
    one transaction (PostgreSQL rolls back a failed migration whole). On PostgreSQL the
    transaction first takes an advisory lock: hall processes started at once on a new
    database migrate it one after the other (the second finds it up to date), rather
    than both inserting the first ``alembic_version`` row and one of them failing.
    """
    engine = url if isinstance(url, AsyncEngine) else make_engine(url)
    try:
        async with engine.connect() as conn:
            # SQLite: a deferred BEGIN, so an up-to-date database is only read (a hall
            # restarting while another connection holds the write lock still starts);
            # a migration to apply takes the write lock at its first write.
            await conn.execution_options(**{READ_ONLY: True})
            async with conn.begin():
                if conn.dialect.name == "postgresql":
                    await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"),
                                       {"key": MIGRATION_LOCK})
                await conn.run_sync(_upgrade_on, revision)
    finally:
        if engine is not url:
            await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """``python -m cardhall.hall.store.db [URL]``: apply the migrations by hand."""
    args = sys.argv[1:] if argv is None else argv
    url = args[0] if args else DEFAULT_URL
    asyncio.run(upgrade(url))
    print(f"{make_url(url).render_as_string(hide_password=True)}: up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
