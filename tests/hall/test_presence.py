"""Presence and seat keys written to a real Redis in batches (``hall/cluster/presence.py``)."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from cardhall.hall.cluster.presence import KeyWriter


async def test_writes_made_together_go_in_few_round_trips_in_order_each_with_its_answer(
        redis: Redis, p: str) -> None:
    keys = KeyWriter(redis)
    try:
        await redis.set(f"{p}0", "old 0")
        # 200 hellos at once (a reconnect storm): each hears what its key held before.
        olds = await asyncio.gather(*(keys.swap(f"{p}{i}", f"proc {i}") for i in range(200)))
        assert olds == ["old 0", *[None] * 199]
        assert keys.batches < 20  # not one round trip per write
        assert await redis.get(f"{p}7") == "proc 7"
        # Made in this order, applied in this order: a detach of the connection that was
        # just replaced deletes nothing; a set then a delete of the same key leaves none.
        done = await asyncio.gather(
            keys.delete_if(f"{p}1", "proc 0"), keys.delete_if(f"{p}2", "proc 2"),
            keys.set(f"{p}3", "seat"), keys.delete_if(f"{p}3", "seat"))
        assert list(done) == [False, True, None, True]
        assert await redis.get(f"{p}1") == "proc 1"
        assert await redis.exists(f"{p}2", f"{p}3") == 0
    finally:
        await keys.close()


async def test_a_write_redis_refuses_fails_its_writer_only(redis: Redis, p: str) -> None:
    keys = KeyWriter(redis)
    key = f"{p}list"
    try:
        await redis.rpush(key, "a list")  # SET … GET on a list: Redis refuses it
        failed = await asyncio.gather(keys.swap(key, "x"), keys.set(f"{key}:ok", "y"),
                                      return_exceptions=True)
        assert isinstance(failed[0], Exception) and "WRONGTYPE" in str(failed[0])
        assert failed[1] is None  # its neighbour in the batch was written
        assert await redis.get(f"{key}:ok") == "y"
    finally:
        await keys.close()
