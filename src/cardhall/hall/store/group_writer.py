"""One writer task that writes what arrives while it writes, in batches (group commit).

The action log (``journal``) and the games' starts (``starts``) both wait for a
commit before anyone hears of what they record; one transaction each makes a busy
hall queue for the database's writer. A ``GroupWriter`` keeps the items that arrive
while a batch is being written and hands them to its ``write`` together, at most
``limit`` at a time: a lone item is written at once, and under load the batches grow
by themselves. Each item carries its own future, which ``write`` resolves; the writer
only gathers and orders.

Growing by themselves is not enough when each write is quick: on SQLite a commit's
fsync takes about 0.3 ms, so at 300 actions a second nearly every batch held one row,
and each batch costs a hand-off to the log's thread and back, a transaction and an
fsync (measured: most of the log's CPU, a sixth of the process's). So, like
PostgreSQL's ``commit_delay``, a writer may ``gather``: before a batch, wait up to that
many seconds for more items, but only while items arrive fast enough that one more
is expected in the wait (the last whole second's count times ``gather`` at least 1,
PostgreSQL's ``commit_siblings`` in spirit). A quiet hall's lone item still goes at
once, and a full batch goes without waiting.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

Item = TypeVar("Item")
T = TypeVar("T")


def resolve(done: asyncio.Future[T], outcome: T | BaseException) -> None:
    """Tell one item's waiter its outcome (a value, or the exception it fails with),
    unless it has been told already (a batch that failed whole, then tried row by row)."""
    if done.done():
        return
    if isinstance(outcome, BaseException):
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


class ArrivalRate:
    """How many items arrived in the last whole second (counted per second of
    ``clock``; a second with none, or a gap of two, counts as none)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._second = clock()  # when the second being counted began
        self._this_second = 0
        self._last_second = 0

    def add(self) -> None:
        self._roll()
        self._this_second += 1

    def last_second(self) -> int:
        self._roll()
        return self._last_second

    def _roll(self) -> None:
        now = self._clock()
        if now - self._second >= 1.0:
            self._last_second = self._this_second if now - self._second < 2.0 else 0
            self._this_second = 0
            self._second = now


class GroupWriter(Generic[Item]):
    def __init__(self, name: str, write: Callable[[list[Item]], Awaitable[None]],
                 limit: int, gather: float = 0.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.name, self.write, self.limit, self.gather = name, write, limit, gather
        self._pending: list[Item] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._gathering: asyncio.Future[None] | None = None
        self.closed = False
        self.rate = ArrivalRate(clock)

    def put(self, item: Item) -> None:
        """Queue ``item`` for the next batch (the writer's task starts with the first)."""
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)
        assert self._wake is not None
        self.rate.add()
        self._pending.append(item)
        self._wake.set()
        if len(self._pending) >= self.limit:
            self._stop_gathering()

    def busy(self) -> bool:
        """Whether items arrive fast enough that one more is expected within ``gather``."""
        return self.gather > 0 and self.rate.last_second() * self.gather >= 1.0

    async def _run(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            if self._pending and len(self._pending) < self.limit and not self.closed \
                    and self.busy():
                self._gathering = loop.create_future()
                timer = loop.call_later(self.gather, self._stop_gathering)
                try:
                    await self._gathering
                finally:
                    timer.cancel()
                    self._gathering = None
            while self._pending:
                batch = self._pending[:self.limit]
                del self._pending[:self.limit]
                await self.write(batch)
            if self.closed:
                return

    def _stop_gathering(self) -> None:
        if self._gathering is not None and not self._gathering.done():
            self._gathering.set_result(None)

    async def close(self) -> None:
        """Write what is pending, then stop the task (``closed`` is set at once)."""
        self.closed = True
        self._stop_gathering()
        if self._task is not None and self._wake is not None:
            self._wake.set()
            await self._task
            self._task = None
