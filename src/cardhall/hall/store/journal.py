"""Group commit of the action log: many tables' appends in one transaction.

A table appends one accepted action at a time and waits until it is committed
before anyone hears of it (docs: "an action is durable before anyone hears of
it"). One transaction per action makes a busy hall spend its time beginning and
committing transactions (an fsync each on SQLite with ``synchronous=FULL``) and
queueing for SQLite's single write lock. ``ActionJournal`` instead gathers the
appends that arrive while the previous batch is being written and writes them
together, in one transaction (``games.append_actions``): a lone action is written
at once, under load the batches grow by themselves, and while actions arrive faster
than one per ``gather`` seconds a batch waits that long for more first
(``group_writer``: PostgreSQL's ``commit_delay``; ``[action_log] gather_ms``).

The guarantees are the ones of ``append_action``: each caller's ``append``
returns only after the transaction holding its row has committed, so a table
still broadcasts only what is durable, and each table's actions still come in
its own order (a table has at most one append in flight: it waits for it). The
batch checks each row's game inside the insert itself (on PostgreSQL one
``INSERT … SELECT`` that joins the games: live, and the row's fencing token the
game's), so a batch is one round trip there; a row it refuses (its game ended, or
its writer lost the table's lease: another token is on the game) is not written,
the others are, and the refused rows are written again one by one with
``append_action``'s checks, which fail with the right error (``Conflict``,
``Fenced``). If the batch fails whole (a ``(game, seq)`` that exists: another
process wrote it), it is rolled back and its rows are written one by one too, so
only the offending rows fail.

A game's final action (``final``) is not batched: it is written by ``append_action``,
which marks the game over in the same transaction (one per game, so it costs little).

Bounded: the pending rows are at most one per live table (each waits for its
own), and one transaction takes at most ``BATCH_LIMIT`` of them.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from cardhall.hall.domain.errors import BadRequest
from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import ActionRow, append_action, append_actions
from cardhall.hall.store.group_writer import GroupWriter, resolve
from cardhall.hall.store.models import utcnow

log = logging.getLogger("cardhall.hall.journal")

#: Rows written in one transaction at most.
BATCH_LIMIT = 512


@dataclass(slots=True)
class _Row:
    game_id: str
    seq: int
    action: str
    seat: int | None
    created: datetime
    fence: int | None
    done: asyncio.Future[None]


class JournalClosed(RuntimeError):
    """An append after ``close``: the hall is shutting down."""


class ActionJournal:
    def __init__(self, db: Database, batch_limit: int = BATCH_LIMIT,
                 gather: float = 0.0) -> None:
        self.db = db
        self._writer = GroupWriter("action-journal", self._write, batch_limit, gather)
        self.batches = 0  # transactions written (for tests and tuning)
        self.rows = 0
        #: Told each batch's rows and the seconds its statement took (the server's
        #: ``cardhall_log_batch_*`` metrics).
        self.batch_hook: Callable[[int, float], None] | None = None

    async def append(self, game_id: str, seq: int, action: str, seat: int | None,
                     fence: int | None = None, final: bool = False) -> None:
        """Append the ``seq``-th action of a live game; returns once it is committed
        (``Fenced`` when ``fence`` is given and is not the game's). ``final``: the
        action ends the game (see the module doc)."""
        if self._writer.closed:
            raise JournalClosed("the action log is closed")
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 1:
            raise BadRequest(f"seq counts from 1, not {seq!r}")
        if final:  # a batch of its own: told to the batch hook as one
            started = time.perf_counter()
            await append_action(self.db, game_id, seq, action, seat, fence=fence, final=True)
            self.batches += 1
            self.rows += 1
            if self.batch_hook is not None:
                self.batch_hook(1, time.perf_counter() - started)
            return
        row = _Row(game_id, seq, action, seat, utcnow(), fence,
                   asyncio.get_running_loop().create_future())
        self._writer.put(row)
        # Shielded: a caller that is cancelled must not cancel the row's future, which
        # the writer resolves when the batch commits (the row may be committed anyway).
        await asyncio.shield(row.done)

    async def _write(self, batch: list[_Row]) -> None:
        started = time.perf_counter()
        try:
            refused = await append_actions(self.db, [_values(r) for r in batch])
        except Exception as exc:
            if len(batch) == 1:
                resolve(batch[0].done, exc)
                return
            log.info("a batch of %d actions failed (%s): writing them one by one",
                     len(batch), exc)
            await self._one_by_one(batch)
            return
        self.batches += 1
        self.rows += len(batch) - len(refused)
        if self.batch_hook is not None:
            self.batch_hook(len(batch), time.perf_counter() - started)
        left = {(g, seq) for g, seq, *_ in refused}
        for r in batch:
            if (r.game_id, r.seq) not in left:
                resolve(r.done, None)
        # Not live, or fenced: append_action says which, row by row (nothing is written).
        await self._one_by_one([r for r in batch if (r.game_id, r.seq) in left])

    async def _one_by_one(self, rows: list[_Row]) -> None:
        for r in rows:
            try:
                await append_action(self.db, r.game_id, r.seq, r.action, r.seat,
                                    now=r.created, fence=r.fence)
            except Exception as one:
                resolve(r.done, one)
            else:
                resolve(r.done, None)

    async def close(self) -> None:
        """Write what is pending, then take no more appends."""
        await self._writer.close()


def _values(r: _Row) -> ActionRow:
    return (r.game_id, r.seq, r.action, r.seat, r.created, r.fence)
