"""The group writer's gather window (``commit_delay``): it waits for more items only
while they arrive fast enough, never with a full batch, never after ``close``."""

from __future__ import annotations

import asyncio

from cardhall.hall.store.group_writer import ArrivalRate, GroupWriter
from tests.hall.clock import Clock

#: Longer than any test runs: a writer that gathered when it should not hangs the test
#: until ``wait_for`` gives up, and the test fails.
FOREVER = 3600.0


class Recorder:
    def __init__(self) -> None:
        self.batches: list[list[int]] = []
        self.wrote = asyncio.Event()

    async def write(self, batch: list[int]) -> None:
        self.batches.append(batch)
        self.wrote.set()

    async def next_batch(self) -> list[int]:
        await asyncio.wait_for(self.wrote.wait(), 10)
        self.wrote.clear()
        return self.batches[-1]


def _writer(rec: Recorder, clock: Clock, limit: int = 100) -> GroupWriter[int]:
    return GroupWriter("test", rec.write, limit, gather=FOREVER, clock=clock)


async def test_a_quiet_writer_writes_a_lone_item_at_once() -> None:
    rec, clock = Recorder(), Clock(100.0)
    writer = _writer(rec, clock)
    writer.put(1)
    assert await rec.next_batch() == [1]
    assert not writer.busy()
    await writer.close()


def _arrive(rate: ArrivalRate, clock: Clock, per_second: int) -> None:
    """``per_second`` items in half a second, then the clock into the next second."""
    start = clock.now
    for _ in range(per_second):
        clock.now += 0.5 / per_second
        rate.add()
    clock.now = start + 1.01


async def _gathering(writer: GroupWriter[int]) -> None:
    """Until the writer's task waits in its gather window (a few turns of the loop)."""
    for _ in range(100):
        if writer._gathering is not None:
            return
        await asyncio.sleep(0)
    raise AssertionError("the writer did not start gathering")


async def test_a_busy_writer_gathers_until_the_batch_is_full() -> None:
    rec, clock = Recorder(), Clock(100.0)
    writer = _writer(rec, clock, limit=3)
    _arrive(writer.rate, clock, 5)
    assert writer.busy()  # 5 a second, gathering for an hour: more are expected
    writer.put(1)
    await _gathering(writer)
    assert rec.batches == []
    writer.put(2)
    assert rec.batches == []
    writer.put(3)  # the batch is full: it goes without waiting out the window
    assert await rec.next_batch() == [1, 2, 3]
    await writer.close()


async def test_close_ends_a_gather_and_writes_what_is_pending() -> None:
    rec, clock = Recorder(), Clock(100.0)
    writer = _writer(rec, clock)
    _arrive(writer.rate, clock, 5)
    writer.put(7)
    writer.put(8)
    await _gathering(writer)
    await asyncio.wait_for(writer.close(), 10)
    assert rec.batches == [[7, 8]]


def test_the_rate_is_the_last_whole_second() -> None:
    clock = Clock(100.0)
    rate = ArrivalRate(clock)
    _arrive(rate, clock, 3)
    assert rate.last_second() == 3
    _arrive(rate, clock, 4)
    assert rate.last_second() == 4
    clock.now += 0.5  # the second under way does not count yet
    assert rate.last_second() == 4
    clock.now += 2.0  # then nothing for two seconds: none
    assert rate.last_second() == 0


def test_a_writer_is_busy_when_one_more_is_expected_in_its_window() -> None:
    clock = Clock(100.0)
    rec = Recorder()
    writer = GroupWriter("test", rec.write, 100, gather=0.25, clock=clock)
    _arrive(writer.rate, clock, 3)
    assert not writer.busy()  # 3 a second × 0.25 s: under one more expected
    _arrive(writer.rate, clock, 4)
    assert writer.busy()  # 4 × 0.25 s: one more expected
    off = GroupWriter("test", rec.write, 100, gather=0.0, clock=clock)
    _arrive(off.rate, clock, 1000)
    assert not off.busy()  # gather 0: never
