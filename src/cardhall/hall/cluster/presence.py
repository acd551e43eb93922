"""Presence and seat keys written to Redis in batches, one pipeline per round trip.

Every hello sets the player's presence key, every disconnect deletes it (if it is
still that connection's), and every table that starts or closes sets or deletes its
players' seat keys. One round trip each is what a reconnect storm (a process died:
its hundreds of clients come back at once to the others) or a busy lobby turns into
hundreds of round trips queueing for the pool. ``KeyWriter`` instead gathers the
writes that arrive while the previous batch is in flight and sends them in one
pipeline (not a transaction: each write stands alone), as the action log does with
its rows (``journal.py``): a lone write goes at once, and under load the batches
grow by themselves, with no timer.

Each caller still waits for its own write and gets its own answer (the old value of
a ``SET … GET``, whether a delete happened), and the writes reach Redis in the order
they were made, so a player's attach and detach cannot swap.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis

from cardhall.hall.cluster import redis_keys as rk
from cardhall.hall.store.group_writer import resolve

#: Writes sent in one pipeline at most.
BATCH_LIMIT = 512


@dataclass(slots=True)
class _Write:
    op: str  # "set", "set_get" or "delete_if"
    key: str
    value: str
    done: asyncio.Future[Any]


class KeyWriter:
    def __init__(self, redis: Redis, batch_limit: int = BATCH_LIMIT) -> None:
        self.redis = redis
        self.batch_limit = batch_limit
        self._pending: list[_Write] = []
        self._task: asyncio.Task[None] | None = None
        self.batches = 0  # pipelines sent (for tests and tuning)

    async def set(self, key: str, value: str) -> None:
        await self._write("set", key, value)

    async def swap(self, key: str, value: str) -> str | None:
        """Set ``key`` to ``value``; what it held before (None: nothing)."""
        old = await self._write("set_get", key, value)
        return None if old is None else str(old)

    async def delete_if(self, key: str, value: str) -> bool:
        """Delete ``key`` if it holds ``value``; whether it did."""
        return bool(await self._write("delete_if", key, value))

    async def _write(self, op: str, key: str, value: str) -> Any:
        loop = asyncio.get_running_loop()
        write = _Write(op, key, value, loop.create_future())
        self._pending.append(write)
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._run(), name="redis-key-writer")
        # Shielded: a cancelled caller must not cancel the future the batch resolves.
        return await asyncio.shield(write.done)

    async def _run(self) -> None:
        while self._pending:
            batch = self._pending[:self.batch_limit]
            del self._pending[:self.batch_limit]
            await self._send(batch)

    async def _send(self, batch: list[_Write]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        for w in batch:
            if w.op == "delete_if":
                # EVAL, not EVALSHA: a pipeline with scripts would first ask whether
                # Redis knows them (a round trip more); Redis caches the compiled script.
                pipe.eval(rk.DELETE_IF, 1, w.key, w.value)
            else:
                pipe.set(w.key, w.value, get=w.op == "set_get")
        try:
            answers = await pipe.execute(raise_on_error=False)
        except Exception as exc:  # the round trip failed: every writer hears why
            answers = [exc] * len(batch)
        self.batches += 1
        for w, answer in zip(batch, answers, strict=True):
            resolve(w.done, answer)

    async def close(self) -> None:
        """Wait for the writes already made."""
        if self._task is not None:
            await self._task
