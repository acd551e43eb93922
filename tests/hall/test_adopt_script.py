"""The adoption lease script (``redis_keys.ADOPT``) on a real Redis.

After Redis restarts empty, the token counter is below the token a live game carries.
An adopter must then not take the table's lease with a token that cannot write (a live
owner would find its lease taken at its next renewal and drop the table): the script
raises the counter and leaves the lease free; the next try takes it above the game's.
"""

from __future__ import annotations

from redis.asyncio import Redis

from cardhall.hall.cluster import redis_keys as rk


async def test_a_counter_below_the_games_token_is_raised_and_the_lease_left_free(
        redis: Redis, p: str) -> None:
    client = redis
    lease, counter = f"{p}lease:t1", f"{p}fence"
    # Redis lost its data: no counter, no lease; the game carries token 7.
    assert await client.eval(rk.ADOPT, 2, lease, counter, "proc-a", 5000, 7) is None
    assert await client.get(lease) is None  # not taken: the owner can set it again
    assert await client.get(counter) == "7"
    # The owner did not come back: the next look adopts, above the game's token.
    assert await client.eval(rk.ADOPT, 2, lease, counter, "proc-a", 5000, 7) == 8
    assert await client.get(lease) == "proc-a 8"
    # Held: another process gets nothing, and the counter is not touched.
    assert await client.eval(rk.ADOPT, 2, lease, counter, "proc-b", 5000, 7) is None
    assert await client.get(counter) == "8"


async def test_a_counter_above_the_games_token_adopts_at_once(
        redis: Redis, p: str) -> None:
    client = redis
    lease, counter = f"{p}lease:t2", f"{p}fence"
    await client.set(counter, "41")
    assert await client.eval(rk.ADOPT, 2, lease, counter, "proc-a", 5000, 41) == 42
    assert await client.get(lease) == "proc-a 42"
