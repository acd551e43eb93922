"""One writer task that writes what arrives while it writes, in batches (group commit).

The action log (``journal``) and the games' starts (``starts``) both wait for a
commit before anyone hears of what they record; one transaction each makes a busy
hall queue for the database's writer. A ``GroupWriter`` keeps the items that arrive
while a batch is being written and hands them to its ``write`` together, at most
``limit`` at a time: a lone item is written at once, and under load the batches grow
by themselves, with no timer. Each item carries its own future, which ``write``
resolves; the writer only gathers and orders.
"""

from __future__ import annotations

import asyncio
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


class GroupWriter(Generic[Item]):
    def __init__(self, name: str, write: Callable[[list[Item]], Awaitable[None]],
                 limit: int) -> None:
        self.name, self.write, self.limit = name, write, limit
        self._pending: list[Item] = []
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def put(self, item: Item) -> None:
        """Queue ``item`` for the next batch (the writer's task starts with the first)."""
        if self._task is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)
        assert self._wake is not None
        self._pending.append(item)
        self._wake.set()

    async def _run(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                batch = self._pending[:self.limit]
                del self._pending[:self.limit]
                await self.write(batch)
            if self.closed:
                return

    async def close(self) -> None:
        """Write what is pending, then stop the task (``closed`` is set at once)."""
        self.closed = True
        if self._task is not None and self._wake is not None:
            self._wake.set()
            await self._task
            self._task = None
