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
from cardhall.hall.store.group_writer import GroupWriter, resolve

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
        self._writer = GroupWriter("game-starts", self._write, batch_limit)
        self.batches = 0  # transactions written (for tests)

    async def start(self, start: GameStart) -> str:
        """Record ``start``'s game; its id once committed (``create_game``'s errors)."""
        item = _Start(start, asyncio.get_running_loop().create_future())
        if self._writer.closed:  # shutting down: written at once, on its own
            await self._write([item])
            return await item.done
        self._writer.put(item)
        # Shielded: a cancelled caller must not cancel what the batch resolves.
        return await asyncio.shield(item.done)

    async def _write(self, batch: list[_Start]) -> None:
        try:
            made = await create_games(self.db, [b.start for b in batch])
            self.batches += 1
        except Exception as exc:
            if len(batch) == 1:
                resolve(batch[0].done, exc)
                return
            log.info("a batch of %d game starts failed (%s): writing them one by one",
                     len(batch), exc)
            for b in batch:
                await self._write([b])
            return
        for b, m in zip(batch, made, strict=True):
            resolve(b.done, m)

    async def close(self) -> None:
        """Write what is pending, then stop the writer (later starts are written alone)."""
        await self._writer.close()
