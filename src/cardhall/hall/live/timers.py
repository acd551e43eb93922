"""How long a seat has to decide (platform rule §3), from the room's turn seconds.

The platform proposes 15 s for a set-up decision (call, rob, bid, double, show,
identity, cede, guard, rebel, declare), 30 s to bury the kitty or call a
friend, 20 s for a play and 10 s more for a free lead. A room sets its play
time (``turn_seconds``); the others keep those proportions, so a fast room is
fast throughout. Expiry puts the seat on 托管 and the 托管 policy answers.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol

#: Seconds a table's lease lasts without renewal when several processes run the hall:
#: about how long a dead process's tables wait before another takes them over.
LEASE_SECONDS = 5.0
#: Redis connections one process may open at most (``--redis-pool``): past that a
#: command waits for a free one instead of failing.
REDIS_POOL = 64

#: Seconds per decision at the platform's default play time of 20 s.
PLAY, FREE_LEAD, SETUP, LONG_SETUP = 20.0, 30.0, 15.0, 30.0
LONG_PHASES = {"bury", "friend", "kitty"}


def decision_seconds(turn_seconds: float, view: dict[str, Any]) -> float:
    """Seconds for the decision ``view`` (of an acting seat) asks for."""
    scale = turn_seconds / PLAY
    phase = str(view.get("phase", ""))
    if phase == "play":
        return (FREE_LEAD if view.get("table") is None else PLAY) * scale
    return (LONG_SETUP if phase in LONG_PHASES else SETUP) * scale


#: A failed settlement is tried again after ``SETTLE_RETRY_FIRST`` seconds, doubling each
#: time up to ``SETTLE_RETRY_CAP``: a database that is locked or away for a while is not
#: hammered, and one that comes back is used within half a minute.
SETTLE_RETRY_FIRST, SETTLE_RETRY_CAP = 0.5, 30.0
#: Seconds a table waits for its settlement before it lets its players go on (leave,
#: join elsewhere, press 再来一局); the settlement goes on in the background meanwhile.
SETTLE_WAIT = 2.0


def retry_seconds(failures: int, first: float = SETTLE_RETRY_FIRST,
                  cap: float = SETTLE_RETRY_CAP) -> float:
    """Seconds before the next try after ``failures`` failed ones (1 for the first)."""
    return float(min(cap, first * 2.0 ** max(0, min(failures - 1, 32))))


class Cancellable(Protocol):
    def cancel(self) -> None: ...


class Scheduler(Protocol):
    """What a table's retries are scheduled on: the event loop, or a test's hand."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable: ...


class LoopScheduler:
    """The running event loop's ``call_later``."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Cancellable:
        return asyncio.get_running_loop().call_later(delay, callback)
