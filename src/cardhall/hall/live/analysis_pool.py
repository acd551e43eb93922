"""Post-game analyses off the event loop: queued, bounded, one decision at a time.

An analysis (``cardhall.analysis``) takes seconds of CPU: it runs in a worker process
of its own, spawned as the bot workers are (``botpool``: a fresh interpreter that holds
none of the hall's sockets), never on the event loop. The hall sends the worker one
decision at a time, so it knows how far a job has gone (``Job.done`` of ``Job.total``)
and the client can show it; the worker keeps each job's positions and solver memo
between the calls (``_cache``), the hall keeps the decisions and builds the analysis.

What a stranger can make the hall do is bounded: at most ``queued`` analyses are
queued or running in the process, at most ``per_requester`` of them for one player (or,
without an account, one address), and at most ``per_address`` for everyone behind one
client address (``[limits] analyses_per_address``): guests are free to mint, so without
it one address with a handful of guest tokens held every place of the queue and
everyone else was refused. A request beyond any bound is refused as ``Busy`` (try
again later), its message naming the bound. A request for an analysis already queued
or running joins it. A what-if (one continued line) runs in the same worker, at most
``queued`` at a time (and the server limits each address's rate of them).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardhall.analysis import SAMPLES, Analysis, Decision, accuracy, what_if
from cardhall.analysis.game import Judge, Position, positions
from cardhall.analysis.rollout import ROLLOUTS
from cardhall.hall.domain.errors import Busy
from cardhall.hall.live.botpool import watch_parent

log = logging.getLogger("cardhall.hall.analysis")

#: Analyses queued or running in one process, and per player (or address).
QUEUED = 8
PER_REQUESTER = 1
#: Places of the queue one client address may hold at once (``[limits]`` overrides).
PER_ADDRESS = 2
#: The seed of the hall's analyses: the same game gives the same analysis everywhere.
SEED = 0

Key = tuple[str, int]
Saver = Callable[[dict[str, Any]], Awaitable[None]]

#: In a worker: each job's positions and judge, kept between its decisions.
_CACHE_SIZE = 2
_cache: OrderedDict[Key, tuple[list[Position], Judge]] = OrderedDict()


def _job_state(key: Key, record: dict[str, Any], seat: int,
               samples: int) -> tuple[list[Position], int, Judge]:
    found = _cache.pop(key, None)
    skipped = 0
    if found is None:
        listed, skipped = positions(record, seat)
        found = (listed, Judge(record["variant"], seat, SEED, samples))
    _cache[key] = found
    while len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return found[0], skipped, found[1]


def plan(key: Key, record: dict[str, Any], seat: int, samples: int) -> tuple[int, int]:
    """In a worker: (decisions to judge, decisions left out) of a job."""
    _cache.pop(key, None)
    listed, skipped, _ = _job_state(key, record, seat, samples)
    return len(listed), skipped


def step(key: Key, record: dict[str, Any], seat: int, samples: int,
         index: int) -> Decision | None:
    """In a worker: the job's ``index``-th decision judged."""
    listed, _, judge = _job_state(key, record, seat, samples)
    return judge.decision(listed[index])


def continued(record: dict[str, Any], ply: int, move: str) -> dict[str, Any]:
    """In a worker: the what-if line (``analysis.what_if``) as JSON."""
    return what_if(record, ply, move, seed=SEED).to_json()


@dataclass
class Job:
    """One analysis under way: who asked, how far it has gone."""

    key: Key
    requester: str
    #: The client address that queued it (empty: none known, e.g. a test's).
    address: str = ""
    done: int = 0
    total: int | None = None
    running: bool = False
    task: asyncio.Task[None] | None = field(default=None, repr=False)


class AnalysisPool:
    """The analysis worker(s) and the queue in front of them."""

    def __init__(self, workers: int = 1, queued: int = QUEUED,
                 per_requester: int = PER_REQUESTER, samples: int = SAMPLES,
                 processes: bool = True, per_address: int = PER_ADDRESS) -> None:
        self.queued = queued
        self.per_requester = per_requester
        self.per_address = per_address
        self.samples = samples
        self._executor: Executor = (
            ProcessPoolExecutor(max_workers=workers, initializer=watch_parent,
                                initargs=(os.getpid(),),
                                mp_context=multiprocessing.get_context("spawn"))
            if processes else ThreadPoolExecutor(max_workers=workers))
        self._slots = asyncio.Semaphore(workers)
        self._jobs: dict[Key, Job] = {}
        self._lines = 0
        self.completed = 0

    def job(self, game_id: str, seat: int) -> Job | None:
        """The analysis of that seat queued or running, if any."""
        return self._jobs.get((game_id, seat))

    def ahead(self, job: Job) -> int:
        """Jobs queued before this one that have not started."""
        before = 0
        for other in self._jobs.values():
            if other is job:
                break
            before += not other.running
        return before

    def submit(self, game_id: str, seat: int, record: dict[str, Any], requester: str,
               save: Saver, address: str = "") -> Job:
        """Queue the analysis (or join the one under way); ``save`` keeps its JSON.
        ``address``: the client's, counted against ``per_address`` (empty: not counted)."""
        key = (game_id, seat)
        found = self._jobs.get(key)
        if found is not None:
            return found
        if len(self._jobs) >= self.queued:
            raise Busy(f"{len(self._jobs)} analyses are under way, the most this hall "
                       "queues: try again in a minute")
        if sum(j.requester == requester for j in self._jobs.values()) >= self.per_requester:
            raise Busy("an analysis you asked for is under way: ask for another once it "
                       "is done")
        if address and sum(j.address == address
                           for j in self._jobs.values()) >= self.per_address:
            raise Busy(f"your address has {self.per_address} analyses queued or running, "
                       "the most one address may hold: ask for another once one is done")
        job = Job(key, requester, address)
        self._jobs[key] = job
        job.task = asyncio.get_running_loop().create_task(
            self._run(job, record, save), name=f"analysis-{game_id}-{seat}")
        return job

    async def _run(self, job: Job, record: dict[str, Any], save: Saver) -> None:
        loop = asyncio.get_running_loop()
        run = self._executor
        seat = job.key[1]
        try:
            async with self._slots:
                job.running = True
                total, skipped = await loop.run_in_executor(run, plan, job.key, record, seat,
                                                            self.samples)
                job.total = total
                decisions: list[Decision] = []
                for index in range(total):
                    decision = await loop.run_in_executor(run, step, job.key, record, seat,
                                                          self.samples, index)
                    if decision is None:
                        skipped += 1
                    else:
                        decisions.append(decision)
                    job.done = index + 1
            report = Analysis(record["variant"], seat, SEED, self.samples, tuple(decisions),
                              accuracy(d.loss for d in decisions), skipped, ROLLOUTS)
            await save(report.to_json())
            self.completed += 1
        except Exception:  # a failed analysis must not stop the queue: log it, drop it
            log.exception("the analysis of game %s seat %d failed", *job.key)
        finally:
            self._jobs.pop(job.key, None)

    async def what_if(self, record: dict[str, Any], ply: int, move: str) -> dict[str, Any]:
        """The continued line of ``move`` at ``ply``, computed in the worker."""
        if self._lines >= self.queued:
            raise Busy("too many what-if lines are being played: try again in a moment")
        self._lines += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self._executor, continued, record, ply, move)
        finally:
            self._lines -= 1

    async def close(self) -> None:
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
        self._executor.shutdown(wait=False, cancel_futures=True)
