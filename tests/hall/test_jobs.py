"""Hall-wide jobs (``hall/cluster/jobs.py``): one process at a time holds a job, over a
real Redis; only the holder moves its progress on; another takes it when the holder
stops (released, or not renewed in time) and goes on from its progress. The puzzle
miner runs as one: two processes mining together mine each game once."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from redis.asyncio import Redis

from cardhall.hall.cluster.jobs import LocalJob, RedisJob
from cardhall.hall.store.db import Database
from cardhall.server import puzzles
from cardhall.server.puzzles import PuzzleDesk


def _job(redis: Redis, p: str, process: str, seconds: float = 5.0) -> RedisJob:
    return RedisJob(redis, prefix=p, process=process, name="work", seconds=seconds)


async def test_one_process_holds_a_job_and_only_it_moves_the_progress(
        redis: Redis, p: str) -> None:
    a, b = _job(redis, p, "a"), _job(redis, p, "b")
    assert await a.hold() and not await b.hold()
    assert await a.hold()  # renewed by its holder
    assert await a.progress() is None
    assert await a.advance("10") and not await b.advance("99")
    assert await b.progress() == "10"
    await b.release()  # not b's: nothing happens
    assert not await b.hold()
    await a.release()
    assert await b.hold() and not await a.hold()
    assert await b.progress() == "10"  # b goes on from where a got to
    assert await b.advance("11") and await a.progress() == "11"


async def test_a_holder_that_stops_renewing_loses_the_job(redis: Redis, p: str) -> None:
    a, b = _job(redis, p, "a", seconds=0.2), _job(redis, p, "b", seconds=0.2)
    assert await a.hold() and not await b.hold()
    assert 0 < await redis.pttl(a.key) <= 200  # held for its seconds, then gone unless renewed
    await redis.delete(a.key)  # those seconds ran out (Redis expires the key; no clock here)
    assert await b.hold() and not await a.hold()
    assert not await a.advance("late")  # a stale holder cannot set the progress
    assert await b.progress() is None


async def test_one_process_alone_always_holds_its_job() -> None:
    job = LocalJob()
    assert await job.hold() and await job.progress() is None
    assert await job.advance("x") and await job.hold() and await job.progress() == "x"


async def test_two_miners_mine_each_game_once(redis: Redis, p: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Two processes' mine loops against one Redis: only the job's holder mines, each
    round from the progress the last round left; when the holder stops, the other takes
    over from there."""
    start = datetime(2026, 1, 1, tzinfo=UTC)
    rounds: list[tuple[str, datetime]] = []
    enough = asyncio.Event()  # set once ``want`` rounds were mined
    want = 4

    async def fake_mine(db: Database, desk: PuzzleDesk, since: datetime,
                        *, who: dict[int, str]) -> datetime:
        rounds.append((who[id(desk)], since))
        if len(rounds) >= want:
            enough.set()
        return since + timedelta(minutes=1)

    desks = {"a": PuzzleDesk(), "b": PuzzleDesk()}
    who = {id(d): name for name, d in desks.items()}
    monkeypatch.setattr(puzzles, "MINE_SECONDS", 0.02)
    monkeypatch.setattr(puzzles, "mine_settled",
                        lambda db, desk, since: fake_mine(db, desk, since, who=who))
    jobs = {name: _job(redis, p, name, seconds=0.5) for name in desks}
    db = object()
    loops = {name: asyncio.create_task(puzzles.mine_loop(db, desks[name], jobs[name], start))  # type: ignore[arg-type]
             for name in desks}
    await asyncio.wait_for(enough.wait(), 10)
    first = rounds[0][0]
    assert len(rounds) > 3 and {name for name, _ in rounds} == {first}
    assert [since for _, since in rounds] == [start + timedelta(minutes=i)
                                              for i in range(len(rounds))]
    loops[first].cancel()
    await jobs[first].release()  # a clean stop
    done = len(rounds)
    want = done + 3
    enough.clear()
    await asyncio.wait_for(enough.wait(), 10)
    other = "b" if first == "a" else "a"
    assert {name for name, _ in rounds[done:]} == {other}
    assert [since for _, since in rounds] == [start + timedelta(minutes=i)
                                              for i in range(len(rounds))]
    loops[other].cancel()
