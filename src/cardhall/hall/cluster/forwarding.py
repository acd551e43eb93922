"""Messages for players connected to another hall process (``cluster.py``).

``ClusterOutbox`` is the hall's Outbox when several processes share Redis: a player
connected here gets his message at once; the others' wait in one bounded queue, in
order, and go out in batches (``Deliver``) to the process each player's presence key
names. A full queue drops (and counts) rather than grows: the player's next hello
brings the full state back.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING

from cardhall.protocol.messages import ServerMessage
from cardhall.protocol.peer import Carries, Deliver

if TYPE_CHECKING:
    from cardhall.hall.cluster.redis_coordinator import RedisCoordinator

#: The coordinator's logger: these lines were always the cluster's.
log = logging.getLogger("cardhall.hall.cluster")

#: Messages for players connected elsewhere that may wait to be forwarded.
FORWARD_LIMIT = 10_000
#: Messages sent in one ``Deliver``.
DELIVER_BATCH = 256


class ClusterOutbox:
    """The hall's Outbox over several processes: players connected here get the message
    at once; the others' wait, bounded and in order, to be forwarded to their process."""

    def __init__(self, coord: RedisCoordinator) -> None:
        self.c = coord
        self.pending: deque[tuple[str, ServerMessage]] = deque()
        self.wake = asyncio.Event()
        self.dropped = 0

    def send(self, player_id: str, message: ServerMessage) -> None:
        if self.c.connections.holds(player_id):
            self.c.connections.send(player_id, message)
            return
        if len(self.pending) >= FORWARD_LIMIT:
            self.dropped += 1  # he resyncs with his next hello; the log says how often
            log.warning("forward queue full: a message for %s is dropped", player_id)
            return
        self.pending.append((player_id, message))
        self.wake.set()

    def closed(self, player_id: str, table: str) -> None:
        """A watcher connected here forgets the table; one connected elsewhere is not
        told (his connection keeps a bounded number of tables: ``server.deltas``)."""
        if self.c.connections.holds(player_id):
            self.c.connections.closed(player_id, table)

    async def run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.pending:
                batch = [self.pending.popleft()
                         for _ in range(min(DELIVER_BATCH, len(self.pending)))]
                await self._forward(batch)

    async def _forward(self, batch: list[tuple[str, ServerMessage]]) -> None:
        players = list(dict.fromkeys(p for p, _ in batch))
        where = await self.c.connected_at(players)  # one round trip, not two
        by_process: dict[str, list[tuple[str, str, Carries]]] = {}
        for player, message in batch:
            process = where.get(player)
            if process is not None and process != self.c.process:
                by_process.setdefault(process, []).append(
                    (player, message.model_dump_json(), Carries.of(message)))
        for process, items in by_process.items():
            await self.c.publish(process, Deliver(items=items))
