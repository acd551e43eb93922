"""The analysis queue: bounded in all and per requester, a second request joins the
first, progress counts decisions, and the analysis reaches the store's saver."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from cardhall.hall.domain.errors import Busy
from cardhall.hall.live.analysis_pool import AnalysisPool
from tests.analysis import built


async def test_a_requester_queues_one_and_the_hall_a_bounded_number() -> None:
    pool = AnalysisPool(workers=1, queued=2, per_requester=1, samples=4, processes=False)
    saved: list[dict[str, Any]] = []

    async def save(body: dict[str, Any]) -> None:
        saved.append(body)

    try:
        record = built.record()
        first = pool.submit("g1", 0, record, "alice", save)
        assert pool.submit("g1", 0, record, "bob", save) is first  # joins it
        with pytest.raises(Busy, match="under way"):
            pool.submit("g1", 1, record, "alice", save)
        pool.submit("g2", 0, record, "bob", save)
        with pytest.raises(Busy, match="queues"):
            pool.submit("g3", 0, record, "carol", save)
        assert pool.ahead(first) == 0
        while pool.job("g1", 0) is not None or pool.job("g2", 0) is not None:
            await asyncio.sleep(0.05)  # the jobs run in the pool's thread
        assert [b["worst"] for b in saved] == [built.BLUNDER_PLY, built.BLUNDER_PLY]
        assert pool.completed == 2
        assert pool.submit("g3", 0, record, "carol", save).total is None  # room again
    finally:
        await pool.close()


async def test_progress_counts_the_decisions_and_a_what_if_line_comes_back() -> None:
    pool = AnalysisPool(workers=1, samples=4, processes=False)
    seen: list[tuple[int, int | None]] = []

    async def save(body: dict[str, Any]) -> None:
        return None

    try:
        job = pool.submit("g1", 0, built.record(), "alice", save)
        while pool.job("g1", 0) is not None:
            seen.append((job.done, job.total))
            await asyncio.sleep(0.01)
        done = [d for d, total in seen if total is not None]
        assert done == sorted(done)
        line = await pool.what_if(built.record(), built.BLUNDER_PLY, "play D")
        assert line["winners"] == [0] and line["actions"][0] == {"seat": 0, "action": "play D"}
    finally:
        await pool.close()


async def test_one_address_holds_at_most_its_share_of_the_queue() -> None:
    """Guests are free: one address with many guest tokens (each its own requester)
    may hold ``per_address`` places, and the refusal says why; another address and a
    request that joins a queued analysis still get in."""
    pool = AnalysisPool(workers=1, queued=8, per_requester=1, per_address=2, samples=4,
                        processes=False)

    async def save(body: dict[str, Any]) -> None:
        return None

    try:
        record = built.record()
        pool.submit("g1", 0, record, "guest-1", save, address="10.0.0.1")
        pool.submit("g2", 0, record, "guest-2", save, address="10.0.0.1")
        with pytest.raises(Busy, match="your address has 2 analyses"):
            pool.submit("g3", 0, record, "guest-3", save, address="10.0.0.1")
        assert pool.submit("g2", 0, record, "guest-4", save, address="10.0.0.1").key \
            == ("g2", 0)  # joins the one under way
        pool.submit("g3", 0, record, "victim", save, address="10.0.0.2")
        assert pool.job("g3", 0) is not None
    finally:
        await pool.close()
