"""The owner cache (``hall/cluster/owners.py``): an owner is remembered no longer than the
lease it was read from, forgotten on demand, and at most ``limit`` tables are kept."""

from __future__ import annotations

from cardhall.hall.cluster.owners import OwnerCache
from tests.hall.clock import Clock


def test_an_owner_lapses_with_the_lease_it_was_read_from() -> None:
    clock = Clock(100.0)
    cache = OwnerCache(clock=clock)
    cache.put("t", "p0", read_at=99.5, ttl_ms=2000)  # read half a second ago: 1.5 s left
    assert cache.get("t") == "p0"
    clock.now = 101.49
    assert cache.get("t") == "p0"
    clock.now = 101.5
    assert cache.get("t") is None
    assert len(cache) == 0


def test_no_lease_time_left_or_none_at_all_is_not_remembered() -> None:
    cache = OwnerCache(clock=Clock(100.0))
    cache.put("t", "p0", read_at=100.0, ttl_ms=0)
    cache.put("u", "p0", read_at=100.0, ttl_ms=-1)  # PTTL of a key without expiry
    cache.put("v", "p0", read_at=100.0, ttl_ms=-2)  # PTTL of a key that is gone
    assert (cache.get("t"), cache.get("u"), cache.get("v")) == (None, None, None)


def test_forget_and_the_bound() -> None:
    cache = OwnerCache(limit=3, clock=Clock(100.0))
    for t in "abcd":
        cache.put(t, f"p-{t}", read_at=100.0, ttl_ms=5000)
    assert len(cache) == 3 and cache.get("a") is None  # the oldest went first
    cache.put("b", "p-b2", read_at=100.0, ttl_ms=5000)  # a new reading moves it to the end
    cache.put("e", "p-e", read_at=100.0, ttl_ms=5000)
    assert [cache.get(t) for t in "bcde"] == ["p-b2", None, "p-d", "p-e"]
    cache.forget("d")
    cache.forget("zzz")  # unknown: nothing to forget
    assert cache.get("d") is None and len(cache) == 2
