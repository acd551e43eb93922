"""SQLite under SQLAlchemy's async engine with one thread hand-off per statement.

aiosqlite runs every call on its connection's thread and hands the result back
through the event loop, and SQLAlchemy's adapter makes four such calls for each
statement: open a cursor, execute, fetch the rows, close the cursor. Each hand-off
costs the loop a wake-up and about 70–100 µs of CPU (``queue`` put, a futex, the
self-pipe, a callback), and a settlement's dozen statements made fifty of them,
holding the database's write lock between each. Here a statement is one call on
the same thread: the cursor is opened, run, read and closed there, and what SQLAlchemy
reads back (the rows, ``description``, ``rowcount``, ``lastrowid``) comes back at once.

Everything else is aiosqlite's and SQLAlchemy's own: the connection, its thread, the
pool, transactions, errors. The cursor class overrides the hooks SQLAlchemy 2.1's
asyncio connector has for this (``_make_new_cursor``, ``_aenter_cursor``,
``_execute_async``, ``_executemany_async``); the dependency range pins 2.1, and
``tests/hall/test_sqlite_driver.py`` checks the count of calls per statement.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Sequence
from threading import Thread
from typing import Any, cast

import aiosqlite
from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)
from sqlalchemy.util.concurrency import await_


class _Ran:
    """What SQLAlchemy reads from a cursor once its statement has run."""

    __slots__ = ("arraysize", "description", "lastrowid", "rowcount")

    def __init__(self, description: Any = None, rowcount: int = -1,
                 lastrowid: int | None = None) -> None:
        self.description, self.rowcount, self.lastrowid = description, rowcount, lastrowid
        self.arraysize = 1

    def close(self) -> None:
        """Nothing to close: the real cursor was closed on the thread."""


def _run(conn: sqlite3.Connection, operation: str, parameters: Any,
         many: bool) -> tuple[_Ran, Sequence[Any]]:
    """On the connection's thread: the whole life of a cursor."""
    cursor = conn.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        elif parameters is None:
            cursor.execute(operation)
        else:
            cursor.execute(operation, parameters)
        rows = cursor.fetchall() if cursor.description else ()
        return _Ran(cursor.description, cursor.rowcount, cursor.lastrowid), rows
    finally:
        cursor.close()


class OneCallCursor(AsyncAdapt_aiosqlite_cursor):
    __slots__ = ()
    _awaitable_cursor_close = False

    def _make_new_cursor(self, connection: Any) -> Any:
        return _Ran()

    def _aenter_cursor(self, cursor: Any) -> Any:
        return cursor

    async def _call(self, operation: str, parameters: Any, many: bool) -> None:
        async with self._adapt_connection._execute_mutex:
            conn = cast(aiosqlite.Connection, self._connection)
            ran, rows = await conn._execute(  # type: ignore[no-untyped-call]
                _run, conn._conn, operation, parameters, many)
            self._cursor = ran
            self._rows = deque(rows)

    async def _execute_async(self, operation: Any, parameters: Any) -> None:
        await self._call(operation, parameters, False)

    async def _executemany_async(self, operation: Any, seq_of_parameters: Any) -> None:
        await self._call(operation, seq_of_parameters, True)


class OneCallConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ()
    _cursor_cls = OneCallCursor


class OneCallDBAPI(AsyncAdapt_aiosqlite_dbapi):
    def connect(self, *arg: Any, **kw: Any) -> OneCallConnection:
        connection = aiosqlite.connect(*arg, **kw)
        thread = connection if isinstance(connection, Thread) else connection._thread
        thread.daemon = True  # as SQLAlchemy's own: a forgotten connection never holds exit
        return OneCallConnection(self, await_(connection))  # type: ignore[arg-type]


#: The DBAPI module the hall's SQLite engines are made with (``create_async_engine``'s
#: ``module``).
DBAPI = OneCallDBAPI(aiosqlite, sqlite3)
