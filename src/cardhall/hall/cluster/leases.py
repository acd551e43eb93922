"""Renewing a process's table leases on a thread of its own (``cluster.RedisCoordinator``).

A lease is renewed every third of its length. Renewed from the event loop, a loop
busy with a thousand connections (or one long GC pause) delays the renewal past the
lease's end, and the process loses tables nobody else wanted: its clients get
``unknown_table`` and sit in dropped games. So ``LeaseKeeper`` renews from a thread
with its own Redis connection: one Lua call (``redis_keys.RENEW``) renews every lease
of the process and its ``alive`` key, whatever the loop is doing (a busy loop holds
the GIL only between its steps). Only a stopped process (SIGSTOP, swapping) misses
its renewals, which is what the lease is for.

What a renewal finds is handed to the loop (``on_renewed``):

- **renewed**: the lease still held this process's value; its expiry is pushed on.
- **lost**: another process holds the table now: the table is dropped here.
- **lapsed**: the key had expired (or Redis lost its data) and nobody took it; the
  script set it again with this process's value and token, and raised the token
  counter above the token (tokens only grow). The loop then asks the database
  whether the table's game still carries that token: if so the table stays here,
  else another process took it over meanwhile and it is dropped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass

from redis import Redis

from cardhall.hall.cluster import redis_keys as rk
from cardhall.hall.cluster.coordinator import Lease

log = logging.getLogger("cardhall.hall.leases")


@dataclass(frozen=True, slots=True)
class Renewal:
    """One renewal's outcome: the leases it was given that were lost, or had lapsed and
    were taken again with the same token."""

    lost: list[Lease]
    lapsed: list[Lease]


class LeaseKeeper:
    """A daemon thread that renews ``leases()`` every ``interval`` seconds."""

    def __init__(self, url: str, *, process: str, prefix: str, lease_ms: int,
                 interval: float, leases: Callable[[], list[Lease]],
                 on_renewed: Callable[[Renewal], object]) -> None:
        self.redis: Redis = Redis.from_url(url, decode_responses=True,
                                           socket_timeout=max(interval, 1.0))
        self.process = process
        self.prefix = prefix
        self.lease_ms = lease_ms
        self.interval = interval
        self.leases = leases
        self.on_renewed = on_renewed  # called on this thread: it hands over to the loop
        self._stop = threading.Event()
        self._script = self.redis.register_script(rk.RENEW)
        self._thread = threading.Thread(target=self._run, name="lease-keeper", daemon=True)
        self.renewals = 0  # how many went through (for tests and logs)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval + 5)
        self.redis.close()

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.renew_once()
            except Exception:  # Redis down, a timeout, a bug: this thread must not die,
                # or every table of the process would lapse; log it and try next round
                log.exception("renewing the leases failed (they are kept: tried again in "
                              "%.1f s)", self.interval)

    def renew_once(self) -> Renewal:
        """Renew every lease now (one Lua call) and hand the outcome to the loop."""
        leases = self.leases()
        p = self.prefix
        out = self._script(keys=[p + f"alive:{self.process}", p + "fence",
                                 *(p + f"lease:{x.table}" for x in leases)],
                           args=[self.lease_ms, *(f"{self.process} {x.fence}" for x in leases)])
        lost, lapsed = out
        renewal = Renewal([leases[int(i) - 1] for i in lost],
                          [leases[int(i) - 1] for i in lapsed])
        self.renewals += 1
        if renewal.lost or renewal.lapsed:
            self.on_renewed(renewal)
        return renewal
