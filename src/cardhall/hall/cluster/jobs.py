"""Hall-wide work one process does at a time: a ``Job`` (the puzzle miner's).

Some background work reads the shared database and writes what it finds back to it:
every process of a hall doing it repeats the work (and the solver's CPU) as many times
as there are processes. Such work runs in whichever process *holds* its job, and each
round begins by holding it again (``hold``). The process also keeps where the work has
got to (``progress``/``advance``, a text the job gives meaning to), so a process that
takes the job over when its holder stops goes on from there rather than from its own
start.

- One process (``LocalJob``): held always; the progress lives in memory.
- Several (``RedisJob``): the job is a Redis key naming its holder, set for
  ``seconds`` and renewed by each round of the holder; when the holder stops renewing
  (it died, or stalled past ``seconds``), the next process to ask takes it. Its progress
  is another key, written only while the writer holds the job (one script), so a holder
  that lost the job cannot set it back.

A holder that stalls past ``seconds`` mid-round may overlap the next holder for one
round: the work must stay correct when done twice (the miner's is: a puzzle is unique
per game and decision), this only keeps it from being done twice as a rule.
"""

from __future__ import annotations

from typing import Protocol

from redis.asyncio import Redis

from cardhall.hall.cluster.redis_keys import DELETE_IF, ms

#: Lua: KEYS[1] the job's key; ARGV = process, ms. Takes a job nobody holds, renews one
#: the process holds; 1 if the process holds it now, else 0.
HOLD = """
local held = redis.call('get', KEYS[1])
if held == false then
  redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
if held == ARGV[1] then
  redis.call('pexpire', KEYS[1], ARGV[2])
  return 1
end
return 0
"""

#: Lua: KEYS = the job's key, its progress key; ARGV = process, progress. Written only
#: by the holder; 1 if written.
ADVANCE = """
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('set', KEYS[2], ARGV[2])
return 1
"""


class Job(Protocol):
    """A piece of hall-wide work one process does at a time (see the module doc)."""

    async def hold(self) -> bool:
        """Take or keep the job for its ``seconds``; whether this process holds it."""
    async def progress(self) -> str | None:
        """Where the work has got to (None: nowhere yet)."""
    async def advance(self, mark: str) -> bool:
        """Record ``mark`` as the progress, if this process still holds the job."""


class LocalJob:
    """The job of a hall in one process: always this process's."""

    def __init__(self) -> None:
        self._mark: str | None = None

    async def hold(self) -> bool:
        return True

    async def progress(self) -> str | None:
        return self._mark

    async def advance(self, mark: str) -> bool:
        self._mark = mark
        return True


class RedisJob:
    """The job as Redis keys ``{prefix}job:{name}`` (its holder, expiring) and
    ``{prefix}job:{name}:progress``."""

    def __init__(self, redis: Redis, *, prefix: str, process: str, name: str,
                 seconds: float) -> None:
        self.redis = redis
        self.process = process
        self.key = f"{prefix}job:{name}"
        self.progress_key = f"{self.key}:progress"
        self.ms = ms(seconds)
        self._hold = redis.register_script(HOLD)
        self._advance = redis.register_script(ADVANCE)
        self._release = redis.register_script(DELETE_IF)

    async def hold(self) -> bool:
        return bool(await self._hold(keys=[self.key], args=[self.process, self.ms]))

    async def progress(self) -> str | None:
        found = await self.redis.get(self.progress_key)
        return None if found is None else str(found)

    async def advance(self, mark: str) -> bool:
        return bool(await self._advance(keys=[self.key, self.progress_key],
                                        args=[self.process, mark]))

    async def release(self) -> None:
        """Give the job up now (a clean stop: another process takes it at its next round)."""
        await self._release(keys=[self.key], args=[self.process])
