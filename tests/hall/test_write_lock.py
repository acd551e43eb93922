"""``db.WriteLock``: SQLite's writers in arrival order, the action log first; a writer
cancelled while it waits (or just as it is handed the lock) leaves it to the next."""

from __future__ import annotations

import asyncio

import pytest

from cardhall.hall.store.db import WriteLock


async def test_waiters_go_in_order_and_the_urgent_ones_first() -> None:
    lock = WriteLock()
    order: list[str] = []
    release = asyncio.Event()

    async def writer(name: str, urgent: bool = False) -> None:
        async with lock.hold(urgent):
            order.append(name)
            if name == "first":
                await release.wait()

    first = asyncio.create_task(writer("first"))
    await asyncio.sleep(0)  # it holds the lock
    tasks = [asyncio.create_task(writer(n, urgent=n.startswith("log")))
             for n in ("start a", "log 1", "start b", "log 2", "settle")]
    for _ in range(3):
        await asyncio.sleep(0)  # every one queued
    assert order == ["first"]
    release.set()
    await asyncio.gather(first, *tasks)
    assert order == ["first", "log 1", "log 2", "start a", "start b", "settle"]


async def test_a_cancelled_waiter_leaves_the_lock_to_the_next() -> None:
    lock = WriteLock()
    held = asyncio.Event()
    release = asyncio.Event()
    got: list[str] = []

    async def holder() -> None:
        async with lock.hold():
            held.set()
            await release.wait()

    async def writer(name: str, urgent: bool = False) -> None:
        async with lock.hold(urgent):
            got.append(name)

    h = asyncio.create_task(holder())
    await held.wait()
    gone = asyncio.create_task(writer("gone", urgent=True))
    after = asyncio.create_task(writer("after"))
    await asyncio.sleep(0)
    gone.cancel()  # while it waits
    with pytest.raises(asyncio.CancelledError):
        await gone
    release.set()
    await asyncio.gather(h, after)
    assert got == ["after"]
    # Cancelled just as the lock was handed to it: it passes the lock on.
    held.clear()
    release.clear()
    h = asyncio.create_task(holder())
    await held.wait()
    handed = asyncio.create_task(writer("handed"))
    last = asyncio.create_task(writer("last"))
    await asyncio.sleep(0)
    release.set()
    await asyncio.sleep(0)  # the holder's release hands the lock to ``handed``...
    await asyncio.sleep(0)
    handed.cancel()  # ...which is cancelled before it runs
    await asyncio.gather(h, last, handed, return_exceptions=True)
    assert got[1:] in (["last"], ["handed", "last"])
    async with asyncio.timeout(1):
        async with lock.hold():  # and nothing is left holding it
            pass
