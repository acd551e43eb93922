"""SQLite: the action log's own connection, on a thread of its own, one call per batch.

The action log is the hall's busiest writer: every accepted action waits for its
batch to commit (``journal.ActionJournal``). Written through the async engine, a
batch of three statements and a commit cost about a dozen hand-offs between the
event loop and aiosqlite's thread (each statement opens a cursor, executes, fetches
and closes, each a round trip through the loop) plus SQLAlchemy's compiling and
result handling on the loop's thread: measured, the database was a third of the
loop's CPU at 1,000 clients, and the log most of it. Here a batch is one function
run on the thread, on a plain ``sqlite3`` connection: one hand-off there and one
back, and the loop's thread only gathers the rows.

The connection is set up as the engine's are (WAL, foreign keys, the busy timeout,
transactions begun by hand) and the caller takes this process's write lock
(``db.WriteLock``) first, as every writer does, so its ``BEGIN IMMEDIATE`` never
waits in SQLite's busy handler behind a writer of this process. PostgreSQL needs
none of this: asyncpg speaks to the server from the loop itself, and the log's batch
is one statement there (``game_rows._PG_APPEND``).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple, TypeVar

T = TypeVar("T")

#: A row of the log as the thread writes it: (game, seq, seat, action, created as
#: the engine stores it on SQLite).
LogRow = tuple[str, int, int | None, str, str]


class GameAt(NamedTuple):
    """A game's row as an append checks it, inside the append's transaction."""

    status: str
    fence: int
    ended: bool


class LogThread:
    """A ``sqlite3`` connection to the hall's database file that only one thread uses."""

    def __init__(self, path: str, lock_wait_ms: int) -> None:
        self.path = os.path.abspath(path)
        self.lock_wait_ms = lock_wait_ms
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardhall-log")
        self._conn: sqlite3.Connection | None = None

    async def run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(connection)`` on the thread. A caller cancelled meanwhile still waits
        for it to end before the cancellation goes on: the caller holds the process's
        write lock, which must not pass on while the thread is still writing."""
        done = asyncio.get_running_loop().run_in_executor(self._pool, self._call, work)
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            await asyncio.wait([done])
            raise

    def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._conn is None:
            conn = sqlite3.connect(self.path, isolation_level=None,
                                   timeout=self.lock_wait_ms / 1000)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={int(self.lock_wait_ms)}")
            self._conn = conn
        return work(self._conn)

    async def close(self) -> None:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._pool, self._close)
        self._pool.shutdown(wait=True)

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def append_rows(conn: sqlite3.Connection, rows: Sequence[LogRow],
                fences: Sequence[int | None]) -> set[tuple[str, int]]:
    """Write the rows whose game is live and not over and whose fence (when given) is
    the game's, in one transaction; return the (game, seq) of those written. A row
    that exists raises ``sqlite3.IntegrityError`` and the transaction is rolled back."""
    ids = sorted({r[0] for r in rows})
    conn.execute("BEGIN IMMEDIATE")
    try:
        stored = dict(conn.execute(
            f"SELECT id, fence FROM games WHERE id IN ({','.join('?' * len(ids))}) "
            "AND status = 'live' AND ended IS NULL", ids).fetchall())
        ok = [r for r, fence in zip(rows, fences, strict=True)
              if r[0] in stored and fence in (None, stored[r[0]])]
        if ok:
            conn.executemany("INSERT INTO actions (game_id, seq, seat, action, created) "
                             "VALUES (?, ?, ?, ?, ?)", ok)
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return {(r[0], r[1]) for r in ok}


def append_one(conn: sqlite3.Connection, row: LogRow,
               check: Callable[[GameAt | None, int], None], final: bool) -> None:
    """Write one row after ``check`` (given the game, or None, and its last seq) lets
    it, in one transaction; ``final`` also marks the game ended at the row's time. A
    refusal ``check`` raises rolls the transaction back and goes on to the caller."""
    game_id = row[0]
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = conn.execute("SELECT status, fence, ended FROM games WHERE id = ?",
                             (game_id,)).fetchone()
        last = conn.execute("SELECT coalesce(max(seq), 0) FROM actions WHERE game_id = ?",
                            (game_id,)).fetchone()[0]
        check(None if found is None else GameAt(found[0], found[1], found[2] is not None),
              int(last))
        conn.execute("INSERT INTO actions (game_id, seq, seat, action, created) "
                     "VALUES (?, ?, ?, ?, ?)", row)
        if final:
            conn.execute("UPDATE games SET ended = ? WHERE id = ?", (row[4], game_id))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
