"""Which process owns a table, remembered until its lease could have moved.

Every command a client sends to a process that does not run his table is
forwarded to the table's owner (``cluster.RedisCoordinator.forward``). Looking the
owner up in Redis each time was one round trip more per action for half the
actions of a two-process hall. A lease cannot pass to another process before it
expires (``redis_keys.ACQUIRE``/``ADOPT`` take only a lease nobody holds), so the
owner read with the lease's remaining time is remembered until then: the entry
lapses no later than the lease it was read from, renewals or not, and a table
never moves under a valid entry but for two cases, both caught by the owner
itself. A table its owner closed or dropped (it lost the lease to Redis losing
its data) is not there when the call arrives: the owner answers ``moved`` and the
caller looks again (``CallReply.moved``). An owner that died leaves no
subscriber on its channel: the publish reaches nobody and the caller looks
again. The database's fencing, not this cache, is what keeps a stale owner from
writing.

Bounded: at most ``LIMIT`` tables, the oldest forgotten first.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

#: Tables whose owner one process remembers.
LIMIT = 4096


class OwnerCache:
    """table → (owning process, monotonic time its lease may lapse)."""

    def __init__(self, limit: int = LIMIT,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._now = clock
        self._known: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def get(self, table: str) -> str | None:
        """The owner, while the lease it was read from may still hold."""
        found = self._known.get(table)
        if found is None:
            return None
        owner, until = found
        if self._now() >= until:
            del self._known[table]
            return None
        return owner

    def put(self, table: str, owner: str, read_at: float, ttl_ms: int) -> None:
        """Remember ``owner`` read at ``read_at`` (monotonic, taken before the read was
        sent, so the entry lapses no later than the lease) with ``ttl_ms`` left on it."""
        if ttl_ms <= 0:
            return
        self._known[table] = (owner, read_at + ttl_ms / 1000)
        self._known.move_to_end(table)
        while len(self._known) > self.limit:
            self._known.popitem(last=False)

    def forget(self, table: str) -> None:
        self._known.pop(table, None)

    def __len__(self) -> int:
        return len(self._known)
