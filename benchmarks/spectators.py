"""Spectators (观战) for the load sweep (``hall_load.py --spectators N``).

``N`` guests, after the ramp (when the tables exist), each take the room's list of
tables to watch (``GET /api/rooms/ROOM/tables``) and watch one, spread over the list
(the ``i``-th the ``i mod len``-th table); a watch that ends (the table closed: ``left``)
or is refused takes the list again and watches another. They run on their own thread
and event loop beside the load test, so that the players' latency is measured with
them on the servers. What they saw is counted: states, refusals, tables watched.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from dataclasses import dataclass, field

from cardhall.client import HallClient
from cardhall.client.hall import ClientError


@dataclass
class Seen:
    watching: int = 0  # spectators that watched a table at least once
    states: int = 0
    watches: int = 0
    refusals: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        refused = ", ".join(f"{k} {v}" for k, v in sorted(self.refusals.items())) or "none"
        return (f"{self.watching} watched, {self.watches} watches, {self.states} states "
                f"received, refused: {refused}")


class Spectators:
    def __init__(self, urls: list[str], room: str, n: int, after: float) -> None:
        self.urls, self.room, self.n, self.after = urls, room, n, after
        self.seen = Seen()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=lambda: asyncio.run(self._run()),
                                        name="spectators", daemon=True)

    def start(self) -> None:
        if self.n:
            self._thread.start()

    def stop(self) -> Seen:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(60)
        return self.seen

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        stopping = asyncio.Event()
        threading.Thread(target=lambda: (self._stop.wait(), loop.call_soon_threadsafe(
            stopping.set)), daemon=True).start()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), self.after)  # the ramp
        if stopping.is_set():
            return
        clients = [HallClient(self.urls[i % len(self.urls)], timeout=30) for i in range(self.n)]
        try:
            for c in clients:
                await c.guest()
                await c.connect()
            tasks = [asyncio.create_task(self._watch(c, i, stopping))
                     for i, c in enumerate(clients)]
            await stopping.wait()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for c in clients:
                await c.close()

    async def _watch(self, c: HallClient, i: int, stopping: asyncio.Event) -> None:
        counted = False
        while not stopping.is_set():
            tables = (await c.get(f"/api/rooms/{self.room}/tables"))["tables"]
            if not tables:
                await asyncio.sleep(1.0)  # a list taken again: none to watch yet
                continue
            table = tables[i % len(tables)]["id"]
            await c.watch(table)
            self.seen.watches += 1
            while not stopping.is_set():
                try:
                    msg = await c.recv(5.0)
                except ClientError:
                    continue  # nothing for a while: the table waits on its players
                if msg.get("type") == "state" and msg.get("table") == table:
                    self.seen.states += 1
                    if not counted:
                        counted = True
                        self.seen.watching += 1
                elif msg.get("type") == "error":
                    code = str(msg.get("code"))
                    self.seen.refusals[code] = self.seen.refusals.get(code, 0) + 1
                    await asyncio.sleep(1.0)  # refused: another table in a moment
                    break
                elif msg.get("type") == "left" and msg.get("table") == table:
                    break
