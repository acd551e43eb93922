"""Group commit of game starts: the games that start while one batch is written go
in the next, one transaction for them all (``game_rows.create_games``).

Every game's start was its own transaction, and on SQLite each queued for the one
write lock behind the others: when hundreds of games started together (2,000 players
quick-matching, or every table's ``next`` after a wave of settlements) the last one
waited for all the others' round trips and commits, and its players for their deal
(the load test's 2,000 clients saw no deal for a minute). A batch costs a fixed
number of statements whatever it holds. As in the action log (``journal``): a lone
start is written at once, the batches grow by themselves under load, with no timer;
each caller returns once its game is committed (or with why it was not: one game
refused does not refuse the others); a batch that fails whole is written again game
by game, so only the offending one fails.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from cardhall.hall.store.db import Database
from cardhall.hall.store.game_rows import GameStart, create_games

log = logging.getLogger("cardhall.hall.starts")

#: Games recorded in one transaction at most.
BATCH_LIMIT = 256


@dataclass(slots=True)
class _Start:
    start: GameStart
    done: asyncio.Future[str]


class GameStarts:
    def __init__(self, db: Database, batch_limit: int = BATCH_LIMIT) -> None:
        self.db = db
        self.batch_limit = batch_limit
        self._pending: list[_Start] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self.batches = 0  # transactions written (for tests)

    async def start(self, start: GameStart) -> str:
        """Record ``start``'s game; its id once committed (``create_game``'s errors)."""
        loop = asyncio.get_running_loop()
        if self._closed:  # shutting down: written at once, on its own
            item = _Start(start, loop.create_future())
            await self._write([item])
            return await item.done
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = loop.create_task(self._run(), name="game-starts")
        assert self._wake is not None
        item = _Start(start, loop.create_future())
        self._pending.append(item)
        self._wake.set()
        # Shielded: a cancelled caller must not cancel what the batch resolves.
        return await asyncio.shield(item.done)

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[:self.batch_limit]
                del self._pending[:self.batch_limit]
                await self._write(batch)
            if self._closed:
                return

    async def _write(self, batch: list[_Start]) -> None:
        try:
            made = await create_games(self.db, [b.start for b in batch])
            self.batches += 1
        except Exception as exc:
            if len(batch) == 1:
                _resolve(batch[0], exc)
                return
            log.info("a batch of %d game starts failed (%s): writing them one by one",
                     len(batch), exc)
            for b in batch:
                await self._write([b])
            return
        for b, m in zip(batch, made, strict=True):
            _resolve(b, m)

    async def close(self) -> None:
        """Write what is pending, then stop the writer (later starts are written alone)."""
        self._closed = True
        if self._task is not None and self._wake is not None:
            self._wake.set()
            await self._task
            self._task = None


def _resolve(item: _Start, made: str | BaseException) -> None:
    if item.done.done():
        return
    if isinstance(made, BaseException):
        item.done.set_exception(made)
    else:
        item.done.set_result(made)
