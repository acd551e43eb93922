"""The quick-match queues when several hall processes share Redis (``cluster.py``).

One sorted set per room (``redis_keys.py``: ``q:{room}``, ``queued``), each change one
Lua script, so that joining and taking a table's worth out of a queue are atomic
across processes: a group taken out is, in the same script, seated at its new table
and the table leased to the process that took it (no concurrent join anywhere seats
one of them twice). ``RedisQueues`` is the ``coordinator.MatchQueues`` of a cluster;
a single-process hall has ``coordinator.LocalQueues``.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from cardhall.hall.cluster import redis_keys as rk
from cardhall.hall.cluster.coordinator import Joined
from cardhall.hall.domain.errors import NotAllowed

if TYPE_CHECKING:
    from cardhall.hall.cluster.redis_coordinator import RedisCoordinator


class RedisQueues:
    """The quick-match queues in Redis: one sorted set per room, each change a script."""

    def __init__(self, coord: RedisCoordinator) -> None:
        self.c = coord
        self.rooms: list[str] = []

    async def add(self, room: str, player: str, need: int, table_id: str,
                  address: str = "") -> Joined:
        c = self.c
        out = await c.script(rk.JOIN, [c.key(f"q:{room}"), c.key("queued")],
                             [player, room, need, rk.ms(time.time()), table_id, c.prefix,
                              c.process, c.lease_ms, address])
        if out[0] == "seated":
            raise NotAllowed("you sit at a table: finish or leave it first")
        return _joined(out)

    async def remove(self, player: str, room: str | None = None) -> str | None:
        c = self.c
        out = await c.script(rk.LEAVE_QUEUE, [c.key("queued")], [player, room or "", c.prefix])
        return None if out is None else str(out)

    async def where(self, player: str) -> str | None:
        room = await self.c.redis.hget(self.c.key("queued"), player)
        return None if room is None else str(room)

    async def take_due(self, room: str, wait: float, table_id: str) -> Joined:
        c = self.c
        out = await c.script(rk.TAKE_DUE, [c.key(f"q:{room}"), c.key("queued")],
                             [rk.ms(wait), rk.ms(time.time() + 0.01), table_id, c.prefix,
                              c.process, c.lease_ms])
        return _joined(out)

    async def waiting(self) -> dict[str, int]:
        pipe = self.c.redis.pipeline(transaction=False)
        for room in self.rooms:
            pipe.zcard(self.c.key(f"q:{room}"))
        return dict(zip(self.rooms, await pipe.execute(), strict=True))


def _joined(out: list[Any]) -> Joined:
    _, group, waiting, since = out
    return Joined([str(p) for p in group], [str(p) for p in waiting],
                  float(since) / 1000 if since else None)
